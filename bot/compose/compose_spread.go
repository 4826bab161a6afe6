package compose

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// maxSpreadCells bounds how many cells a repetitions answer lists.
const maxSpreadCells = 8

// spreadAnswer answers "how consistent were the repetitions?": for each
// cell the plan selects, every repetition's own values and run ID, the
// lowest and highest, and the spread between them (highest ÷ lowest − 1,
// arithmetic shown), plus each run's recorded duration.
func (b *Composer) spreadAnswer(ctx context.Context, a *Answer, p planner.Plan, rows []Row) (evidence, error) {
	metric := planMetric(p)
	if metric == "hit_rate" || metric == "" {
		metric = "ops_per_sec"
	}
	byCell := map[analytics.CellKey][]analytics.Run{}
	for _, q := range p.Queries {
		runs, err := b.matchRuns(ctx, q.Filter)
		if err != nil {
			return evidence{}, err
		}
		for _, r := range runs {
			byCell[r.Key()] = append(byCell[r.Key()], r)
		}
	}
	shown := rows[:min(len(rows), maxSpreadCells)]
	a.Rows = shown
	t := &Table{Columns: []string{"Run", "Series", "Cores", metricHeader(metric), "p99 ms", "Test time"}}
	var lines []string
	for _, row := range shown {
		runs := byCell[row.key()]
		slices.SortFunc(runs, func(x, y analytics.Run) int { return x.Rep - y.Rep })
		var vals []float64
		for _, r := range runs {
			v, _ := runMetric(r, metric)
			vals = append(vals, v)
			t.Rows = append(t.Rows, []string{"`" + r.ID + "`", shortSeries(r.Engine, r.Mode), strconv.Itoa(r.Cores),
				exactMetric(metric, v), formatMsExact(r.P99Ms), strconv.Itoa(r.TestTimeS) + " s"})
		}
		lines = append(lines, spreadLine(row, metric, vals))
	}
	first := shown[0]
	if len(shown) == 1 {
		a.Headline = lines[0]
	} else {
		a.Headline = "Repetitions of each cell asked, with its spread (highest ÷ lowest − 1):"
		a.Body = append(a.Body, bullets(lines))
	}
	if len(rows) > len(shown) {
		a.Body = append(a.Body, "Only the first cells are listed; narrow the question to see the others.")
	}
	a.Body = append(a.Body, "Each repetition's own values and its recorded test time (the run's test_time_s field); the answers elsewhere show the median across these repetitions.")
	a.Table = t
	a.PlainWords = "The repetitions of " + first.Series + " at " + rowConditions(first) + " are listed one by one; a small spread means the median is a steady figure."
	return evidence{rows: shown, caveats: caveatsFor(shown, metric), terms: []string{"term:repetitions"}, maxTerms: 1}, nil
}

// spreadLine says one cell's repetitions: the values, min, max and spread.
func spreadLine(row Row, metric string, vals []float64) string {
	head := row.Series + ", " + rowConditions(row) + ": "
	switch len(vals) {
	case 0:
		return head + "no repetition found."
	case 1:
		return head + "a single run (" + exactMetric(metric, vals[0]) + unitAfter(metric) + ") — no spread to measure."
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	var vs []string
	for _, v := range vals {
		vs = append(vs, exactMetric(metric, v))
	}
	spread := "no spread"
	if lo > 0 {
		spread = "spread " + trimZeros(strconv.FormatFloat((hi/lo-1)*100, 'f', 1, 64)) + "% (" + exactMetric(metric, hi) + " ÷ " + exactMetric(metric, lo) + " − 1)"
	}
	median, _ := row.Metric(metric)
	return head + strconv.Itoa(len(vals)) + " repetitions, " + strings.Join(vs, " and ") + unitAfter(metric) + " — lowest " + exactMetric(metric, lo) + ", highest " + exactMetric(metric, hi) + ", " + spread + "; median " + exactMetric(metric, median) + "."
}

// exactMetric renders a value with its recorded digits (a repetition's
// own value).
func exactMetric(metric string, v float64) string {
	if isLatency(metric) {
		return formatMsExact(v)
	}
	if metric == "hit_rate" {
		return formatHitRatePrecise(v)
	}
	return formatExact(v)
}
