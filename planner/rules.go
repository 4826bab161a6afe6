package planner

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// suggestions are example questions offered by help and "not understood".
func suggestions() []string {
	return []string{
		"Which engine is fastest at 48 cores, read-heavy, pipeline 16?",
		"How does Valkey scale without pipelining?",
		"Dragonfly vs Redis at 16 cores, p99",
		"What does pipelining do to Garnet?",
		"Is Dragonfly 25x faster than Redis?",
		"How many bytes per key does Valkey use?",
		"How long does a Sentinel failover take?",
		"What does 'client-limited' mean?",
	}
}

// rules plans a question with the deterministic grammar. confident is
// false when the rules could not place the question (a Completer may then
// try).
func (p *Planner) rules(question string, prev *Plan) (Plan, bool) {
	q := strings.TrimSpace(question)
	switch {
	case q == "":
		return p.helpPlan(question, "The question was empty."), true
	case utf8.RuneCountInString(q) > p.opts.MaxQuestionChars:
		return clarifyPlan(question, "That question is too long to read reliably; ask one thing at a time, in a sentence or two.", nil), true
	}
	r := p.readTokens(q)
	for _, rc := range p.early {
		if pl, ok := rc.plan(p, question, &r, prev); ok {
			return pl, true
		}
	}
	if !hasWordContent(q) {
		return clarifyPlan(question, "I could not find any words in that question.", nil), true
	}
	text := r.canonical()
	x := p.extract(text)
	engines := make([]string, 0, len(x.engines))
	for _, e := range x.engines {
		engines = append(engines, e.value)
	}

	switch {
	case p.g.injection.MatchString(text):
		return outOfScopePlan(question, "It asks me to set the measurements aside or to state something they do not show; every answer here comes from measured runs, so that is not something I do."), true
	}
	// Another database first: "SELECT … FROM pg_stat_activity; why is our
	// postgres slow?" is about Postgres, whatever code it pastes.
	if m := p.g.otherDB.FindAllString(text, -1); len(m) > 0 {
		names := uniqueNames(m)
		pl := outOfScopePlan(question, "It is about "+joinAnd(names)+", which this benchmark did not measure: it covers only Redis, Valkey, Dragonfly, KeyDB and Garnet.")
		pl.Missing = names // what was asked about and never measured, for line 1
		return pl, true
	}
	if p.g.code.MatchString(text) {
		pl := clarifyPlan(question, "That looks like code or a filter expression rather than a question. To run a raw filter over the runs, use the runs command (memdb-oracle runs 'engine == \"redis\" && cores == 8'); or ask in words.", nil)
		return pl, true
	}
	if p.g.measured.MatchString(text) && len(engines) == 0 && !x.hasKnobValue() {
		pl := p.helpPlan(question, "")
		pl.Interpretation = "What was measured: the engines, modes, core counts, workloads, value sizes and pipeline depths in the runs"
		pl.Slots.TermID = "scope:coverage"
		return pl, true
	}
	if p.g.help.MatchString(text) && len(engines) == 0 && !x.hasKnobValue() && len(x.metrics) == 0 {
		return p.helpPlan(question, ""), true
	}
	switch {
	case p.g.pricing.MatchString(text) && !p.costOfSetting(text, x):
		return outOfScopePlan(question, "Prices, managed services and business questions are not covered: the benchmark measured throughput, latency, memory per key and failover time only."), true
	case p.g.programming.MatchString(text) && !p.g.defineStrong.MatchString(text) && !(len(engines) > 0 && (x.hasKnobValue() || len(x.metrics) > 0)):
		// "dragonfly 16 cores in k8s" asks of the data (an unmeasured
		// platform, said so), not for operations help.
		return outOfScopePlan(question, "General programming, installation and operations help is not covered: I answer only from the benchmark's measurements, glossary and the vendors' recorded claims."), true
	case p.g.general.MatchString(text) && len(engines) == 0:
		return outOfScopePlan(question, "That is general knowledge, not something the benchmark measured."), true
	}

	if p.g.whyOnly.MatchString(text) || (prev != nil && strings.TrimSpace(strings.TrimRight(text, "?")) == "what does that mean") || p.whyOfThread(x, text, prev) {
		// A setup question (a help plan naming its entry) has reasons to give.
		if prev == nil || prev.Intent == IntentOutOfScope || prev.Intent == IntentHelp && prev.Slots.TermID == "" {
			return clarifyPlan(question, "Why what? Ask a question first, then “why?” explains its answer.", nil), true
		}
		pl := *prev
		pl.Question = question
		pl.Explain = true
		pl.Source = "rules"
		pl.Inherited = inheritedAll(prev)
		if !strings.HasPrefix(pl.Interpretation, "Why: ") {
			pl.Interpretation = "Why: " + pl.Interpretation
		}
		return pl, true
	}

	if p.kb != nil && p.g.licenceAsk.MatchString(text) && len(x.metrics) == 0 {
		if name, ok := p.kbTerm("term:licences"); ok {
			return p.defineOf(question, "term:licences", name, x), true
		}
	}
	if p.kb != nil && p.g.cpuAsk.MatchString(text) {
		// No run records CPU load; the glossary entry says so and quotes
		// the few observations in the author's prose.
		if name, ok := p.kbTerm("term:cpu-percent"); ok {
			return p.defineOf(question, "term:cpu-percent", name, x), true
		}
	}
	if p.kb != nil && p.g.boundAsk.MatchString(text) && len(x.metrics) == 0 && !p.g.defineStrong.MatchString(text) {
		// "Is Dragonfly client-limited?", "what limits Garnet at 48 cores?"
		id := "term:client-limited"
		if strings.Contains(text, "server") {
			id = "term:server-bound"
		}
		if name, ok := p.kbTerm(id); ok {
			return p.defineOf(question, id, name, x), true
		}
	}
	if p.g.setupAsk.MatchString(text) && !x.hasKnobValue() && len(x.metrics) == 0 {
		// "What version of Redis was tested?", "what hardware was used?"
		if len(engines) == 1 {
			if pl, ok := p.engineEntry(question, text, x, engines[0]); ok {
				return pl, true
			}
		}
		if len(engines) == 0 {
			pl := p.helpPlan(question, "")
			pl.Interpretation = "What was measured and on what: the engines and their versions, the hardware, the modes, core counts, workloads, value sizes and pipeline depths in the runs"
			pl.Slots.TermID = setupTopic(text)
			return pl, true
		}
	}
	if p.kb != nil && p.g.useAsk.MatchString(text) && len(x.metrics) == 0 && !x.hasKnobValue() && len(p.g.featuresIn(text)) == 0 {
		// "Does Dragonfly use io_uring in this benchmark?"
		if id, _ := p.tix().find(text); id != "" {
			if name, ok := p.kbTerm(id); ok {
				return p.defineOf(question, id, name, x), true
			}
		}
	}
	if p.g.defineStrong.MatchString(text) || len(x.quoted) > 0 && p.g.defineLead.MatchString(text) {
		if pl, ok := p.definePlan(question, text, x, true); ok {
			return pl, true
		}
	}
	if c, ok := p.matchClaim(text, engines); ok {
		var thread *Plan
		if p.continues(x, text, prev) {
			thread = prev // "is that sub-millisecond?" about the thread's cell
		}
		return p.claimPlan(question, text, x, c, thread), true
	}

	if prev != nil && p.g.defineLead.MatchString(text) {
		if pl, ok := p.definePlan(question, text, x, false); ok {
			return pl, true
		}
	}
	var w want
	if p.continues(x, text, prev) {
		w = p.merge(x, text, prev)
	} else {
		if pl, ok := p.definePlan(question, text, x, false); ok {
			return pl, true
		}
		w = p.fresh(x, text)
	}
	w.question = question
	p.pairMode(&w)
	if w.intent == "" {
		if p.g.chitchat.MatchString(text) {
			return outOfScopePlan(question, "Small talk is not something I can help with; I answer questions about the benchmark's measurements."), true
		}
		if pl, ok := p.definePlan(question, text, x, false); ok {
			return pl, true
		}
		if pl, ok := p.termMention(question, text, x); ok {
			return pl, true // "how many reps per run?": the glossary entry it names
		}
		for _, rc := range p.late {
			if pl, ok := rc.plan(p, question, &r, prev); ok {
				return pl, false // a language model may still place it
			}
		}
		return notUnderstood(question), false
	}
	// Only a bare speed or latency word ("which is quickest?"): the rules
	// plan a ranking, but a language model may read it better.
	vague := len(w.engines) == 0 && !x.allEngines && !x.hasKnobValue() && len(x.topics) == 0 && len(w.inherited) == 0 && len(x.versions) == 0
	features := p.g.featuresIn(text)
	if vague && len(x.metrics) == 0 && x.downAfter == 0 && x.keys == 0 && len(features) == 0 {
		if pl, ok := p.termMention(question, text, x); ok {
			return pl, true // "which memtier settings did you use?"
		}
	}
	if len(features) > 0 {
		return p.withFeatures(p.planWant(w), features), true
	}
	if said, had := p.g.featuresOff(text); len(said) > 0 {
		// "redis without persistence": what every run had.
		pl := p.planWant(w)
		pl.UnboundReading = joinReading("Read "+joinAnd(said)+" as the runs' own setup: "+joinAnd(had), pl.UnboundReading)
		return pl, !vague
	}
	if vague && len(x.metrics) == 0 && !p.hasDomainContent(&r) {
		// "best sci-fi movies of 2020?": a superlative, and nothing of the
		// domain to rank.
		if pl, ok := p.recogniseNoDomain(question, &r, prev); ok {
			return pl, false
		}
	}
	return p.planWant(w), !vague
}

