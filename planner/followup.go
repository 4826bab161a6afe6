package planner

import (
	"slices"
)

// continues reports whether a question continues the thread's previous
// plan ("and Redis?", "at 24 cores?", "p99?", "how does it scale?") rather
// than asking something complete of its own.
func (p *Planner) continues(x *parsed, text string, prev *Plan) bool {
	if prev == nil {
		return false
	}
	switch prev.Intent {
	case IntentOutOfScope, IntentHelp:
		return false
	case IntentClarify:
		if prev.Requested == "" {
			return false
		}
	}
	if p.g.followMarker.MatchString(text) {
		return true
	}
	if p.g.whichOfThem.MatchString(text) && len(prev.Slots.Engines) > 1 {
		return true // "which one wins at 48?"
	}
	if prev.Intent == IntentDefine && termKnob(prev.Slots.TermID) != "" && p.g.pronoun.MatchString(text) && p.g.effect.MatchString(text) {
		return true // "what is pipelining?" → "does it help Dragonfly?"
	}
	named := len(x.engines) > 0 || x.allEngines
	if !named && len(x.modes) > 0 && len(prev.Slots.Engines) > 0 && (p.g.compare.MatchString(text) || p.g.multiple.MatchString(text)) {
		return true // "how many times faster is the ceiling?" about the thread's engine
	}
	if len(x.engines) == 1 && !x.allEngines && len(prev.Slots.Engines) > 0 && !slices.Contains(prev.Slots.Engines, x.engines[0].value) &&
		(p.g.compare.MatchString(text) || p.g.multiple.MatchString(text)) && !p.g.scaling.MatchString(text) {
		return true // "how many times faster than KeyDB?": one engine, compared with the thread's
	}
	if len(x.engines) == 1 && !x.allEngines && len(prev.Slots.Engines) >= 2 && p.g.crossover.MatchString(text) {
		return true // "from how many cores is Dragonfly ahead?": a crossing needs the thread's other engine
	}
	if named {
		// "Redis?" alone: an engine and nothing else.
		return len(x.engines) > 0 && !x.allEngines && x.wordCount <= 3 && !x.hasKnobValue() && len(x.metrics) == 0 &&
			!p.g.compare.MatchString(text) && !p.g.scaling.MatchString(text)
	}
	if p.g.pronoun.MatchString(text) {
		return true
	}
	if !x.hasKnobValue() && len(x.metrics) == 0 && len(x.topics) == 0 {
		return false
	}
	return x.wordCount <= 6
}

