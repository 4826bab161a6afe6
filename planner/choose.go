package planner

import (
	"slices"
	"strings"
)

// Choosing a reading as a whole. The rules reach one plan for a question;
// the words of the question may allow others (a definition of the term it
// names, the measured table its words are about). Each is scored by how
// many of the question's content words it explains, and the best is
// taken: no order of rules decides between readings the words support
// unequally. A rival must explain strictly more than the rules' plan, so
// a tie keeps it.

// contentMeanings are the tags a reading must account for; function
// words, chatter and politeness ask nothing of a plan.
var contentMeanings = map[meaning]bool{
	mEngine: true, mMode: true, mSetting: true, mWorkload: true, mMetric: true, mRelation: true,
	mKind: true, mClaimant: true, mFailover: true, mClaimTopic: true, mDataset: true,
}

// reason is one thing a token of the question may stand for.
type reason struct {
	meaning meaning // 0 for a glossary term's words or a number
	value   string
	term    string // the glossary term the token is part of
	number  bool
}

// demoNames are the diagnostic runs' labels and the cross-slot demo's keys
// a question names (demoMentions), found once for the rivals and the
// scores.
type demoNames struct{ labels, keys []string }

// reasons lists, per token of the reading, what it may stand for.
func (p *Planner) reasons(r *reading, demo demoNames) [][]reason {
	out := make([][]reason, len(r.toks))
	for _, t := range r.tags {
		if !contentMeanings[t.meaning] {
			continue
		}
		for i := t.from; i < t.to && i < len(out); i++ {
			out[i] = append(out[i], reason{meaning: t.meaning, value: t.value})
		}
	}
	for i, tk := range r.toks {
		if tk.kind == tokNumber || tk.kind == tokRatio {
			out[i] = append(out[i], reason{number: true})
		}
	}
	// A diagnostic run's label and a demo key name their table.
	for _, m := range []struct {
		names   []string
		dataset string
	}{{demo.labels, "diagnostics"}, {demo.keys, "crossslot"}} {
		for _, name := range m.names {
			var words []string
			for _, tk := range tokenize(strings.ToLower(name)) {
				words = append(words, tk.text)
			}
			for i := 0; i+len(words) <= len(r.toks); i++ {
				if wordsAt(r.toks, i, words) {
					for j := i; j < i+len(words); j++ {
						out[j] = append(out[j], reason{meaning: mDataset, value: m.dataset})
					}
				}
			}
		}
	}
	if id, alias := p.tix().find(r.text); id != "" {
		words := strings.Fields(alias)
		for i := 0; i+len(words) <= len(r.toks); i++ {
			if wordsAt(r.toks, i, words) {
				for j := i; j < i+len(words); j++ {
					out[j] = append(out[j], reason{term: id})
				}
				break
			}
		}
	}
	return out
}

// wordsAt reports whether the tokens from i spell words.
func wordsAt(toks []token, i int, words []string) bool {
	for k, w := range words {
		if toks[i+k].text != w {
			return false
		}
	}
	return true
}

// explained scores the tokens of the question a plan accounts for. What
// is asked about (a measure, the failover event, a definition's frame and
// term) weighs twice what it is asked under (an engine, a setting): a
// reading that answers another measure under the stated conditions has
// not answered the question.
func explained(pl *Plan, rs [][]reason) int {
	n := 0
	for _, tok := range rs {
		w := 0
		for _, x := range tok {
			if explains(pl, x) {
				w = max(w, x.weight())
			}
		}
		n += w
	}
	return n
}

func (x reason) weight() int {
	switch {
	case x.term != "":
		return 2
	case x.number:
		return 1
	}
	switch x.meaning {
	case mMetric, mFailover, mKind, mClaimant, mClaimTopic:
		return 2
	}
	return 1
}

// isDataPlan reports whether a plan answers from the measured runs.
func isDataPlan(pl *Plan) bool {
	return len(pl.Queries) > 0 || pl.Search != nil || pl.Intent == IntentNoData && pl.Requested != IntentFailover && pl.Requested != IntentMemory
}

