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

// composeSearch answers a dataset-wide search: the extreme rows (top few)
// of one metric over every cell or run the plan's filter selects, the
// filter verbatim and the scope searched, counted from the result ("254
// cells, both sessions"). Cells are medians across repetitions; runs are
// single repetitions, each with its own run ID.
func (b *Composer) composeSearch(ctx context.Context, p planner.Plan) (Answer, error) {
	sp := *p.Search
	q := p.Queries[0]
	res, err := b.query(ctx, q.Filter)
	if err != nil {
		return Answer{}, err
	}
	s := newSourcer(b.cfg.Knowledge)
	s.filter(q.Filter)
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	var ev evidence
	switch {
	case sp.Stat != "":
		ev, err = b.searchStat(ctx, &a, p, sp, res, s)
	case sp.Over == "runs":
		ev, err = b.searchRuns(ctx, &a, p, sp, res, s)
	default:
		ev, err = b.searchCells(ctx, &a, p, sp, res, s)
	}
	if err != nil {
		return Answer{}, err
	}
	b.cite(&a, s, ev)
	return a, nil
}

// searchCells answers a search over cells: the extreme medians, each
// with its conditions and repetitions.
func (b *Composer) searchCells(ctx context.Context, a *Answer, p planner.Plan, sp planner.Search, res analytics.Result, s *sourcer) (evidence, error) {
	q := p.Queries[0]
	scope := scopeWords(res)
	cells := res.Cells
	if len(p.Queries) > 1 {
		// Conditions on the runs' own fields: the cells of the runs they
		// keep, counted against every cell searched.
		matchFilter := p.Queries[1].Filter
		m, err := b.query(ctx, matchFilter)
		if err != nil {
			return evidence{}, err
		}
		s.filter(matchFilter)
		cells = m.Cells
	}
	var rows []Row
	for _, c := range cells {
		r := RowFromCell(c)
		v, ok := r.Metric(sp.Metric)
		if !ok || !crossesBound(sp.Op, v, sp.Value) {
			continue
		}
		rows = append(rows, r)
	}
	rows = rankRows(rows, sp.Metric, sp.Order)
	if sp.FewestCores {
		slices.SortStableFunc(rows, func(x, y Row) int { return cmp.Compare(x.Cores, y.Cores) })
	}
	top := rows[:min(len(rows), sp.Limit)]
	kept := ""
	if len(p.Queries) > 1 {
		kept = " and kept the cells of the runs of `" + p.Queries[1].Filter + "`"
	}
	a.Body = append(a.Body, "Searched "+scope+" with the filter `"+q.Filter+"`"+kept+thresholdWords(sp)+"; each figure is a cell's median across its repetitions.")
	if len(top) == 0 {
		a.Headline = "No measured cell " + strings.TrimPrefix(thresholdWords(sp), ", keeping ") + " — searched " + scope + "."
		if ev, ok := b.noneSearched(ctx, a, p, len(res.Cells), "cells", scope, res, s); ok {
			return ev, nil
		}
		a.PlainWords = "Nothing in the measurements reaches that; no figure is extrapolated."
		return evidence{}, nil
	}
	first := top[0]
	v, _ := first.Metric(sp.Metric)
	lead := searchLead(sp)
	if thresholded(sp) {
		lead = countLead(len(rows), len(res.Cells), "cells", sp)
	}
	a.Headline = lead + ": " + formatMetric(sp.Metric, v, first.floorFor(sp.Metric)) + " — " + first.Series + ", " + rowConditions(first) + " (" + repsWords(first) + ")."
	if sp.Note != "" {
		a.Body = append(a.Body, capitalise(sp.Note)+".")
	}
	a.Body = append(a.Body, "The most extreme cells, in order:")
	a.Rows = top
	a.Table = rowsTable(top, sp.Metric, false)
	a.PlainWords = "Over everything measured, the extreme is " + first.Series + " at " + rowConditions(first) + "; other conditions give other figures."
	return evidence{rows: top, caveats: caveatsFor(top, sp.Metric)}, nil
}

