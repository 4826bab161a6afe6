package planner

import (
	"slices"
	"strings"
)

// readerUnbound adds to pl.Unbound the words the reader tagged as a
// workload, a (negated) pipelining setting or a metric that the plan did
// not bind: a default stood in their slot and says something else
// ("heavy writes" while read-heavy 1:10 was applied, "unbatched" while
// pipeline 16 was). The phrase detector (unbound.go) then states the
// reading applied instead of them.
func (p *Planner) readerUnbound(pl *Plan) {
	if !slices.Contains(unboundIntents(), pl.Intent) || pl.Explain {
		return
	}
	r := p.readTokens(pl.Question)
	lower := strings.ToLower(pl.Question)
	defaulted := func(slot string) bool {
		return (slices.Contains(pl.Defaulted, slot) || slices.Contains(pl.Inherited, slot)) && pl.Slots.Knob != slot
	}
	for _, t := range r.tags {
		slot, agrees := "", true
		switch {
		case t.meaning == mWorkload && !t.negated:
			slot, agrees = slotRatio, pl.Slots.Ratio == t.value
		case t.meaning == mSetting && t.value == "pipeline" && t.negated,
			t.meaning == mSetting && t.value == "pipeline_off" && !t.negated:
			slot, agrees = slotPipeline, pl.Slots.Pipeline == 1
		case t.meaning == mMetric && explicitMetric(t.value):
			slot, agrees = slotMetric, pl.Slots.Metric == t.value || t.value == "p50_ms" && isLatencyMetric(pl.Slots.Metric)
		default:
			continue
		}
		words := r.words(t.spanFrom, t.spanTo)
		if agrees || !defaulted(slot) || !strings.Contains(lower, words) {
			continue // bound, varied, or spelt differently in the question (the detector names those)
		}
		if !slices.ContainsFunc(pl.Unbound, func(w string) bool { return strings.EqualFold(w, words) }) {
			pl.Unbound = append(pl.Unbound, words)
		}
	}
}

// explicitMetric reports a metric a word names outright; speed words
// ("fast", "performance") only lean on the default throughput.
func explicitMetric(m string) bool {
	switch m {
	case "ops_per_sec", "bytes_per_key", "outage_s":
		return false
	}
	return true
}
