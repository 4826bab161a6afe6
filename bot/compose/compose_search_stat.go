package compose

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// statSampleIDs is how many run IDs each series shows; the series' filter
// lists them all.
const statSampleIDs = 3

// statHeadlineBudget is how long the first line may grow with its list of
// series (in characters) before the rest are left to the table: the reply
// keeps the line whole, with room for "; … 12 series in all below.".
const statHeadlineBudget = firstLineBudget - 30

// statSeries is one series (engine, mode, session) of the runs a
// statistic search kept: the median of the asked metric across them.
type statSeries struct {
	key    analytics.CellKey // Session, Engine and Mode only
	row    Row               // one of its cells, for the series' names and floors
	filter string            // the match filter narrowed to the series
	kept   int
	median float64
	lo, hi float64
	ids    []string // a bounded sample, the runs nearest the top of the metric's order
	cores  []int
}

// searchStat answers a statistic of one metric over the runs a condition
// keeps ("median p50 of the runs with p99 under 1 ms"): the median across
// the kept runs, per series and session. A pooled median over engines,
// modes and both capture sessions would answer with a figure no setup
// has, and mixes the two sessions; the question's own series narrow it.
func (b *Composer) searchStat(ctx context.Context, a *Answer, p planner.Plan, sp planner.Search, res analytics.Result, s *sourcer) (evidence, error) {
	q := p.Queries[0]
	match := p.Queries[len(p.Queries)-1].Filter
	kept, err := b.query(ctx, match)
	if err != nil {
		return evidence{}, err
	}
	s.filter(match)
	var series []*statSeries
	at := map[analytics.CellKey]*statSeries{}
	for _, c := range kept.Cells {
		k := analytics.CellKey{Session: c.Session, Engine: c.Engine, Mode: c.Mode}
		if at[k] == nil {
			at[k] = &statSeries{key: k, row: RowFromCell(c),
				filter: narrowed(match, `engine == `+strconv.Quote(c.Engine), `mode == `+strconv.Quote(c.Mode), `session == `+strconv.Itoa(c.Session))}
			series = append(series, at[k])
		}
		at[k].cores = addUnique(at[k].cores, c.Cores)
	}
	for _, ss := range series {
		if err := b.statOfRuns(ctx, ss, sp); err != nil {
			return evidence{}, err
		}
	}
	series = slices.DeleteFunc(series, func(ss *statSeries) bool { return ss.kept == 0 })
	what := metricWords(sp.Metric)
	cond := statConditionWords(sp) + " (`" + match + "`)"
	read := ""
	if sp.StatWord != "" {
		read = " (“" + sp.StatWord + "” read as the median across runs)"
	}
	a.Body = append(a.Body, "Searched "+runScopeWords(res)+" with the filter `"+q.Filter+"` and kept the runs of `"+match+"`; each figure is the median of "+what+" across the kept runs of one series and session, each run counted once.")
	if len(series) == 0 {
		a.Headline = "No measured run has " + cond + " — searched " + runScopeWords(res) + ", so there is no " + what + " to take the median of."
		a.PlainWords = "Nothing in the measured runs matches that condition; no figure is extrapolated."
		return evidence{}, nil
	}
	total := 0
	for _, ss := range series {
		total += ss.kept
	}
	lead := "Median " + what + read + " of the " + strconv.Itoa(total) + " runs with " + cond
	if len(series) == 1 {
		ss := series[0]
		a.Headline = lead + ": " + formatMetric(sp.Metric, ss.median, ss.row.floorFor(sp.Metric)) + " — " + ss.row.Series + ", session " + strconv.Itoa(ss.key.Session) + " (median of " + countWord(ss.kept, "run", "runs") + ")."
	} else {
		// As many series as the first line holds whole; the rest are below.
		var parts []string
		used := utf8.RuneCountInString(lead + ", per series: ")
		for i, ss := range series {
			part := ShortSeriesLabel(ss.key.Engine, ss.key.Mode) + " (session " + strconv.Itoa(ss.key.Session) + ") " + formatMetric(sp.Metric, ss.median, ss.row.floorFor(sp.Metric)) + " (" + countWord(ss.kept, "run", "runs") + ")"
			if i > 0 && used+utf8.RuneCountInString(part) > statHeadlineBudget {
				parts = append(parts, "… "+strconv.Itoa(len(series))+" series in all below")
				break
			}
			parts = append(parts, part)
			used += utf8.RuneCountInString(part) + 2
		}
		a.Headline = lead + ", per series: " + strings.Join(parts, "; ") + "."
		if sp.Pooled {
			// Asked for one figure over every kept run: given first, with
			// what it mixes said on the same line.
			all := &statSeries{filter: match}
			if err := b.statOfRuns(ctx, all, sp); err != nil {
				return evidence{}, err
			}
			floor := slices.ContainsFunc(series, func(ss *statSeries) bool { return ss.row.floorFor(sp.Metric) })
			mixes := strconv.Itoa(len(series)) + " series"
			if statSessionsWords(series) != " from session "+strconv.Itoa(series[0].key.Session) {
				mixes += " and both capture sessions"
			}
			a.Headline = lead + ", pooled: " + formatMetric(sp.Metric, all.median, floor) + " (median of " + countWord(all.kept, "run", "runs") + ", mixing " + mixes + ") — per series below, where each has its own."
		}
		why := ": a single median pooled over them would mix engines, cluster modes and capture sessions, so each series has its own."
		if sp.Pooled {
			why = ": the pooled median takes every kept run once, whatever its series, cores or workload, so it is no single setup's figure; each series has its own below."
		}
		a.Body = append(a.Body, "The kept runs span "+strconv.Itoa(len(series))+" series"+statSessionsWords(series)+why)
	}
	t := &Table{Columns: []string{"Series", "Session", "Runs kept", "Median " + metricHeader(sp.Metric), "Lowest", "Highest", "Cores kept", "Sample runs", "Filter (lists them all)"}}
	var rows []Row
	for _, ss := range series {
		cell := func(v float64) string { return cellValue(ss.row, sp.Metric, v) }
		t.Rows = append(t.Rows, []string{ss.row.Series, strconv.Itoa(ss.key.Session), countWord(ss.kept, "run", "runs"), cell(ss.median), cell(ss.lo), cell(ss.hi),
			coreList(slices.Sorted(slices.Values(ss.cores))), runIDList(ss.ids), "`" + ss.filter + "`"})
		s.filter(ss.filter)
		s.runs(ss.ids...)
		rows = append(rows, ss.row)
	}
	a.Body = append(a.Body, "Each series, with how many runs it kept, the median and the spread across them, and a few of its run IDs (the series' filter lists every one):")
	a.Table = t
	first := series[0]
	a.PlainWords = "Among the runs with " + cond + ", " + first.row.Series + " has a median " + what + " of " + formatMetric(sp.Metric, first.median, first.row.floorFor(sp.Metric)) + " across " + countWord(first.kept, "run", "runs") + "; the runs kept differ in cores and workload, so the median summarises them, it is no single setup's figure."
	return evidence{caveats: caveatsFor(rows, sp.Metric)}, nil
}