// explains reports whether a plan accounts for one meaning of a token.
func explains(pl *Plan, x reason) bool {
	s := &pl.Slots
	failover := pl.Intent == IntentFailover || pl.Requested == IntentFailover
	define := pl.Intent == IntentDefine
	if pl.Intent == IntentCrossSlot || pl.Intent == IntentDiagnostic {
		return explainsDemo(pl, x)
	}
	switch {
	case x.term != "":
		return define && s.TermID == x.term
	case x.number:
		return isDataPlan(pl) || failover && s.DownAfterMs != 0 || pl.Intent == IntentMemory
	}
	switch x.meaning {
	case mEngine:
		return slices.Contains(s.Engines, x.value)
	case mMode:
		return isDataPlan(pl) || define && len(s.Engines) > 0
	case mSetting, mWorkload:
		return isDataPlan(pl)
	case mMetric:
		switch {
		case failover:
			// "is Redis's failover slower?": the speed word ranks outages.
			return x.value == "outage_s" || x.value == "ops_per_sec"
		case pl.Intent == IntentMemory:
			return x.value == "bytes_per_key"
		}
		return isDataPlan(pl) && measures(pl, x.value)
	case mRelation:
		return isDataPlan(pl) || pl.Premise != nil || failover && len(s.Engines) > 1
	case mKind:
		switch {
		case x.value == "define" || x.value == "define_ctx" || x.value == "define_ref":
			return define
		case strings.HasPrefix(x.value, "count:"):
			return define && "count:"+s.TermID == x.value
		}
		return !isDataPlan(pl)
	case mFailover:
		return failover
	case mClaimant, mClaimTopic:
		return pl.Intent == IntentClaim
	}
	return false
}

// explainsDemo is explains for the cross-slot demo and the diagnostic
// runs: their own words, the engines they hold, and the settings and
// measures of a diagnostic run's row.
func explainsDemo(pl *Plan, x reason) bool {
	diag := pl.Intent == IntentDiagnostic
	switch {
	case x.term != "":
		return !diag // "which hash slot did bravo land in?": the demo's own subject
	case x.number:
		return true // "3 plain keys", "a 3-shard cluster", a diagnostic run's cores
	}
	switch x.meaning {
	case mDataset:
		return x.value == "diagnostics" == diag
	case mEngine:
		return slices.Contains(pl.Slots.Engines, x.value)
	case mMode:
		return true
	case mWorkload:
		return diag || x.value == "mget10" || x.value == "mset10"
	case mSetting, mMetric:
		return diag
	}
	return false
}

// rivals are the readings the question's words allow besides the rules'
// plan: the glossary term it names, the failover table its words are
// about, and the cross-slot demo or the diagnostic runs they name.
func (p *Planner) rivals(question string, r *reading, base *Plan, demo demoNames) []Plan {
	var out []Plan
	labels, keys := demo.labels, demo.keys
	if base.Intent == IntentOutOfScope {
		// Out of scope by absence of domain words, but a diagnostic run's
		// label or a demo key is the domain's own name ("what did
		// shardcheck-48 do?").
		if len(labels) > 0 {
			out = append(out, p.diagnosticsPlan(question, r.engines(), labels, r.metric()))
		}
		if len(keys) > 0 {
			out = append(out, p.crossSlotPlan(question, r.engines(), keys))
		}
		return out
	}
	// A definition is a reading only where the question is framed as one
	// ("what's a …", "explain …", "… in the context of …").
	if base.Intent != IntentDefine && p.kb != nil && (r.hasValue(mKind, "define") || r.hasValue(mKind, "define_ctx")) {
		if id, _ := p.tix().find(r.text); id != "" {
			if name, ok := p.kbTerm(id); ok {
				out = append(out, p.defineOf(question, id, name, r.x))
			}
		}
	}
	if base.Intent != IntentDefine && (r.hasValue(mKind, "define") || r.hasValue(mKind, "define_ref")) && len(r.x.engines) == 1 && len(r.x.metrics) == 0 && !r.x.hasKnobValue() {
		// "KeyDB — what is it?": the engine's own entry.
		if pl, ok := p.engineEntry(question, r.text, r.x, r.x.engines[0].value); ok {
			out = append(out, pl)
		}
	}
	if base.Intent == IntentDefine && r.hasValue(mKind, "define") && r.x.hasKnobValue() {
		// "explain p99 of redis at 16 cores": the measured reading of the
		// same words, settings stated, is a rival to the definition.
		if w := p.fresh(r.x, r.text); w.intent != "" && len(w.engines) > 0 {
			w.question = question
			out = append(out, p.planWant(w))
		}
	}
	if base.Intent != IntentFailover && base.Requested != IntentFailover && (r.has(mFailover) || slices.Contains(r.x.metrics, "outage_s")) {
		w := p.fresh(r.x, r.text)
		w.question = question
		w.intent, w.metric = IntentFailover, "outage_s"
		out = append(out, p.failoverPlan(w))
	}
	if base.Intent != IntentDiagnostic && (len(labels) > 0 || r.hasValue(mDataset, "diagnostics")) {
		out = append(out, p.diagnosticsPlan(question, r.engines(), labels, r.metric()))
	}
	if base.Intent != IntentCrossSlot && (len(keys) > 0 || r.hasValue(mDataset, "crossslot")) {
		out = append(out, p.crossSlotPlan(question, r.engines(), keys))
	}
	return out
}