// planWant dispatches a data request by intent.
func (p *Planner) planWant(w want) Plan {
	switch w.intent {
	case IntentMemory:
		return p.memoryPlan(w)
	case IntentFailover:
		return p.failoverPlan(w)
	}
	return p.measuredPlan(w)
}

func uniqueNames(m []string) []string {
	var out []string
	for _, s := range m {
		name := otherDBName(s)
		out = appendUnique(out, name)
	}
	return out
}

// otherDatabasesText lists the databases and services the benchmark did
// not measure, and how an answer names them: data, so adding one is a line
// of data/other-databases.txt.
//
//go:embed data/other-databases.txt
var otherDatabasesText string

// otherDatabases are the lines of data/other-databases.txt: a pattern for
// the words, and the name ("" spells the words as asked, capitalised). The
// file is part of the binary: a malformed line panics on first use.
var otherDatabases = sync.OnceValue(func() (out [][2]string) {
	for n, line := range strings.Split(otherDatabasesText, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pattern, name, ok := strings.Cut(line, "=>")
		if !ok {
			panic(fmt.Sprintf("data/other-databases.txt:%d: want PATTERN => NAME, got %q", n+1, line))
		}
		out = append(out, [2]string{strings.TrimSpace(pattern), strings.TrimSpace(name)})
	}
	return out
})