// searchRuns answers a search over single runs: each extreme run with its
// own value and run ID, next to its cell's median; the ranking holds only
// the few best runs the search kept, and counts them all.
func (b *Composer) searchRuns(ctx context.Context, a *Answer, p planner.Plan, sp planner.Search, res analytics.Result, s *sourcer) (evidence, error) {
	q := p.Queries[0]
	matchFilter := p.Queries[len(p.Queries)-1].Filter
	ranked, err := b.rankRuns(ctx, matchFilter, analytics.RunRanking{Field: rankField(sp.Metric), Ascending: sp.Order == planner.OrderAsc,
		Limit: sp.Limit, Keep: func(v float64) bool { return crossesBound(sp.Op, v, sp.Value) }})
	if err != nil {
		return evidence{}, err
	}
	s.filter(matchFilter)
	scope := runScopeWords(res)
	match := ""
	if len(p.Queries) > 1 {
		match = " and kept the runs of `" + p.Queries[1].Filter + "`"
	}
	a.Body = append(a.Body, "Searched "+scope+" with the filter `"+q.Filter+"`"+match+"; each figure below is one run's own value, not a median.")
	if ranked.Kept == 0 {
		a.Headline = "No: no measured run matches — searched " + scope + "."
		if ev, ok := b.noneSearched(ctx, a, p, res.Runs, "runs", scope, res, s); ok {
			return ev, nil
		}
		if missesOnly(sp) {
			a.Headline = "No — no run recorded a cache miss: every run with reads had a hit rate of 100% (searched " + scope + ")."
		}
		a.PlainWords = "Nothing in the measured runs matches that."
		return evidence{}, nil
	}
	cells := cellRows(res)
	t := &Table{Columns: append(slices.Clone(runColumns), metricHeader(sp.Metric), "Cell median")}
	for _, c := range sp.Conditions {
		t.Columns = append(t.Columns, c.Field)
	}
	var rows []Row
	for _, r := range ranked.Top {
		v, _ := runMetric(r, sp.Metric)
		cell, ok := cells[r.Key()]
		median := "—"
		if ok {
			if m, ok := cell.Metric(sp.Metric); ok {
				median = metricCell(sp.Metric, m)
			}
			rows = append(rows, cell)
		}
		row := append(runCells(r), metricCell(sp.Metric, v), median)
		for _, c := range sp.Conditions {
			row = append(row, runField(r, c.Field))
		}
		t.Rows = append(t.Rows, row)
		s.runs(r.ID)
	}
	rows = dedupeRows(rows)
	first := ranked.Top[0]
	v, _ := runMetric(first, sp.Metric)
	lead := searchLead(sp)
	switch {
	case missesOnly(sp) && len(sp.Conditions) == 0:
		lead = "Yes — " + strconv.Itoa(ranked.Kept) + " of the " + strconv.Itoa(res.Runs) + " runs searched recorded misses; the lowest hit rate of a single run"
	case thresholded(sp):
		lead = countLead(ranked.Kept, res.Runs, "runs", sp)
	}
	a.Headline = lead + ": " + metricCell(sp.Metric, v) + unitAfter(sp.Metric) + " — " + shortSeries(first.Engine, first.Mode) + ", " + runConditions(first) + ", one run (`" + first.ID + "`)."
	if sp.Note != "" {
		a.Body = append(a.Body, capitalise(sp.Note)+".")
	}
	a.Body = append(a.Body, "The most extreme runs, with their cell's median for comparison (a median is across that cell's repetitions, single run where there was one):")
	a.Table = t
	a.Rows = rows
	a.PlainWords = "The most extreme single run is " + shortSeries(first.Engine, first.Mode) + " at " + runConditions(first) + "; one run can sit away from its cell's median."
	return evidence{rows: rows, caveats: caveatsFor(rows, sp.Metric)}, nil
}

// noneSearched says, for a threshold search that kept nothing, how many
// of the n cells or runs searched crossed it (none), and completes the
// answer with the runs nearest the threshold (closestRuns); ok is false
// when there are no such runs to show.
func (b *Composer) noneSearched(ctx context.Context, a *Answer, p planner.Plan, n int, unit, scope string, res analytics.Result, s *sourcer) (ev evidence, ok bool) {
	sp := *p.Search
	if !thresholded(sp) {
		return evidence{}, false
	}
	none := "None of the " + strconv.Itoa(n) + " " + unit + " searched " + matchWords(sp, unit == "runs")
	a.Headline = none + " — searched " + scope + "."
	near, err := b.nearestRuns(ctx, p.Queries[0].Filter, sp)
	if err != nil || len(near) == 0 {
		return evidence{}, false
	}
	return b.closestRuns(a, none, sp, near, res, s), true
}