// narrowed adds to a filter the clauses it does not hold already.
func narrowed(filter string, clauses ...string) string {
	for _, c := range clauses {
		if !slices.Contains(strings.Split(filter, " && "), c) {
			filter += " && " + c
		}
	}
	return filter
}

// statOfRuns fills a series' statistic from the runs its filter keeps.
func (b *Composer) statOfRuns(ctx context.Context, ss *statSeries, sp planner.Search) error {
	var vs []float64
	// Keep sees each kept run's value once: the median is taken over all
	// of them, while the ranking holds only the sample of IDs.
	ranked, err := b.rankRuns(ctx, ss.filter, analytics.RunRanking{Field: rankField(sp.Metric), Ascending: sp.Order == planner.OrderAsc,
		Limit: statSampleIDs, Keep: func(v float64) bool { vs = append(vs, v); return true }})
	if err != nil || len(vs) == 0 {
		return err
	}
	slices.Sort(vs)
	ss.kept, ss.median, ss.lo, ss.hi = ranked.Kept, analytics.Median(vs), vs[0], vs[len(vs)-1]
	for _, r := range ranked.Top {
		ss.ids = append(ss.ids, r.ID)
	}
	return nil
}

// statConditionWords says the conditions a statistic search kept runs by,
// in words: "p99 latency below 1 ms"; the answer shows the filter that
// holds them (with the question's engines and settings) verbatim.
func statConditionWords(sp planner.Search) string {
	var parts []string
	for _, c := range sp.Conditions {
		w := c.Words()
		if c.Field == "ops_per_sec" || c.Field == "ops_per_core" || c.Field == "kb_per_sec" || c.Field == "hit_rate" || isLatency(c.Field) {
			w = metricWords(c.Field) + " " + thresholdOpWords[c.Op] + " " + thresholdValue(planner.Search{Metric: c.Field, Value: c.Value})
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " and ")
}

// statSessionsWords says which capture sessions the series come from.
func statSessionsWords(series []*statSeries) string {
	var ss []int
	for _, s := range series {
		ss = addUnique(ss, s.key.Session)
	}
	if len(ss) > 1 {
		return " from both capture sessions (different machines and dates, not compared as like for like)"
	}
	return " from session " + strconv.Itoa(ss[0])
}