// otherDatabasesPattern matches any of them, as whole words.
func otherDatabasesPattern() string {
	var alts []string
	for _, db := range otherDatabases() {
		alts = append(alts, db[0])
	}
	return `\b(` + strings.Join(alts, "|") + `)\b`
}

// otherDBName spells a database the benchmark did not measure.
func otherDBName(s string) string {
	for _, db := range otherDatabases() {
		if db[1] != "" && regexp.MustCompile(`^(?:`+db[0]+`)$`).MatchString(s) {
			return db[1]
		}
	}
	return upperFirst(s)
}

// inheritedAll lists the slots a "why?" keeps: every slot the previous
// question or thread set.
func inheritedAll(prev *Plan) []string {
	w := fromPlan(prev)
	var out []string
	for _, s := range []string{slotEngines, slotModes, slotCores, slotRatio, slotValue, slotPipeline, slotSession, slotMetric, slotKnob, slotDownAfter} {
		if w.given(s) {
			out = append(out, s)
		}
	}
	return out
}

func (p *Planner) helpPlan(question, why string) Plan {
	pl := Plan{Intent: IntentHelp, Question: question, Source: "rules", Suggestions: suggestions(),
		Interpretation: "What I can answer: throughput, latency, hit rate, memory per key and failover time of Redis, Valkey, Dragonfly, KeyDB and Garnet, as measured; how they change with cores, pipeline depth, value size and workload; vendor claims checked against the runs; and the glossary"}
	if why != "" {
		pl.Notes = []string{why}
	}
	return pl
}