// chooseWhole returns the best-explaining reading of a question among the
// rules' plan and its rivals, and whether the choice is confident.
func (p *Planner) chooseWhole(question string, base Plan, confident bool) (Plan, bool) {
	switch base.Intent {
	case IntentCompound, IntentChatter, IntentHelp, IntentClaim:
		return base, confident
	}
	if base.Explain || base.Premise != nil && base.Premise.Metric == "outage_s" {
		return base, confident
	}
	r := p.read(question)
	var demo demoNames
	demo.labels, demo.keys = p.demoMentions(r.text)
	rivals := p.rivals(question, &r, &base, demo)
	if len(rivals) == 0 {
		return base, confident
	}
	rs := p.reasons(&r, demo)
	best, bestScore := base, explained(&base, rs)
	var tied []Plan
	for _, c := range rivals {
		switch sc := explained(&c, rs); {
		case sc > bestScore:
			best, bestScore, confident, tied = c, sc, true, nil
		case sc == bestScore && c.Intent != best.Intent && explainsApart(&best, &c, rs):
			tied = append(tied, c)
		}
	}
	if len(tied) > 0 && best.Intent != IntentNoData {
		// Two readings explain the question equally, each some word the
		// other leaves: ask which was meant, with both as choices.
		options := []string{readingChoice(best)}
		for _, c := range tied {
			options = append(options, readingChoice(c))
		}
		c := clarifyPlan(question, "I can read that two ways, each explaining words the other leaves out: which did you mean?", options)
		c.Requested = best.Intent
		return c, true
	}
	if base.Premise != nil && best.Intent == IntentFailover && base.Premise.Object != "" {
		// "does Valkey fail over faster than Redis?" keeps its yes/no,
		// now on the outage the lab measured.
		pr := *base.Premise
		pr.Metric, pr.Always = "outage_s", false
		pr.Statement = premiseStatement(pr)
		best.Premise = &pr
		best.Interpretation = "Yes/no: " + pr.Statement + " — " + best.Interpretation
	}
	return best, confident
}

// measures reports whether a data plan answers with a metric or filters
// on it ("the mean throughput of runs whose p99.9 is at most 3 ms").
func measures(pl *Plan, metric string) bool {
	if pl.Slots.Metric == "" || pl.Slots.Metric == metric || pl.Bound != nil && pl.Bound.Metric == metric {
		return true
	}
	for _, q := range pl.Queries {
		if q.Metric == metric || strings.Contains(q.Filter, metric) {
			return true
		}
	}
	return pl.Search != nil && (pl.Search.Metric == metric || slices.ContainsFunc(pl.Search.Conditions, func(c Condition) bool { return c.Field == metric }))
}

// explainsApart reports two readings that each explain a token the other
// does not: a real choice, not one reading that covers the other.
func explainsApart(a, b *Plan, rs [][]reason) bool {
	onlyA, onlyB := false, false
	for _, tok := range rs {
		ea := slices.ContainsFunc(tok, func(x reason) bool { return explains(a, x) })
		eb := slices.ContainsFunc(tok, func(x reason) bool { return explains(b, x) })
		onlyA = onlyA || ea && !eb
		onlyB = onlyB || eb && !ea
	}
	return onlyA && onlyB
}

// readingChoice words a reading as a question ready to ask.
func readingChoice(pl Plan) string {
	text, _, _ := strings.Cut(pl.Interpretation, " (defaults")
	if i := strings.Index(text, " (term:"); i >= 0 {
		text = text[:i] // the entry's id is for the evidence, not the choice
	}
	return strings.TrimSuffix(text, ".") + "?"
}
