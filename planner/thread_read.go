package planner

import (
	"slices"
	"strconv"
	"strings"
)

// The thread stage reads what a follow-up says about the thread's last
// answer before the rules read it: "the former" / "the latter" are its
// first and last engine, "half the cores" / "twice the cores" its core
// count halved or doubled, "not p99.9 — p50" replaces the metric, and a
// bare place ("which one is third?") is that place in its ranking. A
// follow-up inside a failover thread stays in the failover lab.

// threadText rewrites the thread's references in a follow-up's text; a
// follow-up that picks one of the thread's engines ("the former") gets a
// thread narrowed to it, so nothing else is inherited.
func (p *Planner) threadText(text string, prev *Plan) (string, *Plan) {
	if prev == nil {
		return p.contrastive(text), prev
	}
	picked := ""
	words := strings.Fields(text)
	engines := prev.Slots.Engines
	stated := len(engines) >= 2 && !slices.Contains(prev.Defaulted, slotEngines)
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w, trail := splitTrailing(words[i])
		lw := strings.ToLower(w)
		if base, ok := cutPossessive(lw); ok && (base == "former" || base == "latter") {
			lw, trail = base, "'s"+trail // "the latter's p50?"
		}
		switch {
		case stated && (lw == "former" || lw == "latter"):
			e := engines[0]
			if lw == "latter" {
				e = engines[len(engines)-1]
			}
			if n := len(out); n > 0 && strings.EqualFold(out[n-1], "the") {
				out = out[:n-1]
			}
			out = append(out, e+trail)
			picked = e
			continue
		case (lw == "half" || lw == "double" || lw == "twice") && len(prev.Slots.Cores) == 1:
			// "half the cores", "twice as many cores", "double the cores"
			j := i + 1
			for j < len(words) && j < i+4 {
				nw, _ := splitTrailing(strings.ToLower(words[j]))
				if nw == "cores" || nw == "cpus" || nw == "vcpus" || nw == "threads" {
					break
				}
				if nw != "the" && nw != "as" && nw != "many" && nw != "of" {
					j = len(words)
				}
				j++
			}
			if i+1 < len(words) && j >= len(words) {
				// "and at double that?", "half of it": the thread's core
				// count, the only setting a multiple of which is asked.
				if nw, _ := splitTrailing(strings.ToLower(words[i+1])); nw == "that" || nw == "it" || nw == "this" {
					j = i + 1
				}
			}
			if j < len(words) && j < i+4 {
				n := prev.Slots.Cores[0] * 2
				if lw == "half" {
					n = prev.Slots.Cores[0] / 2
				}
				_, t := splitTrailing(words[j])
				out = append(out, strconv.Itoa(n)+" cores"+t)
				i = j
				continue
			}
		}
		out = append(out, words[i])
	}
	if picked != "" {
		// What the thread's engine is picked for continues the thread,
		// though the text now names the engine ("the former at half the
		// cores?" keeps the thread's p99).
		if !p.g.followMarker.MatchString(strings.ToLower(out[0])) {
			out = append([]string{"and"}, out...)
		}
		narrowed := *prev
		if narrowed.Intent == IntentCompare {
			narrowed.Intent = IntentLookup // one engine of the two: its numbers
		}
		narrowed.Slots.Engines = []string{picked}
		narrowed.ThreadEngines = []string{picked}
		var qs []Query
		for _, q := range prev.Queries {
			if q.Engine == picked || q.Engine == "" {
				qs = append(qs, q)
			}
		}
		narrowed.Queries = qs
		prev = &narrowed
	}
	return p.contrastive(strings.Join(out, " ")), prev
}

// contrastive writes "not p99.9 — p50", "p50, not p99.9" and "p50 instead
// of p99.9" the one way the correction rules read ("not p99.9, p50"): of
// two words of one kind, the one not denied stands.
func (p *Planner) contrastive(text string) string {
	lt := strings.ToLower(text)
	if !strings.Contains(lt, "not ") && !strings.Contains(lt, "instead of") {
		return text
	}
	words := strings.Fields(text)
	bare := func(i int) string {
		w, _ := splitTrailing(strings.ToLower(strings.Trim(words[i], "—–:;,")))
		return w
	}
	kind := func(i int) meaning {
		if i < 0 || i >= len(words) {
			return 0
		}
		for _, ph := range p.lx.byFirst[bare(i)] {
			if len(ph.words) == 1 && (ph.meaning == mMetric || ph.meaning == mEngine) {
				return ph.meaning
			}
		}
		return 0
	}
	isDash := func(i int) bool {
		return i < len(words) && (strings.Trim(words[i], "—–-:;,") == "" || strings.EqualFold(words[i], "but"))
	}
	rewrite := func(from, to int, denied, kept string) string {
		out := append(slices.Clone(words[:from]), "not", denied+",", kept)
		return strings.Join(append(out, words[to:]...), " ")
	}
	for i, w := range words {
		lw := strings.ToLower(w)
		switch {
		case lw == "not" && kind(i+1) != 0:
			// "not p99.9 — p50", "not p99.9 but p50" (the comma form is the rules' own)
			j := i + 2
			if isDash(j) {
				j++
			}
			if j != i+2 && kind(j) == kind(i+1) {
				return rewrite(i, j+1, bare(i+1), words[j])
			}
		case lw == "not" && i > 0 && kind(i+1) != 0 && kind(i-1) == kind(i+1):
			// "p50, not p99.9"
			return rewrite(i-1, i+2, bare(i+1), bare(i-1))
		case lw == "instead" && i+2 < len(words) && strings.EqualFold(words[i+1], "of") && kind(i+2) != 0 && kind(i-1) == kind(i+2):
			// "p50 instead of p99.9"
			return rewrite(i-1, i+3, bare(i+2), bare(i-1))
		}
	}
	return text
}