func outOfScopePlan(question, why string) Plan {
	return Plan{Intent: IntentOutOfScope, Question: question, Source: "rules", Refusal: why, Suggestions: suggestions(),
		Interpretation: "Out of scope: " + why}
}

func clarifyPlan(question, why string, options []string) Plan {
	return Plan{Intent: IntentClarify, Question: question, Source: "rules", Refusal: why, Options: options, Suggestions: suggestions(),
		Interpretation: "Not understood: " + why}
}

// notUnderstood is the answer when neither the rules nor a language model
// could place the question.
func notUnderstood(question string) Plan {
	return clarifyPlan(question, "I could not match that to the engines, settings or metrics the benchmark measured. Try one of the example questions, or name an engine, a core count, a workload or a metric.", nil)
}

// definePlan resolves a glossary term. strong means the wording asked for a
// meaning ("what does X mean"); otherwise the question must hold nothing
// but the term ("what is pipelining?", "NUMA?").
func (p *Planner) definePlan(question, text string, x *parsed, strong bool) (Plan, bool) {
	if p.kb == nil {
		return Plan{}, false
	}
	lead := p.g.defineLead.FindStringSubmatch(text)
	// "what's cluster-sat?", "what is the realistic series?": a mode phrase
	// that is itself a glossary term, asked about on its own.
	modeTerm := lead != nil && len(x.metrics) == 0 && (len(x.modes) > 0 || x.session != 0) && len(x.cores) == 0 && len(x.pipelines) == 0 &&
		len(x.ratios) == 0 && len(x.values) == 0
	if !strong && (len(x.engines) > 0 || x.hasKnobValue() && !modeTerm || x.allEngines) {
		return Plan{}, false
	}
	if !strong && lead == nil && slices.ContainsFunc(x.metrics, func(m string) bool { return m == "outage_s" || m == "bytes_per_key" }) {
		return Plan{}, false // "/failover", "memory?": the measured table, not the word
	}
	if modeTerm && p.g.differenceOf.MatchString(text) {
		// "the difference between realistic and ceiling" (or "between
		// cluster and cluster-sat", where the bare "cluster" is not a
		// specific mode): the entry on both.
		var all []string
		for _, m := range x.modes {
			all = append(all, m.modes...)
		}
		if t, ok := p.kb.Define("realistic vs ceiling"); ok && slices.Contains(all, "cluster") && slices.Contains(all, "cluster-sat") {
			return p.defineOf(question, t.ID, t.Name, x), true
		}
	}
	var cands []string
	cands = append(cands, x.quoted...)
	if m := p.g.defineCapture.FindStringSubmatch(text); m != nil {
		for _, s := range m[1:] {
			if s != "" {
				cands = append(cands, p.g.defineTail.ReplaceAllString(s, ""))
			}
		}
	}
	if lead != nil {
		c := p.g.defineTail.ReplaceAllString(lead[1], "")
		cands = append(cands, c)
		cands = append(cands, termHeads(c)...)
	}
	if !strong && lead == nil && x.wordCount > 4 {
		return Plan{}, false
	}
	if !strong && lead == nil {
		cands = append(cands, strings.Trim(text, " ?!."))
	}
	for _, c := range cands {
		c = strings.Trim(c, " ?!.'\"")
		if c == "" {
			continue
		}
		if t, ok := p.kb.Define(c); ok {
			return p.defineOf(question, t.ID, t.Name, x), true
		}
	}
	if strong {
		if id, _ := p.tix().find(text); id != "" {
			if t, ok := p.kbTerm(id); ok {
				return p.defineOf(question, id, t, x), true
			}
		}
	}
	return Plan{}, false
}

