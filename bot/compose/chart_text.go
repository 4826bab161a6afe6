package compose

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// chartMetric is a y axis: what it measures, its unit and how its values
// are labelled at the points (docs/design.md#answers number style, without the unit).
// Throughput metrics mark Garnet as a floor ("at least", client-limited);
// latencies do not, as the floor caveat is about throughput.
type chartMetric struct {
	name       string
	title      string
	unit       string
	format     func(float64) string
	throughput bool
}

// value is the row's median of the metric.
func (m chartMetric) value(r Row) (float64, bool) { return r.Metric(m.name) }

// chartMetricNamed returns the y axis of a filter-vocabulary metric. Hit
// rate is not charted: it is 100% wherever it was measured.
func chartMetricNamed(name string) (chartMetric, bool) {
	switch name {
	case "ops_per_sec":
		return chartMetric{name, "Throughput", "ops/s", formatOpsShort, true}, true
	case "ops_per_core":
		return chartMetric{name, "Throughput per core", "ops/s per core", formatOpsShort, true}, true
	case "kb_per_sec":
		return chartMetric{name, "Bandwidth", "KB/s", formatOpsShort, true}, true
	case "p50_ms":
		return chartMetric{name, "p50 latency", "ms", formatMsExact, false}, true
	case "p99_ms":
		return chartMetric{name, "p99 latency", "ms", formatMsExact, false}, true
	case "p999_ms":
		return chartMetric{name, "p99.9 latency", "ms", formatMsExact, false}, true
	}
	return chartMetric{}, false
}

// chartTitle names the metric, what varies, and the conditions every
// point shares ("Throughput over cores — SET:GET 1:10 (read-heavy), 100 B
// values, pipeline 16").
func chartTitle(intent planner.Intent, m chartMetric, x string, kind ChartKind, rows []Row, split []string) string {
	title := m.title
	switch {
	case intent == planner.IntentCompare || x == "":
	case kind == ChartLine:
		title += " over " + strings.ToLower(chartAxisLabel(x))
	default:
		title += " by " + strings.ToLower(chartAxisLabel(x))
	}
	if conds := chartSharedConditions(rows, x, split); len(conds) > 0 {
		title += " — " + strings.Join(conds, ", ")
	}
	return title
}

// chartSharedConditions states the knobs every row shares: neither on the
// x axis nor named in the series.
func chartSharedConditions(rows []Row, x string, split []string) []string {
	var conds []string
	for _, k := range chartKnobs {
		if k != x && !slices.Contains(split, k) {
			conds = append(conds, knobWords(rows[0], k))
		}
	}
	return conds
}

// chartSubtitle carries what a reader must know to read the values:
// medians, single-run series, floors, multi-key ops, capture sessions.
func chartSubtitle(series []ChartSeries, rows []Row) string {
	parts := []string{"Median across repetitions"}
	var single []string
	for _, s := range series {
		if name := chartShortName(s.Engine, s.Mode); chartSingleRun(rows, s) && !slices.Contains(single, name) {
			single = append(single, name)
		}
	}
	if len(single) > 0 {
		parts = append(parts, "single run per point: "+strings.Join(single, ", "))
	}
	var floors []string
	for _, s := range series {
		if name := analytics.EngineName(s.Engine); s.Floor && !slices.Contains(floors, name) {
			floors = append(floors, name)
		}
	}
	if len(floors) > 0 {
		parts = append(parts, strings.Join(floors, ", ")+": at least these values (client-limited)")
	}
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Ratio == "mget10" || r.Ratio == "mset10" }) {
		parts = append(parts, "MGET/MSET: one op is one command of 10 keys")
	}
	switch sessions := chartSessions(rows); {
	case len(sessions) > 1:
		parts = append(parts, strings.Join(sessions, " and ")+" are separate capture sessions")
	case len(sessions) == 1:
		parts = append(parts, sessions[0])
	}
	return strings.Join(parts, "; ")
}

// chartSingleRun reports whether every row of the series' engine and mode
// is a single repetition.
func chartSingleRun(rows []Row, s ChartSeries) bool {
	n := 0
	for _, r := range rows {
		if r.Engine != s.Engine || r.Mode != s.Mode {
			continue
		}
		if r.Reps != 1 {
			return false
		}
		n++
	}
	return n > 0
}

// chartSessions lists each session with its engines ("session 1
// (Dragonfly, Redis)"), in order of first appearance.
func chartSessions(rows []Row) []string {
	var order []int
	engines := map[int][]string{}
	for _, r := range rows {
		if _, ok := engines[r.Session]; !ok {
			order = append(order, r.Session)
		}
		if name := analytics.EngineName(r.Engine); !slices.Contains(engines[r.Session], name) {
			engines[r.Session] = append(engines[r.Session], name)
		}
	}
	slices.Sort(order)
	var out []string
	for _, s := range order {
		out = append(out, "session "+strconv.Itoa(s)+" ("+strings.Join(engines[s], ", ")+")")
	}
	return out
}

// chartAltText is one sentence for screen readers: the chart's kind, its
// metric and conditions, and each series with its range of values.
func chartAltText(c *Chart, m chartMetric, x string, rows []Row, split []string) string {
	var b strings.Builder
	if c.Kind == ChartLine {
		b.WriteString("Line chart of ")
	} else {
		b.WriteString("Bar chart of ")
	}
	b.WriteString(strings.ToLower(m.title) + " in " + m.unit + " (median across repetitions)")
	var ticks []ChartPoint
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !slices.ContainsFunc(ticks, func(q ChartPoint) bool { return q.X == p.X }) {
				ticks = append(ticks, p)
			}
		}
	}
	slices.SortFunc(ticks, func(a, b ChartPoint) int { return cmp.Compare(a.X, b.X) })
	switch {
	case x == "":
	case x == "cores" && c.Kind == ChartLine:
		b.WriteString(" over " + ticks[0].XLabel + "–" + ticks[len(ticks)-1].XLabel + " cores")
	default:
		var labels []string
		for _, t := range ticks {
			labels = append(labels, t.XLabel)
		}
		b.WriteString(" by " + strings.ToLower(chartAxisLabel(x)) + " (" + strings.Join(labels, ", ") + ")")
	}
	if conds := chartSharedConditions(rows, x, split); len(conds) > 0 {
		b.WriteString(" at " + strings.Join(conds, ", "))
	}
	b.WriteString(": ")
	for i, s := range c.Series {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s.Name + " ")
		if s.Floor {
			b.WriteString("at least ")
		}
		lo, hi := s.Points[0].Y, s.Points[0].Y
		for _, p := range s.Points {
			lo, hi = min(lo, p.Y), max(hi, p.Y)
		}
		if m.format(lo) == m.format(hi) {
			b.WriteString(m.format(lo))
		} else {
			b.WriteString(m.format(lo) + "–" + m.format(hi))
		}
		b.WriteString(" " + m.unit)
	}
	b.WriteString(".")
	return b.String()
}
