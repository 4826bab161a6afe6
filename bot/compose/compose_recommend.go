package compose

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// recommendAnswer answers "what should we run for …": every series
// measured under the stated conditions, ranked on the metric that matters,
// each with a one-line trade-off; engines not measured there appear as
// their nearest measured cells, named. It says which series the
// measurements favour and why, and leaves the decision to the reader.
// The evidence is that of the comparison (or the kind the question asked
// for), with the nearest cells' runs cited too.
func recommendAnswer(a *Answer, p planner.Plan, rows []Row, results []queryResult) evidence {
	base := p
	base.Intent = cmp.Or(p.Requested, planner.IntentCompare)
	base.Nearest = nil
	ev := measuredAnswer(a, base, rows, results)
	metric := planMetric(p)
	ranked := rankRows(rows, metric, "")
	a.Headline = recommendHeadline(ranked, metric)
	if place := candidatePlace(ranked, p.Candidate, metric); place != "" {
		a.Headline = place + " " + a.Headline
	}
	var lines []string
	for _, r := range ranked {
		v, _ := r.Metric(metric)
		lines = append(lines, "**"+r.Series+"** — "+formatMetric(metric, v, r.floorFor(metric))+"; "+tradeOff(r, metric))
	}
	body := []string{"Every series measured under these conditions, ranked best first on " + metricWords(metric) + " (medians across repetitions):\n" + bullets(lines)}
	if len(p.Nearest) > 0 {
		var near []Row
		var nl []string
		for _, n := range p.Nearest {
			r := RowFromCell(n.Cell)
			r.Differs = slices.Clone(n.Differs)
			near = append(near, r)
			v, _ := r.Metric(metric)
			nl = append(nl, r.Series+" was not measured under these conditions; its nearest measured cell is "+rowConditions(r)+" (differs in "+strings.Join(r.Differs, ", ")+"): "+formatMetric(metric, v, r.floorFor(metric))+", "+repsWords(r)+".")
		}
		a.Nearest = near
		ev.rows = append(slices.Clone(ev.rows), near...)
		body = append(body, "Not measured under these conditions (shown at their nearest measured conditions, not ranked with the rest):\n"+bullets(nl))
	}
	body = append(body, "This ranks what was measured; cost, operations, features and licences are not in the data, so the choice stays yours.")
	a.Body = append(body, a.Body...)
	return ev
}

// candidatePlace says where the engine a recommendation was asked about
// stands in its ranking, and, when fully driven ceilings rank above it,
// among the series an ordinary client sees ("KeyDB places seventh of 7 on
// throughput here (fifth of the 5 series an ordinary client sees): 636K
// ops/s."); "" when none was asked about or it has no row.
func candidatePlace(ranked []Row, engine, metric string) string {
	if engine == "" {
		return ""
	}
	place := func(rows []Row) (Row, int) {
		for i, r := range rows {
			if r.Engine == engine {
				return r, i + 1
			}
		}
		return Row{}, 0
	}
	figure := func(r Row) string {
		v, _ := r.Metric(metric)
		return formatMetric(metric, v, r.floorFor(metric))
	}
	r, n := place(ranked)
	if n == 0 {
		return ""
	}
	out := r.Series + " places " + ordinalWord(n) + " of " + strconv.Itoa(len(ranked)) + " on " + metricWords(metric) + " here"
	top := ""
	if n > 1 {
		top = ", against " + figure(ranked[0]) + " for " + ranked[0].Series + " on top"
	}
	ordinary := ordinaryRows(ranked)
	or, on := place(ordinary)
	switch {
	case len(ordinary) == len(ranked) || on == 0:
		return out + ": " + figure(r) + top + "."
	case or.Series == r.Series:
		return out + " (" + ordinalWord(on) + " of the " + strconv.Itoa(len(ordinary)) + " series an ordinary client sees): " + figure(r) + top + "."
	}
	return out + ": " + figure(r) + "; " + or.Series + " places " + ordinalWord(on) + " of the " + strconv.Itoa(len(ordinary)) + " series an ordinary client sees: " + figure(or) + "."
}

// tradeOff is a series' one-line trade-off: the other side of the
// figures, and what the row means.
func tradeOff(r Row, metric string) string {
	var parts []string
	if isLatency(metric) {
		parts = append(parts, formatMetric("ops_per_sec", r.OpsPerSec, r.Floor)+" throughput")
	} else {
		parts = append(parts, "p99 "+FormatMs(r.P99Ms))
	}
	switch {
	case r.Engine == "garnet":
		parts = append(parts, "a floor: the load client ran out of CPU first, so Garnet did at least this")
	case r.Mode == "cluster":
		parts = append(parts, "a cluster as one ordinary cluster-aware client sees it")
	case r.Mode == "cluster-sat":
		parts = append(parts, "the cluster's ceiling with one load generator per shard, which an application rarely matches")
	case r.Engine == "keydb":
		parts = append(parts, "one process; KeyDB refuses more than 16 server threads")
	default:
		parts = append(parts, "one process, no cluster client or key routing needed")
	}
	if r.Reps == 1 {
		parts = append(parts, "single run")
	}
	if r.Session == 2 {
		parts = append(parts, "session 2 (another client machine and date)")
	}
	return strings.Join(parts, "; ") + "."
}

// recommendHeadline says which series the measurements favour, and by
// how much over the next; two within 5% of each other (the yes/no
// comparisons' "about the same") are said to be level, never "1.0×".
func recommendHeadline(ranked []Row, metric string) string {
	head := favouredHeadline(ranked, metric)
	if ranked[0].Mode != "cluster-sat" {
		return head
	}
	// A ceiling on top is what one load generator per shard reached; an
	// application weighing the choice sees the ordinary series.
	for _, r := range ranked[1:] {
		if r.Mode != "cluster-sat" {
			v, _ := r.Metric(metric)
			return head + " Of what an ordinary client sees, " + r.Series + " leads with " + formatMetric(metric, v, r.floorFor(metric)) +
				"; the ceiling takes one load generator per shard."
		}
	}
	return head
}

// favouredHeadline is recommendHeadline's first sentence: the series on
// top, and by how much over the next.
func favouredHeadline(ranked []Row, metric string) string {
	top := ranked[0]
	tv, _ := top.Metric(metric)
	head := "The measurements favour " + top.Series + " on " + metricWords(metric) + " under these conditions: " + formatMetric(metric, tv, top.floorFor(metric))
	if len(ranked) < 2 {
		return head + "."
	}
	next := ranked[1]
	nv, _ := next.Metric(metric)
	if nv <= 0 || tv <= 0 {
		return head + "."
	}
	if aboutTheSame(tv, nv) {
		head = "The measurements put " + top.Series + " and " + next.Series + " about level on " + metricWords(metric) +
			" under these conditions, within 5% of each other: " + formatMetric(metric, tv, top.floorFor(metric)) +
			" and " + formatMetric(metric, nv, next.floorFor(metric))
		return head + "."
	}
	r := tv / nv
	if lowerIsBetter(metric) {
		r = nv / tv
	}
	return head + ", " + multipleBound(top, next, metric) + FormatRatio(r) + " the next, " + next.Series + " (" + formatMetric(metric, nv, next.floorFor(metric)) + ")."
}
