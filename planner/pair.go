package planner

import "slices"

// pairMode completes "how many times faster is the (Valkey) ceiling?": a
// multiple of one cluster series of one engine is a multiple of it over the
// engine's other cluster series, the named one first (the numerator).
func (p *Planner) pairMode(w *want) {
	if w.intent != IntentCompare || !w.multiple || len(w.engines) != 1 || len(w.modes) != 1 {
		return
	}
	e, m := w.engines[0], w.modes[0]
	other := map[string]string{"cluster": "cluster-sat", "cluster-sat": "cluster"}[m]
	if other == "" || !slices.Contains(modesOf(seriesOf(p.coverage(), e, 0)), other) {
		return
	}
	w.modes = []string{m, other}
	w.modeOrder = []string{m, other}
	if mf, ok := w.modeFor[e]; ok && len(mf) == 1 {
		w.modeFor[e] = []string{m, other}
	}
}

// whyOfThread reports "why is Dragonfly smaller?" after a memory answer: a
// why-question naming only engines the previous answer showed, and no knob,
// metric or topic of its own, asks why that answer came out as it did. So
// does "does it matter?" after a term that is no measured knob, and "is
// that really its max?" after a measured answer.
func (p *Planner) whyOfThread(x *parsed, text string, prev *Plan) bool {
	if prev != nil && prev.Intent == IntentDefine && prev.Slots.TermID != "" && termKnob(prev.Slots.TermID) == "" &&
		len(x.engines) == 0 && !x.hasKnobValue() && p.g.pronoun.MatchString(text) && p.g.effect.MatchString(text) {
		// "what is a hash tag?" → "does it matter for throughput?": no
		// knob was measured with and without it, so the entry's own
		// account of how it moves the numbers is the answer.
		return true
	}
	if prev != nil && len(prev.Queries) > 0 && p.g.doubtAsk.MatchString(text) && !x.allEngines && !x.hasKnobValue() && len(x.metrics) == 0 &&
		!slices.ContainsFunc(x.engines, func(e mention) bool { return !slices.Contains(prev.Slots.Engines, e.value) }) {
		// "is that really its max?" after Garnet's peak: the answer is
		// why the figure is what it is (a client-limited floor).
		return true
	}
	if prev == nil || len(prev.Slots.Engines) == 0 || len(x.engines) == 0 || x.allEngines || !p.g.why.MatchString(text) {
		return false
	}
	if x.hasKnobValue() || len(x.metrics) > 0 || len(x.topics) > 0 || x.wordCount > 8 {
		return false
	}
	for _, e := range x.engines {
		if !slices.Contains(prev.Slots.Engines, e.value) {
			return false
		}
	}
	return true
}
