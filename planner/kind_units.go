package planner

import "slices"

// units plans a question that asks for its figures in a unit (µs, ms, s;
// ops/s, K, M) or a direction ("what share of Redis does Valkey reach",
// "how much slower is KeyDB than Redis"): the ordinary plan, with Units
// saying how the answer must state it. The engine written after "of" or
// "than" is the reference.
func (p *Planner) units(r reading, prev *Plan) (Plan, bool) {
	k := p.k
	t := r.text
	var u Units
	switch {
	case k.unitMicro.MatchString(t):
		u.Time = "us"
	case k.unitMilli.MatchString(t):
		u.Time = "ms"
	case k.unitSeconds.MatchString(t):
		u.Time = "s"
	}
	switch {
	case k.unitK.MatchString(t):
		u.Throughput = "K"
	case k.unitM.MatchString(t):
		u.Throughput = "M"
	case k.unitOps.MatchString(t):
		u.Throughput = "ops"
	}
	if loc := r.find(k.share); loc != nil {
		u.Share = true
		u.Of = engineAfter(r, loc[1]-3)
	}
	if loc := r.find(k.slower); loc != nil {
		u.Slower = true
		if i := indexWord(t, "than", loc[1]); i >= 0 {
			u.Of = engineAfter(r, i)
		}
	}
	for _, t := range r.tags {
		if t.meaning != mUnit {
			continue
		}
		if t.value == "keys_per_sec" {
			u.Keys = true
		} else if why := unsupportedUnit(t.value); why != "" && u.Unsupported == "" {
			u.Unsupported = "I cannot give that “" + r.words(t.from, t.to) + "”: " + why + " Here is what was measured."
		}
	}
	if u == (Units{}) {
		return Plan{}, false
	}
	if u.Time != "" && u.Throughput == "" && !u.Share && !u.Slower && len(r.x.metrics) > 0 && !isLatencyMetric(r.metric()) {
		u.Time = "" // "ops/s in us" is nothing
	}
	pl, ok := p.ordinary(r.question, prev)
	if !ok {
		return Plan{}, false
	}
	switch pl.Intent {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect:
	default:
		if !r.unitsOnly() || prev == nil || len(prev.Queries) == 0 {
			return Plan{}, false
		}
		// "as keys/s", "in keys per second?" after an answer: the same
		// cells, restated (the unit's own glossary entry is not asked).
		pl = *prev
		pl.Question = r.question
		pl.Explain = false
		pl.Units = nil
		pl.Inherited = inheritedAll(prev)
	}
	if u.Time != "" && !isLatencyMetric(pl.Slots.Metric) && pl.Slots.Metric != "" && pl.Slots.Metric != defaultMetric {
		u.Time = ""
	}
	if u.Keys && isLatencyMetric(pl.Slots.Metric) {
		u.Keys = false // "p99 in keys per second" is nothing
	}
	if (u.Share || u.Slower) && len(pl.Queries) < 2 {
		u.Share, u.Slower = false, false
	}
	if u.Of != "" && !slices.ContainsFunc(pl.Queries, func(q Query) bool { return q.Engine == u.Of }) {
		u.Of = ""
	}
	if u == (Units{}) {
		return Plan{}, false
	}
	pl.Units = &u
	return pl, true
}

// unitsOnly reports a message that names a unit and nothing of its own
// to look up ("as keys/s?", "in keys per second"): a follow-up restating
// the thread's last answer.
func (r *reading) unitsOnly() bool {
	if !r.has(mUnit) {
		return false
	}
	for i, t := range r.toks {
		if t.kind == tokPunct || r.tokenMeans(i, mUnit) || r.tokenMeans(i, mPolite) || r.tokenMeans(i, mFollowUp) {
			continue
		}
		switch t.text {
		case "as", "in", "into", "to", "convert", "it", "that", "show", "give", "me", "please", "the", "same", "but", "then", "instead", "now":
			continue
		}
		return false
	}
	return true
}

// unsupportedUnit says why the measurements cannot be restated in a unit
// ("" for a unit they support).
func unsupportedUnit(v string) string {
	switch v {
	case "no_power":
		return "no run measured power or energy, so there is nothing to divide by."
	case "no_cpu":
		return "no run recorded CPU time or cycles, so a per-operation cost cannot be worked out."
	case "no_conn":
		return "the runs record the total throughput of each run, not what each connection or client did, and dividing evenly would invent a figure."
	}
	return ""
}

// engineAfter is the first engine the question names at or after byte pos.
func engineAfter(r reading, pos int) string {
	for _, e := range r.x.engines {
		if e.start >= pos {
			return e.value
		}
		for _, m := range e.more {
			if m[0] >= pos {
				return e.value
			}
		}
	}
	return ""
}

// indexWord finds " word " at or after pos.
func indexWord(t, word string, pos int) int {
	for i := pos; i+len(word) <= len(t); i++ {
		if t[i:i+len(word)] == word && (i == 0 || t[i-1] == ' ') && (i+len(word) == len(t) || t[i+len(word)] == ' ') {
			return i
		}
	}
	return -1
}