// runColumns head a table of single runs; runCells are one run's cells
// under them.
var runColumns = []string{"Run", "Series", "Session", "Cores", "SET:GET", "Value", "Pipeline"}

func runCells(r analytics.Run) []string {
	return []string{"`" + r.ID + "`", shortSeries(r.Engine, r.Mode), strconv.Itoa(r.Session), strconv.Itoa(r.Cores),
		ratioShort(r.Ratio), formatValueBytes(r.ValueBytes), strconv.Itoa(r.Pipeline)}
}

// cellRows are the rows of a result's cells, by cell.
func cellRows(res analytics.Result) map[analytics.CellKey]Row {
	cells := map[analytics.CellKey]Row{}
	for _, c := range res.Cells {
		cells[c.CellKey] = RowFromCell(c)
	}
	return cells
}

// runScopeWords counts the runs a result covers: "all 478 runs (254
// cells) in both sessions".
func runScopeWords(res analytics.Result) string {
	return "all " + strconv.Itoa(res.Runs) + " runs (" + strconv.Itoa(len(res.Cells)) + " cells) in " + sessionsWords(res)
}

func sessionsWords(res analytics.Result) string {
	var sessions []int
	for _, c := range res.Cells {
		sessions = addUnique(sessions, c.Session)
	}
	slices.Sort(sessions)
	if len(sessions) > 1 {
		return "both sessions"
	}
	return "session " + strconv.Itoa(firstInt(sessions))
}

// scopeWords counts what a result covers: "254 cells in both sessions".
func scopeWords(res analytics.Result) string {
	return "all " + strconv.Itoa(len(res.Cells)) + " measured cells (" + strconv.Itoa(res.Runs) + " runs) in " + sessionsWords(res)
}

func firstInt(ns []int) int {
	if len(ns) == 0 {
		return 0
	}
	return ns[0]
}

// crossesBound reports whether v is across a bound (op ">", ">=", "<" or
// "<="); with no op, every value is.
func crossesBound(op string, v, bound float64) bool {
	switch op {
	case ">=":
		return v >= bound
	case ">":
		return v > bound
	case "<=":
		return v <= bound
	case "<":
		return v < bound
	}
	return op == ""
}

// thresholdWords says the threshold a search applied, in the question's
// terms.
func thresholdWords(sp planner.Search) string {
	if sp.Op == "" || missesOnly(sp) {
		return ""
	}
	op := map[string]string{">=": "at least", ">": "above", "<=": "at most", "<": "below"}[sp.Op]
	return ", keeping those whose " + metricWords(sp.Metric) + " is " + op + " " + thresholdValue(sp)
}

func thresholdValue(sp planner.Search) string {
	switch {
	case isLatency(sp.Metric):
		return FormatMs(sp.Value)
	case sp.Metric == "hit_rate":
		return formatHitRatePrecise(sp.Value)
	case sp.Metric == "ops_per_core":
		return trimmedOps(sp.Value) + " ops/s per core"
	case sp.Metric == "kb_per_sec":
		return trimmedOps(sp.Value) + " KB/s"
	}
	return trimmedOps(sp.Value) + " ops/s"
}

// missesOnly reports a search for any cache miss at all: a hit rate below
// 100%.
func missesOnly(sp planner.Search) bool {
	return sp.Metric == "hit_rate" && sp.Op == "<" && sp.Value == 1
}

// thresholded reports a search that keeps what crosses a threshold (on
// its metric or on the runs' own fields), whose headline counts them.
func thresholded(sp planner.Search) bool {
	return sp.Op != "" || len(sp.Conditions) > 0
}

// countLead opens a threshold search's headline with what was asked: how
// many runs or cells crossed it, out of how many searched, and the
// extreme among them ("57 of the 478 runs searched had p99 latency above
// 5 ms, the highest"), short enough for the first line to keep the figure.
func countLead(n, of int, unit string, sp planner.Search) string {
	lead := strconv.Itoa(n) + " of the " + strconv.Itoa(of) + " " + unit + " searched " + matchWords(sp, unit == "runs") + ", "
	switch {
	case sp.FewestCores:
		return lead + "the one with the fewest cores"
	case sp.Order == planner.OrderAsc:
		return lead + "the lowest"
	}
	return lead + "the highest"
}

