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
	if other == "" || !slices.Contains(modesOf(seriesOf(p.cov.Coverage(), e, 0)), other) {
		return
	}
	w.modes = []string{m, other}
	w.modeOrder = []string{m, other}
	if mf, ok := w.modeFor[e]; ok && len(mf) == 1 {
		w.modeFor[e] = []string{m, other}
	}
}