// merge applies a follow-up to the previous plan's request: every slot the
// follow-up names overrides, every other slot the previous question set is
// inherited (and listed), and defaults are derived afresh.
func (p *Planner) merge(x *parsed, text string, prev *Plan) want {
	base := fromPlan(prev)
	cur := p.fresh(x, text)
	w := cur
	w.inherited = nil
	inherit := func(slot string) { w.inherited = append(w.inherited, slot) }

	switch {
	case len(cur.engines) > 0:
		addTo := base.intent == IntentCompare || base.intent == IntentClaim || p.g.also.MatchString(text) || p.g.compare.MatchString(text) && len(base.engines) > 0
		if len(cur.engines) >= 2 && !p.g.also.MatchString(text) {
			// "and dragonfly vs keydb?": a pair of its own replaces the
			// thread's engines ("also", "too" add to them).
			addTo = false
		}
		if addTo && len(base.engines) > 0 {
			w.engines = slices.Clone(base.engines)
			for _, e := range cur.engines {
				w.engines = appendUnique(w.engines, e)
			}
			inherit(slotEngines)
		}
	case x.allEngines && p.g.whichOfThem.MatchString(text) && len(base.engines) > 1:
		// "which one wins at 48?": one of the thread's engines, not all.
		w.engines = base.engines
		inherit(slotEngines)
	case x.allEngines:
		w.engines = nil
	case p.g.bothOfThem.MatchString(text) && len(prev.ThreadEngines) > len(base.engines):
		// "compare them" after "redis 8 cores" → "what about valkey": the
		// engines the thread has named, not only the last one.
		w.engines = slices.Clone(prev.ThreadEngines)
		inherit(slotEngines)
	case len(base.engines) > 0:
		w.engines = base.engines
		inherit(slotEngines)
		if len(cur.modes) == 0 && len(base.modes) > 0 {
			w.modes, w.modesGeneric = base.modes, base.modesGeneric
			inherit(slotModes)
		}
	}
	if !cur.given(slotCores) && base.given(slotCores) && !(cur.intent == IntentScaling && cur.cued) {
		w.cores, w.coresRange = base.cores, base.coresRange
		inherit(slotCores)
	}
	if !cur.given(slotRatio) && base.given(slotRatio) {
		w.ratios = base.ratios
		inherit(slotRatio)
	}
	if !cur.given(slotValue) && base.given(slotValue) {
		w.values = base.values
		inherit(slotValue)
	}
	if !cur.given(slotPipeline) && base.given(slotPipeline) {
		w.pipelines = base.pipelines
		inherit(slotPipeline)
	}
	if !cur.given(slotSession) && base.given(slotSession) {
		w.session = base.session
		inherit(slotSession)
	}
	if !cur.given(slotMetric) && base.given(slotMetric) {
		w.metric = base.metric
		inherit(slotMetric)
	}
	if !cur.given(slotDownAfter) && base.given(slotDownAfter) {
		w.downAfter = base.downAfter
		inherit(slotDownAfter)
	}
	// A bare number ("and 10000?", "and 24?") sets the knob the thread
	// gave a number: the down-after of a failover question, else the cores.
	if len(x.leftover) == 1 && !x.hasKnobValue() {
		n := x.leftover[0]
		switch {
		case base.intent == IntentFailover && n >= 100:
			w.downAfter = n
			w.inherited = slices.DeleteFunc(w.inherited, func(s string) bool { return s == slotDownAfter })
		case base.given(slotCores) && len(base.cores) == 1 && base.cores[0] != n && cur.intent == IntentScaling && cur.cued && n > 0 && n <= 1024:
			// "p50 at 4 cores" → "how does it change until 48?": the
			// curve from the thread's count to this one.
			w.cores, w.coresRange = []int{min(n, base.cores[0]), max(n, base.cores[0])}, true
			w.inherited = slices.DeleteFunc(w.inherited, func(s string) bool { return s == slotCores })
		case base.given(slotCores) && base.intent != IntentFailover && base.intent != IntentMemory && n > 0 && n <= 1024:
			w.cores, w.coresRange = []int{n}, false
			w.inherited = slices.DeleteFunc(w.inherited, func(s string) bool { return s == slotCores })
		}
	}

	// The intent: the follow-up's own wording wins; otherwise the thread's.
	if !cur.cued {
		w.intent, w.knob = base.intent, base.knob
		w.multiple, w.crossover, w.worst = base.multiple, base.crossover, base.worst
		if w.knob != "" {
			inherit(slotKnob)
		}
		if k := termKnob(prev.Slots.TermID); base.intent == IntentDefine && k != "" && p.g.effect.MatchString(text) {
			// "what is pipelining?" → "how much does it help Dragonfly?"
			w.intent, w.knob = IntentEffect, k
		}
		switch w.intent {
		case IntentDefine, IntentHelp, IntentOutOfScope, IntentClarify, IntentNoData, "":
			w.intent = IntentLookup
		case IntentClaim:
			w.intent = IntentCompare
		}
		// Setting the knob the thread was varying turns it into one value.
		if (w.intent == IntentEffect || w.intent == IntentScaling) && cur.given(w.knob) && !(w.knob == slotCores && len(cur.cores) >= 2) {
			w.intent, w.knob = IntentLookup, ""
			w.inherited = slices.DeleteFunc(w.inherited, func(s string) bool { return s == slotKnob })
		}
		switch {
		case w.intent == IntentMemory && w.metric != "bytes_per_key" && cur.given(slotMetric):
			w.intent = IntentLookup
		case w.intent == IntentFailover && w.metric != "outage_s" && cur.given(slotMetric):
			w.intent = IntentLookup
		}
		if w.intent == IntentLookup && len(w.engines) != 1 {
			w.intent = IntentCompare
		}
	}
	if (base.intent == IntentFailover || base.intent == IntentMemory) && cur.cued && !cur.given(slotMetric) &&
		(w.intent == IntentCompare || w.intent == IntentLookup) {
		// "and dragonfly vs keydb?" in a failover thread: the same table
		// for other engines; a comparison of it is its own answer, and the
		// runs hold no outage or memory-per-key figure to rank.
		w.intent = base.intent
	}
	if w.intent == IntentEffect && w.knob != "" && cur.knob == "" && base.given(w.knob) {
		// An inherited single value of the varied knob is the baseline, not a filter.
		switch w.knob {
		case slotPipeline:
			w.pipelines = nil
		case slotValue:
			w.values = nil
		case slotRatio:
			w.ratios = nil
		}
	}
	if w.intent == IntentScaling && !w.crossover && len(cur.engines) == 1 && len(w.engines) >= 2 && p.g.crossover.MatchString(text) {
		// "dragonfly vs redis" → "how many cores before dragonfly wins?":
		// the engine named passes the thread's other one; it comes first.
		w.crossover = true
		w.engines = append([]string{cur.engines[0]}, slices.DeleteFunc(slices.Clone(w.engines), func(e string) bool { return e == cur.engines[0] })...)
	}
	w.explain = cur.explain
	slices.Sort(w.inherited)
	w.inherited = slices.Compact(w.inherited)
	return w
}

// termKnob is the run knob a glossary term names, for follow-ups that ask
// what it does ("what is pipelining?" → "does it help?").
func termKnob(id string) string {
	switch id {
	case "term:pipelining", "term:autopipelining":
		return slotPipeline
	case "term:value-size":
		return slotValue
	case "term:get-set-ratio", "term:multi-key":
		return slotRatio
	}
	return ""
}