// thresholdOpWords says a threshold's comparison in words, between the
// metric and its value: "p99 latency above 5 ms".
var thresholdOpWords = map[string]string{">=": "of at least", ">": "above", "<=": "of at most", "<": "below"}

// matchWords says what a threshold search kept: "had p99 latency above
// 5 ms", "have runs with a test duration above 60 s (`test_time_s > 60`)".
func matchWords(sp planner.Search, runs bool) string {
	var parts []string
	if sp.Op != "" {
		what := metricWords(sp.Metric)
		if !runs {
			what = "a median " + what
		}
		parts = append(parts, what+" "+thresholdOpWords[sp.Op]+" "+thresholdValue(sp))
	}
	for _, c := range sp.Conditions {
		parts = append(parts, c.Words()+" (`"+c.Filter()+"`)")
	}
	if runs {
		return "had " + strings.Join(parts, " and ")
	}
	if sp.Op != "" && len(sp.Conditions) > 0 {
		return "have " + parts[0] + " from runs with " + strings.Join(parts[1:], " and ")
	}
	if sp.Op != "" {
		return "have " + parts[0]
	}
	return "have runs with " + strings.Join(parts, " and ")
}

// runField is one run's value of a field, as a table cell or a headline
// shows it: "20 s", "0", "1.2 ms".
func runField(r analytics.Run, field string) string {
	v, ok := runValue(r, field)
	switch {
	case !ok:
		return "—"
	case field == "test_time_s":
		return strconv.FormatFloat(v, 'f', -1, 64) + " s"
	}
	if _, metric := runMetric(analytics.Run{}, field); metric || field == "hit_rate" {
		return metricCell(field, v) + unitAfter(field)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// trimmedOps writes a threshold as the question would: "10M", "1.5M",
// "500K".
func trimmedOps(v float64) string {
	switch {
	case v >= 1e6:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', 3, 64)) + "M"
	case v >= 1e3:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 3, 64)) + "K"
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 3, 64))
}

// searchLead is the start of a search headline: "The highest p99.9
// latency measured".
func searchLead(sp planner.Search) string {
	if sp.FewestCores {
		return "The fewest cores that reach it"
	}
	ext := "The highest "
	if sp.Order == planner.OrderAsc {
		ext = "The lowest "
	}
	return ext + metricWords(sp.Metric) + " measured"
}

func runMetric(r analytics.Run, metric string) (float64, bool) {
	one := Row{RowCell: RowCell{OpsPerSec: r.OpsPerSec, P50Ms: r.P50Ms, P99Ms: r.P99Ms, P999Ms: r.P999Ms},
		OpsPerCore: r.OpsPerCore, KBPerSec: r.KBPerSec, HitRate: r.HitRate}
	return one.Metric(metric)
}

// metricHeader names a metric's table column.
func metricHeader(metric string) string {
	switch metric {
	case "p50_ms":
		return "p50 ms"
	case "p99_ms":
		return "p99 ms"
	case "p999_ms":
		return "p99.9 ms"
	case "hit_rate":
		return "hit rate"
	case "ops_per_core":
		return "ops/s per core"
	case "kb_per_sec":
		return "KB/s"
	}
	return "ops/s"
}

// metricCell renders one value for a table cell (exact for latency).
func metricCell(metric string, v float64) string {
	switch {
	case isLatency(metric):
		return formatMsExact(v)
	case metric == "hit_rate":
		return formatHitRatePrecise(v)
	}
	return formatOpsShort(v)
}

// formatHitRatePrecise keeps the digits that carry meaning: 0.9998 is
// "99.98%", never "100%".
func formatHitRatePrecise(v float64) string {
	for dec := 1; dec <= 4; dec++ {
		s := trimZeros(strconv.FormatFloat(v*100, 'f', dec, 64))
		if v == 1 || s != "100" {
			return s + "%"
		}
	}
	return trimZeros(strconv.FormatFloat(v*100, 'f', 4, 64)) + "%"
}

