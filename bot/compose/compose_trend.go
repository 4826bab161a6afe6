package compose

import (
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// withTrend adds to an extrapolation refusal the measured trend of each
// series over the knob asked, step by step up to the last measured point,
// with each step's multiple shown — and nothing beyond it.
func withTrend(p planner.Plan, a Answer) Answer {
	pr := *p.Prediction
	metric := planMetric(p)
	bySeries := map[string][]Row{}
	var order []string
	for _, r := range a.Nearest {
		if _, ok := bySeries[r.Series]; !ok {
			order = append(order, r.Series)
		}
		bySeries[r.Series] = append(bySeries[r.Series], r)
	}
	var lines []string
	for _, name := range order {
		rows := bySeries[name]
		slices.SortFunc(rows, func(x, y Row) int { return compareKnob(x, y, pr.Knob) })
		var steps []string
		for i := 1; i < len(rows); i++ {
			v0, _ := rows[i-1].Metric(metric)
			v1, _ := rows[i].Metric(metric)
			if v0 == 0 {
				continue
			}
			steps = append(steps, knobShort(rows[i-1], pr.Knob)+" → "+knobShort(rows[i], pr.Knob)+": "+FormatRatio(v1/v0))
		}
		last := rows[len(rows)-1]
		lv, _ := last.Metric(metric)
		line := name + ": " + formatMetric(metric, lv, last.floorFor(metric)) + " at " + knobShort(last, pr.Knob) + ", the last measured point"
		if len(steps) > 0 {
			line += "; measured steps " + strings.Join(steps, ", ")
		}
		lines = append(lines, line+".")
	}
	if len(lines) > 0 {
		a.Body = append(a.Body, "The measured trend, up to the last measured point only (each step's multiple is the later median ÷ the earlier one):\n"+bullets(lines))
	}
	return a
}

// knobShort is a knob's value in a trend step: "48 cores", "pipeline 16",
// "1 KB".
func knobShort(r Row, knob string) string {
	return strings.TrimSuffix(knobWords(r, knob), " values")
}
