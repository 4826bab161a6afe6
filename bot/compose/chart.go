package compose

import (
	"cmp"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// ChartKind says how a chart draws its series.
type ChartKind string

// Chart kinds.
const (
	// ChartLine draws one line per series over a numeric x axis (cores).
	ChartLine ChartKind = "line"
	// ChartBar draws grouped bars over categorical x values (pipeline,
	// value size, workload, or a single group when every knob is fixed).
	ChartBar ChartKind = "bar"
)

// chartLogYRatio is how many times the largest value may exceed the
// smallest before the y axis turns logarithmic.
const chartLogYRatio = 20

// chartMaxSeries is the most series a chart carries; beyond it the table
// alone reads better.
const chartMaxSeries = 8

// chartKnobs are the conditions a chart can put on its x axis or must
// state, in the order answers state them.
var chartKnobs = [...]string{"cores", "ratio", "value_bytes", "pipeline"}

// chartRequest is what a chart is drawn for: the plan's intent, the metric
// on the y axis and the knob the plan varies (empty: work it out from the
// rows).
type chartRequest struct {
	intent planner.Intent
	metric string
	knob   string
}

// chartFor describes a chart for a scaling, compare or effect answer,
// built from the same rows as the answer's table. It returns nil when a
// chart would not help: other intents, fewer than two values, a metric
// the rows do not carry, or too many series to read.
func chartFor(p planner.Plan, rows []Row) *Chart {
	switch p.Intent {
	case planner.IntentScaling, planner.IntentCompare, planner.IntentEffect:
	default:
		return nil
	}
	metric := planMetric(p)
	c := buildChart(chartRequest{intent: p.Intent, metric: metric, knob: p.Slots.Knob}, rows)
	if m, _ := chartMetricNamed(metric); c != nil && p.Intent == planner.IntentEffect && m.throughput {
		c.Cost = costChart(c, chartRequest{intent: p.Intent, metric: chartCostMetric, knob: p.Slots.Knob}, rows)
	}
	return c
}

// chartCostMetric is the latency an effect on throughput is paid in.
const chartCostMetric = "p99_ms"

// costChart is the latency cost beside an effect chart: the p99 of the
// same measured cells at each knob value, laid out like the throughput
// panel (the same series, the same x values) so the two read point for
// point. It is nil when a cell lacks its p99 (zero), since a panel with a
// gap would not be the same cells.
func costChart(gain *Chart, req chartRequest, rows []Row) *Chart {
	cost := buildChart(req, rows)
	if cost == nil || cost.Kind != gain.Kind || len(cost.Series) != len(gain.Series) {
		return nil
	}
	for i, s := range cost.Series {
		g := gain.Series[i]
		if s.Name != g.Name || len(s.Points) != len(g.Points) {
			return nil
		}
		for j, pt := range s.Points {
			if pt.X != g.Points[j].X || pt.Y <= 0 { // a measured p99 is never 0: a cell without one
				return nil
			}
		}
	}
	// The throughput panel states the conditions and notes; they hold for
	// both.
	cost.Title = strings.SplitN(cost.Title, " — ", 2)[0] + " — the same cells"
	cost.Subtitle = ""
	gain.AltText += " Below it, the same cells' latency: " + strings.ToLower(cost.AltText[:1]) + cost.AltText[1:]
	cost.LogY = false // a cost is read against zero
	for i := range cost.Series {
		cost.Series[i].Floor = false // a floor bounds throughput, not latency
	}
	return cost
}

// ChartForDigest describes the digest's headline comparison (for example
// 48-core Dragonfly against the realistic Redis Cluster and its fully
// driven ceiling) as a bar chart of throughput built from the digest's
// rows. It returns nil when the rows hold fewer than two values.
func ChartForDigest(rows []Row) *Chart {
	return buildChart(chartRequest{intent: planner.IntentCompare, metric: "ops_per_sec"}, rows)
}

// buildChart groups rows into series, one point per row.
func buildChart(req chartRequest, rows []Row) *Chart {
	m, ok := chartMetricNamed(req.metric)
	if !ok {
		return nil
	}
	var used []Row
	for _, r := range rows {
		if v, ok := m.value(r); ok && v >= 0 {
			used = append(used, r)
		}
	}
	if len(used) < 2 {
		return nil
	}
	x := chartXKnob(req, used)
	var split []string // non-x knobs that vary: named in each series
	for _, k := range chartKnobs {
		if k != x && len(distinct(used, k)) > 1 {
			split = append(split, k)
		}
	}
	if chartSessionsMix(used) {
		split = append(split, "session")
	}

	kind := ChartBar
	if x == "cores" && (req.intent != planner.IntentCompare || len(distinct(used, x)) >= 3) {
		kind = ChartLine
	}

	series, ok := chartSeries(used, m, x, kind, split)
	if !ok || len(series) > chartMaxSeries {
		return nil
	}
	c := &Chart{Kind: kind, XLabel: chartAxisLabel(x), XCategorical: kind == ChartBar,
		YLabel: m.title + " (" + m.unit + ")", YUnit: m.unit, Series: series}
	if c.Kind == ChartLine && !slices.ContainsFunc(c.Series, func(s ChartSeries) bool { return len(s.Points) > 1 }) {
		c.Kind, c.XCategorical = ChartBar, true
		for i := range c.Series {
			for j := range c.Series[i].Points {
				pt := &c.Series[i].Points[j]
				pt.XLabel = strconv.Itoa(int(pt.X)) + " cores"
			}
		}
	}
	c.LogY = chartNeedsLogY(c.Series)
	c.Title = chartTitle(req.intent, m, x, kind, used, split)
	c.Subtitle = chartSubtitle(c.Series, used)
	c.AltText = chartAltText(c, m, x, used, split)
	return c
}

// chartSeries groups rows into series (one per series name and split
// conditions, in order of first appearance), one point per row, sorted by
// x. It reports false when two rows of one series share an x value, which
// a chart would hide.
func chartSeries(rows []Row, m chartMetric, x string, kind ChartKind, split []string) ([]ChartSeries, bool) {
	var series []ChartSeries
	byName := map[string]int{}
	for _, r := range rows {
		name := chartRowSeries(r)
		if len(split) > 0 {
			var conds []string
			for _, k := range split {
				conds = append(conds, knobWords(r, k))
			}
			name += " · " + strings.Join(conds, ", ")
		}
		i, seen := byName[name]
		if !seen {
			i = len(series)
			byName[name] = i
			series = append(series, ChartSeries{
				Name:    name,
				Engine:  r.Engine,
				Mode:    r.Mode,
				Floor:   m.throughput && (r.Floor || r.Engine == "garnet"),
				Ceiling: r.Mode == "cluster-sat",
			})
		}
		s := &series[i]
		v, _ := m.value(r)
		pt := ChartPoint{X: chartX(r, x), XLabel: chartTick(r, x, kind), Y: v, Label: m.format(v)}
		if s.Floor {
			pt.Label = "≥" + pt.Label
		}
		if slices.ContainsFunc(s.Points, func(q ChartPoint) bool { return q.X == pt.X }) {
			return nil, false
		}
		s.Points = append(s.Points, pt)
	}
	for i := range series {
		slices.SortStableFunc(series[i].Points, func(a, b ChartPoint) int { return cmp.Compare(a.X, b.X) })
	}
	return series, true
}

// chartXKnob picks the knob on the x axis: the plan's, cores for scaling,
// else the first knob that varies across the rows ("" when none does).
func chartXKnob(req chartRequest, rows []Row) string {
	if slices.Contains(chartKnobs[:], req.knob) {
		return req.knob
	}
	if req.intent == planner.IntentScaling {
		return "cores"
	}
	for _, k := range chartKnobs {
		if len(distinct(rows, k)) > 1 {
			return k
		}
	}
	return ""
}

// chartSessionsMix reports whether one series name appears in more than
// one session, so that sessions must be named in the series.
func chartSessionsMix(rows []Row) bool {
	first := map[string]int{}
	for _, r := range rows {
		name := chartRowSeries(r)
		if s, ok := first[name]; ok && s != r.Session {
			return true
		}
		first[name] = r.Session
	}
	return false
}

// chartX is the x value of a row: the knob's number, or the workload's
// position in chartRatioOrder.
func chartX(r Row, knob string) float64 {
	switch knob {
	case "cores":
		return float64(r.Cores)
	case "value_bytes":
		return float64(r.ValueBytes)
	case "pipeline":
		return float64(r.Pipeline)
	case "ratio":
		return float64(indexOr(ratioOrder, r.Ratio))
	}
	return 0
}

// chartTick is how the x value of a row is shown under the axis.
func chartTick(r Row, knob string, kind ChartKind) string {
	switch {
	case knob == "cores" && kind == ChartBar:
		return knobWords(r, knob)
	case knob == "ratio":
		return chartRatio(r.Ratio)
	}
	return knobValue(r, knob)
}

// chartAxisLabel names the x axis for a knob.
func chartAxisLabel(knob string) string {
	switch knob {
	case "cores":
		return "Cores"
	case "value_bytes":
		return "Value size"
	case "pipeline":
		return "Pipeline depth"
	case "ratio":
		return "Workload"
	}
	return ""
}

// chartRatio names a workload under the x axis ("SET:GET 1:10", "MGET×10").
func chartRatio(ratio string) string {
	if short := ratioShort(ratio); short != ratio {
		return short
	}
	return "SET:GET " + ratio
}

// chartRowSeries is the series name of a row: the one the answer gave it,
// or the name (docs/design.md#data) of its engine and mode.
func chartRowSeries(r Row) string {
	if r.Series != "" {
		return r.Series
	}
	return analytics.SeriesName(r.Engine, r.Mode)
}

// chartShortName is a series' engine and mode in a few words, for notes.
func chartShortName(engine, mode string) string {
	name := analytics.EngineName(engine)
	switch mode {
	case "cluster":
		return name + " realistic cluster"
	case "cluster-sat":
		return name + " fully driven ceiling"
	}
	return name
}

// chartNeedsLogY reports whether the values span more than chartLogYRatio
// times (and are all positive, as a log axis needs).
func chartNeedsLogY(series []ChartSeries) bool {
	lo, hi := 0.0, 0.0
	for _, s := range series {
		for _, p := range s.Points {
			if p.Y <= 0 {
				return false
			}
			if lo == 0 || p.Y < lo {
				lo = p.Y
			}
			hi = max(hi, p.Y)
		}
	}
	return lo > 0 && hi > chartLogYRatio*lo
}