func unitAfter(metric string) string {
	switch {
	case isLatency(metric):
		return " ms"
	case metric == "hit_rate":
		return ""
	case metric == "ops_per_core":
		return " ops/s per core"
	case metric == "kb_per_sec":
		return " KB/s"
	}
	return " ops/s"
}

// rowConditions names a row's conditions in words.
func rowConditions(r Row) string {
	return strconv.Itoa(r.Cores) + " cores, " + ratioWords(r.Ratio) + ", " + formatValueBytes(r.ValueBytes) + " values, pipeline " + strconv.Itoa(r.Pipeline) + ", session " + strconv.Itoa(r.Session)
}

func runConditions(r analytics.Run) string {
	return rowConditions(Row{RowCell: RowCell{Cores: r.Cores, Ratio: r.Ratio, ValueBytes: r.ValueBytes, Pipeline: r.Pipeline, Session: r.Session}})
}

// nearestField is what a search that kept nothing ranks its nearest runs
// on: its first condition's field, else its metric.
func nearestField(sp planner.Search) (field, op string) {
	if len(sp.Conditions) > 0 {
		return sp.Conditions[0].Field, sp.Conditions[0].Op
	}
	return sp.Metric, sp.Op
}

// nearestRuns are the runs of the scope closest to a threshold nothing
// crossed: the highest values of its field for "above", the lowest for
// "below".
func (b *Composer) nearestRuns(ctx context.Context, scope string, sp planner.Search) ([]analytics.Run, error) {
	field, op := nearestField(sp)
	ranked, err := b.rankRuns(ctx, scope, analytics.RunRanking{Field: rankField(field), Ascending: strings.HasPrefix(op, "<"), Limit: sp.Limit})
	if err != nil {
		return nil, err
	}
	return ranked.Top, nil
}

// rankField is the run field a search ranks on: its metric, or the field
// of its first condition ("" is throughput, as Row.Metric reads it).
func rankField(field string) string {
	if field == "" {
		return "ops_per_sec"
	}
	return field
}

// closestRuns completes the answer of a search that kept nothing with the
// runs nearest its threshold, each with its own value and run ID: what
// was measured instead, nothing extrapolated.
func (b *Composer) closestRuns(a *Answer, none string, sp planner.Search, near []analytics.Run, res analytics.Result, s *sourcer) evidence {
	field, op := nearestField(sp)
	first := near[0]
	ext := "the highest "
	if strings.HasPrefix(op, "<") {
		ext = "the lowest "
	}
	a.Headline = none + "; " + ext + fieldWords(field) + " of any run searched: " + runField(first, field) + " — " + shortSeries(first.Engine, first.Mode) + ", " + runConditions(first) + ", one run (`" + first.ID + "`)."
	t := &Table{Columns: append(slices.Clone(runColumns), fieldHeader(field))}
	cells := cellRows(res)
	var rows []Row
	for _, r := range near {
		if cell, ok := cells[r.Key()]; ok {
			rows = append(rows, cell)
		}
		t.Rows = append(t.Rows, append(runCells(r), runField(r, field)))
		s.runs(r.ID)
	}
	rows = dedupeRows(rows)
	a.Body = append(a.Body, "Nothing crossed it; the runs nearest it, each with its own value:")
	a.Table = t
	a.Rows = rows
	a.PlainWords = "Nothing in the measured runs crosses that; the nearest measured values are shown, no figure is extrapolated."
	return evidence{rows: rows}
}

// runValue is one run's value of a field a search may rank or keep.
func runValue(r analytics.Run, field string) (float64, bool) {
	return r.Number(rankField(field))
}

// fieldWords names a field in a headline: "test duration", "p99 latency".
func fieldWords(field string) string {
	switch field {
	case "test_time_s":
		return "test duration"
	case "conn_errors":
		return "connection error count"
	case "client_conns":
		return "client connections per thread"
	case "client_threads":
		return "client thread count"
	case "server_threads":
		return "server thread count"
	case "shards":
		return "shard count"
	case "key_max":
		return "key range"
	}
	return metricWords(field)
}

// fieldHeader names a field's table column.
func fieldHeader(field string) string {
	if _, ok := runMetric(analytics.Run{}, field); ok || field == "hit_rate" {
		return metricHeader(field)
	}
	return field
}