// termHeads are the shorter readings of a definition's subject with what
// trails the term taken off ("ops_per_core exactly", "p99, formula-wise",
// "ops_per_core, in plain words"): the part before a comma, then up to
// three last words, each an ordinary word or one the reader does not know
// (which the accounting names back), never a word of the domain.
func termHeads(c string) []string {
	var out []string
	if head, _, ok := strings.Cut(c, ","); ok {
		out = append(out, head)
		c = head
	}
	words := strings.Fields(c)
	known := sharedKnownWords()
	for k := 1; k <= 3 && k < len(words); k++ {
		w := strings.ToLower(strings.Trim(words[len(words)-k], " ?!.,"))
		if known[w] && !functionWords()[w] {
			break
		}
		out = append(out, strings.Join(words[:len(words)-k], " "))
	}
	return out
}

// kbTerm names the glossary term with the id.
func (p *Planner) kbTerm(id string) (string, bool) {
	name, ok := p.tix().names[id]
	return name, ok
}

func (p *Planner) defineOf(question, id, name string, x *parsed) Plan {
	pl := Plan{Intent: IntentDefine, Question: question, Source: "rules", Interpretation: "Definition of " + name + " (" + id + ")"}
	pl.Slots.TermID = id
	for _, e := range x.engines {
		pl.Slots.Engines = append(pl.Slots.Engines, e.value)
	}
	return pl
}

