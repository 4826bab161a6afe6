package compose

import (
	"cmp"
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
		if h, ok := spreadRanking(shown, byCell, metric, p); ok {
			a.Headline = h // "which engine has the smallest spread?"
		}
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

// spreadRanking answers a ranking asked of the repetitions ("which engine
// has the smallest spread?"): the cell with the smallest (or, ordered
// descending, largest) spread among those repeated, and the others' after
// it; cells with a single run have no spread and are said apart.
func spreadRanking(rows []Row, byCell map[analytics.CellKey][]analytics.Run, metric string, p planner.Plan) (string, bool) {
	if p.Requested != planner.IntentCompare || p.Order == "" {
		return "", false
	}
	type spread struct {
		row Row
		pct float64
	}
	var ranked []spread
	var single []string
	for _, row := range rows {
		var vals []float64
		for _, r := range byCell[row.key()] {
			if v, ok := runMetric(r, metric); ok {
				vals = append(vals, v)
			}
		}
		if len(vals) < 2 || slices.Min(vals) <= 0 {
			single = append(single, row.Series)
			continue
		}
		ranked = append(ranked, spread{row, (slices.Max(vals)/slices.Min(vals) - 1) * 100})
	}
	if len(ranked) < 2 {
		return "", false
	}
	slices.SortStableFunc(ranked, func(x, y spread) int {
		if p.Order == planner.OrderDesc {
			return cmp.Compare(y.pct, x.pct)
		}
		return cmp.Compare(x.pct, y.pct)
	})
	word := "Smallest"
	if p.Order == planner.OrderDesc {
		word = "Largest"
	}
	pct := func(v float64) string { return trimZeros(strconv.FormatFloat(v, 'f', 1, 64)) + "%" }
	var rest []string
	for _, s := range ranked[1:] {
		rest = append(rest, s.row.Series+" "+pct(s.pct))
	}
	where := rowConditions(ranked[0].row)
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Session != rows[0].Session }) {
		// Cells of both capture sessions: each row's session is its own.
		where = strings.TrimSuffix(where, ", session "+strconv.Itoa(ranked[0].row.Session)) + ", across both capture sessions"
	}
	head := word + " spread between repetitions (highest ÷ lowest − 1) at " + where + ": " + ranked[0].row.Series + ", " +
		pct(ranked[0].pct) + "; then " + strings.Join(rest, ", ") + "."
	if len(single) > 0 {
		head += " " + joinAnd(single) + " had a single run: no spread."
	}
	return head, true
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
