package compose

import (
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// thresholdText answers an inverse question ("the fewest cores for 10M
// ops/s", "at how many cores does p99.9 fall below 10 ms"): per series,
// the smallest measured core count whose median crosses the bound, and
// whether every larger count stays across it. Nothing between measured
// core counts is inferred: the answer is a measured count or "never".
func thresholdText(rows []Row, b planner.Bound) (headline, plain string) {
	metric := b.Metric
	crosses := func(v float64) bool { return crossesBound(b.Op, v, b.Value) }
	// Near the bound, one decimal can print a crossing and a miss alike
	// ("5.0M" both): figures are shown to the precision the bound needs.
	show := func(r Row, v float64) string {
		f := formatMetric(metric, v, r.floorFor(metric))
		if f == formatMetric(metric, b.Value, r.floorFor(metric)) && v != b.Value {
			f = strings.Replace(f, formatMetric(metric, b.Value, false), preciseMetric(metric, v), 1)
		}
		return f
	}
	groups := seriesGroups(rows, "cores")
	var reached, never []string
	for _, g := range groups {
		label := rowLabel(g[0], otherVarying(rows, "cores"))
		first := -1
		for i, r := range g {
			if v, ok := r.Metric(metric); ok && crosses(v) {
				first = i
				break
			}
		}
		if first < 0 {
			best := rankRows(g, metric, "")[0] // its best figure, which still misses the bound
			v, _ := best.Metric(metric)
			floor := ""
			if best.floorFor(metric) {
				floor = " — a floor: the client limited it, so the engine itself may do more"
			}
			never = append(never, fmt.Sprintf("%s never does at any measured core count (its best: %s at %d cores%s)", label, show(best, v), best.Cores, floor))
			continue
		}
		r := g[first]
		v, _ := r.Metric(metric)
		item := fmt.Sprintf("%s at %d cores (%s%s)", label, r.Cores, show(r, v), singleRunTag(r))
		for _, later := range g[first+1:] {
			if lv, ok := later.Metric(metric); ok && !crosses(lv) {
				item += fmt.Sprintf(", though not at %d cores (%s)", later.Cores, show(later, lv))
				break
			}
		}
		if first == 0 && len(g) > 0 {
			item += ", the fewest it was measured with"
		}
		if first > 0 && g[first-1].floorFor(metric) {
			// A floor below the bound says only that the client could not
			// drive more: the engine may cross it with fewer cores.
			below := g[first-1]
			bv, _ := below.Metric(metric)
			item += fmt.Sprintf(" — at most that many: at %d cores its figure (%s) is a client-limited floor, so fewer cores may suffice", below.Cores, show(below, bv))
		}
		reached = append(reached, item)
	}
	bound := metricWords(metric) + " " + thresholdOpWords[b.Op] + " " + formatMetric(metric, b.Value, false)
	switch {
	case len(reached) == 0:
		headline = fmt.Sprintf("Never measured: no series reached a %s at any measured core count — %s.", bound, strings.Join(never, "; "))
	default:
		headline = fmt.Sprintf("Fewest cores measured with a %s: %s.", bound, strings.Join(reached, "; "))
		if len(never) > 0 {
			headline += " " + capitalise(strings.Join(never, "; ")) + "."
		}
	}
	return headline, "Only the measured core counts are checked; nothing between them is inferred."
}

// preciseMetric writes a figure with three significant decimals, for
// figures that one decimal cannot tell apart from a bound.
func preciseMetric(metric string, v float64) string {
	switch {
	case isLatency(metric):
		return fmt.Sprintf("%.3f ms", v)
	case v >= 1e6:
		return fmt.Sprintf("%.3fM ops/s", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.2fK ops/s", v/1e3)
	}
	return fmt.Sprintf("%.2f", v)
}