// claimPlan checks a recorded claim: the claim entry plus, for claims about
// throughput or latency, the runs that answer it under the defaults.
func (p *Planner) claimPlan(question, text string, x *parsed, c claimRule, prev *Plan) Plan {
	// The claim's own numbers ("40-shard", "pipeline 30", "8 vCPUs") are
	// the claimant's setup, not the user's request: blank the claim's
	// wording and read the rest.
	orig := x
	blanked := text
	for _, r := range p.g.claims {
		if r.id == c.id {
			blanked = r.re.ReplaceAllStringFunc(blanked, func(m string) string { return strings.Repeat(" ", len(m)) })
		}
	}
	x = p.g.extract(blanked)
	x.versions = orig.versions // "Redis 9 vs Dragonfly 1.20" names versions all the same
	if p.g.claimVCPU.MatchString(text) {
		x.cores, x.notes = nil, nil
	}
	text = blanked
	w := p.fresh(x, text)
	if !slices.ContainsFunc(x.modes, func(m modeMention) bool { return m.specific }) {
		w.modes, w.modeFor = nil, nil // "a cluster beats Dragonfly" names no series
	}
	w.question = question
	w.intent = IntentClaim
	w.claimID = c.id
	w.claimTopic = c.topic
	w.knob = ""
	w.claimAt = p.claimConditions(c.id)
	if prev != nil {
		// A claim asked of the thread's last answer keeps its conditions.
		base := fromPlan(prev)
		if len(w.engines) == 0 && len(base.engines) > 0 {
			w.engines, w.modes, w.modeFor = base.engines, base.modes, nil
			w.inherited = append(w.inherited, slotEngines)
		}
		inheritInt := func(slot string, dst *[]int, src []int) {
			if len(*dst) == 0 && len(src) > 0 {
				*dst = slices.Clone(src)
				w.inherited = append(w.inherited, slot)
			}
		}
		inheritInt(slotCores, &w.cores, base.cores)
		inheritInt(slotValue, &w.values, base.values)
		inheritInt(slotPipeline, &w.pipelines, base.pipelines)
		if len(w.ratios) == 0 && len(base.ratios) > 0 {
			w.ratios = slices.Clone(base.ratios)
			w.inherited = append(w.inherited, slotRatio)
		}
		if w.session == 0 && base.session != 0 {
			w.session = base.session
			w.inherited = append(w.inherited, slotSession)
		}
	}
	if len(w.engines) == 0 && p.kb != nil {
		if cl, ok := p.kb.Claim(c.id); ok {
			for _, e := range cl.Engines {
				if engineRank(e) < 5 {
					w.engines = appendUnique(w.engines, e)
				}
			}
		}
	}
	if len(w.engines) == 0 {
		w.engines = slices.Clone(c.engines)
	}
	// Engines inside the claim's wording ("outperforms Redis") are still
	// what the question is about.
	for _, e := range orig.engines {
		w.engines = appendUnique(w.engines, e.value)
	}
	// In the order the question named them.
	pos := func(e string) int {
		if i := slices.IndexFunc(orig.engines, func(m mention) bool { return m.value == e }); i >= 0 {
			return i
		}
		return len(orig.engines)
	}
	slices.SortStableFunc(w.engines, func(a, b string) int { return pos(a) - pos(b) })
	if c.topic == "memory" {
		w.metric = "bytes_per_key"
		pl := p.memoryPlan(w)
		if pl.Intent == IntentMemory {
			pl.Intent = IntentClaim
			pl.Interpretation = "Claim " + c.id + " checked against the measured memory table: " + strings.TrimPrefix(pl.Interpretation, "Memory per key (bytes) of ")
		}
		return pl
	}
	if c.topic == "other" || len(w.engines) == 0 {
		pl := Plan{Intent: IntentClaim, Question: question, Source: "rules",
			Interpretation: "Claim " + c.id + " checked against the benchmark's sources and measurements"}
		pl.Slots.ClaimID = c.id
		pl.Slots.Engines = w.engines
		pl.Notes = p.versionNotes(w.versions)
		return pl
	}
	w.metric = ""
	if len(x.metrics) > 0 && x.metrics[0] != "bytes_per_key" && x.metrics[0] != "outage_s" {
		w.metric = x.metrics[0]
	}
	return p.measuredPlan(w)
}

// termMention defines the glossary term a question names when nothing else
// in it can be planned ("how many reps per run?" → term:repetitions).
func (p *Planner) termMention(question, text string, x *parsed) (Plan, bool) {
	if p.kb == nil || len(x.engines) > 0 || x.allEngines {
		return Plan{}, false
	}
	id, _ := p.tix().find(text)
	if id == "" {
		return Plan{}, false
	}
	name, ok := p.kbTerm(id)
	if !ok {
		return Plan{}, false
	}
	return p.defineOf(question, id, name, x), true
}

// costOfSetting reports a "how much does … cost" whose cost is a measured
// setting's or is counted in a metric ("how much does 1024 B cost
// Dragonfly relative to 100 B", "… pipelining cost in p99"): an
// effect on the runs, not a price, when nothing else of pricing is there
// ("how much does it cost to run redis" stays a price).
func (p *Planner) costOfSetting(text string, x *parsed) bool {
	measured := len(x.values) > 0 || len(x.pipelines) > 0 || len(x.ratios) > 0 || len(x.metrics) > 0
	for t := range x.topics {
		measured = measured || t != slotCores
	}
	if !measured {
		return false // "how much would a 48 core box cost": hardware has a price
	}
	rest := strings.NewReplacer("how much does ", "", "how much do ", "", "how much would ", "", "how much will ", "").Replace(text)
	return !p.g.pricing.MatchString(rest)
}