// placeFollowUp answers "which one is third?", "and the runner-up?",
// "who's second" after a ranking, or after a measured table of several
// engines (memory per key, failover outages): the thread's ranking, at
// that place.
func placeFollowUp(question, text string, prev *Plan) (Plan, bool) {
	if prev == nil {
		return Plan{}, false
	}
	switch prev.Intent {
	case IntentCompare:
	case IntentMemory, IntentFailover:
		if len(prev.Slots.Engines) == 1 {
			return Plan{}, false // one engine: there is no second place
		}
	default:
		return Plan{}, false
	}
	words := accountWords(text)
	if len(words) > 7 {
		return Plan{}, false
	}
	position, limit, worst := rankingShape(words)
	if position == 0 && limit == 0 {
		return Plan{}, false
	}
	worst = worst || slices.ContainsFunc(words, func(w accountWord) bool { return directionWords[w.lower] })
	for _, w := range words {
		if _, ok := sharedKnownWords()[w.lower]; !ok && !isNumber(w.lower) && !slices.Contains([]string{"runner-up", "runner", "up"}, w.lower) {
			if _, ordinal := ordinals[w.lower]; !ordinal {
				return Plan{}, false // it says more than a place: the rules read it
			}
		}
	}
	pl := *prev
	pl.Question = question
	pl.Position, pl.Limit = position, limit
	pl.Inherited = []string{slotEngines, slotCores, slotRatio, slotValue, slotPipeline, slotSession, slotMetric}
	if worst {
		pl.Order = flipOrder(pl.Order, pl.Slots.Metric)
	}
	base := strings.TrimPrefix(prev.Interpretation, "Place ")
	if i := strings.Index(base, ": "); strings.HasPrefix(prev.Interpretation, "Place ") && i >= 0 {
		base = base[i+2:]
	}
	if position > 0 {
		pl.Interpretation = "Place " + strconv.Itoa(position) + " of the thread's ranking: " + base
	} else {
		pl.Interpretation = "The first " + strconv.Itoa(limit) + " of the thread's ranking: " + base
	}
	pl.UnboundReading, pl.Unread = "", nil
	pl.Query = queryPlan(&pl)
	return pl, true
}

// failoverFollowUp keeps a follow-up in the failover lab when the thread
// is there and the follow-up names no other measurement ("and which engine
// was slowest?" after a failover answer).
func failoverFollowUp(pl *Plan, prev *Plan, text string) {
	if prev == nil || prev.Intent != IntentFailover || pl.Intent == IntentFailover {
		return
	}
	switch pl.Intent {
	case IntentCompare, IntentLookup, IntentSearch, IntentRecommend:
	default:
		return
	}
	if pl.Slots.Metric != "" && !slices.Contains(pl.Defaulted, slotMetric) && pl.Slots.Metric != "ops_per_sec" ||
		len(pl.Slots.Cores) > 0 && !slices.Contains(pl.Defaulted, slotCores) {
		return // it asks about the runs: a core count, a latency
	}
	lw := strings.ToLower(text)
	order := OrderAsc
	for _, w := range []string{"slowest", "longest", "worst", "slower", "longer"} {
		if strings.Contains(lw, w) {
			order = OrderDesc
		}
	}
	f := *prev
	f.Question = pl.Question
	f.Order = order
	if statedEngines(pl) {
		f.Slots.Engines = pl.Slots.Engines
	}
	f.Interpretation = "In the thread's failover lab, ranked by outage (" + map[Order]string{OrderAsc: "shortest", OrderDesc: "longest"}[order] + " first): " + prev.Interpretation
	*pl = f
}

// memoryFollowUp keeps a follow-up in a memory thread in the memory table
// ("bytes per key, dragonfly vs redis" then "and the latter vs valkey?"),
// unless it asks about the runs (a measure of its own, a core count).
func (p *Planner) memoryFollowUp(pl *Plan, prev *Plan) {
	if prev == nil || prev.Intent != IntentMemory || pl.Intent != IntentCompare && pl.Intent != IntentLookup || !statedEngines(pl) {
		return
	}
	if pl.Slots.Metric != "" && !slices.Contains(pl.Defaulted, slotMetric) && pl.Slots.Metric != "bytes_per_key" ||
		len(pl.Slots.Cores) > 0 && !slices.Contains(pl.Defaulted, slotCores) {
		return
	}
	m := p.memoryPlan(want{question: pl.Question, engines: pl.Slots.Engines})
	m.ThreadEngines = pl.ThreadEngines
	m.UnboundReading = pl.UnboundReading
	*pl = m
}

// cutPossessive removes a possessive "'s" ("latter's" → "latter").
func cutPossessive(w string) (string, bool) {
	for _, suf := range []string{"'s", "’s"} {
		if base, ok := strings.CutSuffix(w, suf); ok {
			return base, true
		}
	}
	return w, false
}
