package compose

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// planMetric is the metric a plan reads: the slot, else the first query's,
// else throughput.
func planMetric(p planner.Plan) string {
	if p.Slots.Metric != "" {
		return p.Slots.Metric
	}
	for _, q := range p.Queries {
		if q.Metric != "" {
			return q.Metric
		}
	}
	return "ops_per_sec"
}

// measuredAnswer writes a lookup, comparison, position, multiple,
// scaling, crossover, threshold or knob-effect answer over rows: line 1
// for the plan's shape, then the conditions, the table and the chart.
func measuredAnswer(a *Answer, p planner.Plan, rows []Row, results []queryResult) evidence {
	metric := planMetric(p)
	var plain string
	var multiples []string
	switch {
	case p.Intent == planner.IntentCompare && p.Multiple:
		// The ranking answers where no multiple can be drawn, and lends
		// its plain words where the multiples have none.
		a.Headline, plain = rankingText(rows, metric, p.Order, 0, 0)
		if h, lines, pl, ok := multipleText(results, rows, metric); ok {
			a.Headline, multiples, plain = h, lines, cmp.Or(pl, plain)
		}
	case p.Intent == planner.IntentCompare:
		a.Headline, plain = rankingText(rows, metric, p.Order, p.Position, p.Limit)
	case p.Intent == planner.IntentScaling && p.Crossover:
		a.Headline, plain = curveText(rows, metric, "cores", true)
		if h, pl, ok := crossoverText(results, metric); ok {
			a.Headline, plain = h, cmp.Or(pl, plain)
		}
	case p.Intent == planner.IntentScaling && p.Aggregate == "threshold" && p.Bound != nil:
		a.Headline, plain = thresholdText(rows, *p.Bound)
	case p.Intent == planner.IntentScaling:
		a.Headline, plain = curveText(rows, metric, "cores", true)
	case p.Intent == planner.IntentEffect:
		a.Headline, plain = curveText(rows, metric, effectKnob(p, rows), false)
	default:
		a.Headline, plain = lookupText(rows, metric)
	}
	a.Body = append(a.Body, p.Notes...)
	if len(multiples) > 0 {
		a.Body = append(a.Body, "**The multiples**, each computed from the two medians (not from the rounded figures):\n"+bullets(multiples))
	}
	a.Body = append(a.Body, joinSentences(conditionsLine(rows), repsLine(rows)))
	if p.Intent == planner.IntentScaling && len(distinct(rows, "cores")) > 1 {
		a.Table = pivotTable(rows, metric, "cores")
	} else {
		a.Table = rowsTable(rows, metric, false)
	}
	a.PlainWords = capitalise(plain)
	a.Chart = chartFor(p, rows)
	return evidence{rows: rows, caveats: caveatsFor(rows, metric), terms: termsFor(rows, metric), maxTerms: 3}
}

func joinSentences(ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// rowLabel names a row in prose: its series, plus the conditions that set
// it apart from the other rows.
func rowLabel(r Row, varying []string) string {
	var extra []string
	session := false
	for _, k := range varying {
		if k == "session" {
			session = true
			continue
		}
		extra = append(extra, knobWords(r, k))
	}
	label := r.Series
	if len(extra) > 0 {
		label += " at " + strings.Join(extra, ", ")
	}
	if session {
		label += " (session " + knobValue(r, "session") + ")"
	}
	return label
}

// plainSeries names a row's series for a newcomer.
func plainSeries(r Row) string {
	name := analytics.EngineName(r.Engine)
	switch r.Mode {
	case "cluster":
		return "a " + name + " Cluster driven by one ordinary client"
	case "cluster-sat":
		return "a " + name + " Cluster driven flat out by one load generator per shard"
	}
	return "one " + name + " server process"
}

func lookupText(rows []Row, metric string) (headline, plain string) {
	mw := metricWords(metric)
	if len(rows) == 1 {
		r := rows[0]
		v, ok := r.Metric(metric)
		if !ok {
			return fmt.Sprintf("%s has no %s for this combination (no reads were made).", r.Series, mw), ""
		}
		if metric == "ops_per_core" {
			mw = "throughput" // the figure itself says "per core"
		}
		headline = fmt.Sprintf("%s: %s of %s at %s%s (%s).", r.Series, mw, formatMetric(metric, v, r.floorFor(metric)),
			knobWords(r, "cores"), unusualConditions(r), repsWords(r))
		return headline, plainFor(r, metric, v)
	}
	varying := varyingKnobs(rows)
	if len(rows) <= 4 {
		var parts []string
		for _, r := range rows {
			if v, ok := r.Metric(metric); ok {
				parts = append(parts, rowLabel(r, varying)+" "+formatMetric(metric, v, r.floorFor(metric))+singleRunTag(r))
			}
		}
		headline = capitalise(mw) + ": " + strings.Join(parts, "; ") + "."
	} else {
		lo, hi := extremes(rows, metric)
		vlo, _ := lo.Metric(metric)
		vhi, _ := hi.Metric(metric)
		headline = fmt.Sprintf("%s ranges from %s (%s) to %s (%s) across the rows below.", capitalise(mw),
			formatMetric(metric, vlo, lo.floorFor(metric)), rowLabel(lo, varying)+singleRunTag(lo),
			formatMetric(metric, vhi, hi.floorFor(metric)), rowLabel(hi, varying)+singleRunTag(hi))
	}
	// Plain words describe what an application sees: the first series that
	// is not the fully driven ceiling.
	r := rows[0]
	if o := ordinaryRows(rows); len(o) > 0 {
		r = o[0]
	}
	v, _ := r.Metric(metric)
	return headline, plainFor(r, metric, v)
}

// unusualConditions names the conditions of a row that differ from the
// usual defaults (SET:GET 1:10, 100 B values, pipeline 16), so a headline
// of MGET commands or unpipelined requests says so: " with MGET of 10 keys
// per command and pipeline 1".
func unusualConditions(r Row) string {
	var parts []string
	if r.Ratio != "1:10" {
		parts = append(parts, knobWords(r, "ratio"))
	}
	if r.ValueBytes != 100 {
		parts = append(parts, knobWords(r, "value_bytes"))
	}
	if r.Pipeline != 16 {
		parts = append(parts, knobWords(r, "pipeline"))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return " with " + parts[0]
	}
	return " with " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// repsWords says how a row's figure was formed: "median of 2 repetitions"
// or "single run".
func repsWords(r Row) string {
	if r.Reps == 1 {
		return "single run"
	}
	return fmt.Sprintf("median of %d repetitions", r.Reps)
}

// plainFor is the newcomer's line for one row and metric.
func plainFor(r Row, metric string, v float64) string {
	switch metric {
	case "p50_ms":
		return fmt.Sprintf("half of the requests to %s were answered within %s, timed at the client.", plainSeries(r), FormatMs(v))
	case "p99_ms":
		return fmt.Sprintf("all but one in a hundred requests to %s were answered within %s, timed at the client.", plainSeries(r), FormatMs(v))
	case "p999_ms":
		return fmt.Sprintf("all but one in a thousand requests to %s were answered within %s, timed at the client.", plainSeries(r), FormatMs(v))
	case "hit_rate":
		return fmt.Sprintf("%s of reads to %s found their key.", formatHitRate(v), plainSeries(r))
	case "kb_per_sec":
		about := "about"
		if r.Floor {
			about = "at least"
		}
		return fmt.Sprintf("%s moved %s %s KB of data a second between client and server.", capitalise(plainSeries(r)), about, formatOpsShort(v))
	}
	batch := "one request at a time per connection"
	if r.Pipeline > 1 {
		batch = fmt.Sprintf("requests sent in batches of %d", r.Pipeline)
	}
	floor := ""
	if r.Floor {
		floor = " at least"
	}
	if metric == "ops_per_core" {
		return fmt.Sprintf("each core given to %s handled%s %s of %s, with %s.", plainSeries(r), floor, formatOps(v), plainWork(r), batch)
	}
	return fmt.Sprintf("%s handled%s %s of %s, with %s.", capitalise(plainSeries(r)), floor, formatOps(v), plainWork(r), batch)
}

// plainWork names what one operation of the row's workload is.
func plainWork(r Row) string {
	size := "small"
	if r.ValueBytes >= 1024 {
		size = formatValueBytes(r.ValueBytes)
	}
	switch r.Ratio {
	case "mget10":
		return "MGET commands (10 keys per command)"
	case "mset10":
		return "MSET commands (10 keys per command)"
	case "1:1":
		return size + " reads and writes, half of each"
	}
	return size + " reads and writes, mostly reads"
}

// formatOps renders ops/s for plain words ("15.5M operations a second").
func formatOps(v float64) string { return formatOpsShort(v) + " operations a second" }

// rankRows orders rows best first for the metric (order "asc"/"desc" or
// the metric's natural order when empty); rows without the metric go last.
func rankRows(rows []Row, metric string, order planner.Order) []Row {
	asc := lowerIsBetter(metric)
	switch order {
	case planner.OrderAsc:
		asc = true
	case planner.OrderDesc:
		asc = false
	}
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b Row) int {
		va, oka := a.Metric(metric)
		vb, okb := b.Metric(metric)
		if oka != okb {
			if oka {
				return -1
			}
			return 1
		}
		if asc {
			return cmp.Compare(va, vb)
		}
		return cmp.Compare(vb, va)
	})
	return out
}

func extremes(rows []Row, metric string) (lo, hi Row) {
	r := rankRows(rows, metric, planner.OrderAsc)
	return r[0], r[len(r)-1]
}

// rankingText answers a place in the ranking of rows on metric: the
// first, with the runner-up and how far it leads; the n-th ("the second
// fastest", "second worst"), with the one above it for context; or the
// first n ("top 3"). A place or a list counts every series measured, the
// fully driven ceilings too, and says so when one is among those named.
func rankingText(rows []Row, metric string, order planner.Order, position, limit int) (headline, plain string) {
	if len(rows) == 1 {
		return lookupText(rows, metric)
	}
	ranked := rankRows(rows, metric, order)
	varying := varyingKnobs(rows)
	mw := metricWords(metric)
	lower := order == planner.OrderAsc || (order == "" && lowerIsBetter(metric))
	dir := "highest"
	if lower {
		dir = "lowest"
	}
	places := func(rs []Row) string {
		items := make([]string, len(rs))
		for i, r := range rs {
			items[i] = fmt.Sprintf("%d. %s — %s", i+1, rowLabel(r, varying), figure(r, metric))
		}
		return strings.Join(items, "; ")
	}
	ceilingNote := func(shown []Row) string {
		if len(ordinaryRows(shown)) < len(shown) {
			return " The ranking counts every series measured, the fully driven cluster ceilings too."
		}
		return ""
	}
	switch n := min(limit, len(ranked)); {
	case limit > len(ranked):
		return fmt.Sprintf("Only %d series were measured under these conditions, ranked by %s: %s.", len(ranked), mw, places(ranked)) + ceilingNote(ranked), ""
	case limit > 0:
		return fmt.Sprintf("The %d series with the %s %s: %s.", n, dir, mw, places(ranked[:n])) + ceilingNote(ranked[:n]), ""
	case position > len(ranked):
		return fmt.Sprintf("There is no %s: only %d series were measured under these conditions (%s).", ordinalWord(position), len(ranked), places(ranked)), ""
	case position > 1:
		r, above := ranked[position-1], ranked[position-2]
		return fmt.Sprintf("%s has the %s %s %s: %s, after %s (%s).", rowLabel(r, varying), ordinalWord(position), dir, mw, figure(r, metric),
			rowLabel(above, varying), figure(above, metric)) + ceilingNote(ranked[:position]), ""
	}
	// The runner-up is the best row of another engine when there is one: a
	// question about engines is not answered by one engine's two series.
	best, second := ranked[0], ranked[1]
	for _, r := range ranked[1:] {
		if r.Engine != best.Engine {
			second = r
			break
		}
	}
	vb, okb := best.Metric(metric)
	vs, oks := second.Metric(metric)
	if !okb || !oks {
		return lookupText(rows, metric)
	}
	headline = fmt.Sprintf("%s has the %s %s: %s, against %s for %s", rowLabel(best, varying), dir, mw,
		figure(best, metric), figure(second, metric), rowLabel(second, varying))
	if vs != 0 && vb != 0 {
		q := vb / vs
		if lower {
			q = vs / vb
		}
		switch {
		case FormatRatio(q) == "1.0×" && best.floorFor(metric):
			headline += " (at least about the same)"
		case FormatRatio(q) == "1.0×":
			headline += " (about the same)"
		case lower && lowerIsBetter(metric):
			headline += fmt.Sprintf(" (%s lower)", FormatRatio(vs/vb))
		case lower:
			headline += fmt.Sprintf(" (%s of it)", FormatRatio(vb/vs))
		case best.floorFor(metric) && second.floorFor(metric):
			headline += fmt.Sprintf(" (%s, both floors)", FormatRatio(vb/vs))
		default:
			headline += fmt.Sprintf(" (%s%s)", multipleBound(best, second, metric), FormatRatio(vb/vs))
		}
	}
	headline += "."
	// A fully driven ceiling on top is not what an application sees: name
	// the best series an ordinary client gets too.
	ordinary := ordinaryRows(ranked)
	if best.Mode == "cluster-sat" && len(ordinary) > 0 {
		r := ordinary[0]
		v, _ := r.Metric(metric)
		verb := "leads with"
		if lower {
			verb = "has the lowest,"
		}
		if len(ordinary) == 1 {
			headline += fmt.Sprintf(" What an ordinary client sees is %s: %s", rowLabel(r, varying), figure(r, metric))
		} else {
			headline += fmt.Sprintf(" Of the series an ordinary client sees, %s %s %s", rowLabel(r, varying), verb, figure(r, metric))
		}
		if len(ordinary) > 1 && !lower {
			if v2, ok := ordinary[1].Metric(metric); ok && v2 != 0 {
				mult := multipleBound(r, ordinary[1], metric) + FormatRatio(v/v2)
				if FormatRatio(v/v2) == "1.0×" {
					mult = "about the same as"
				}
				headline += fmt.Sprintf(", %s %s (%s)", mult, rowLabel(ordinary[1], varying), figure(ordinary[1], metric))
			}
		}
		headline += "."
	}
	// Plain words compare the two best series an ordinary client sees.
	if len(ordinary) >= 2 {
		best, second = ordinary[0], ordinary[1]
		vb, _ = best.Metric(metric)
		vs, _ = second.Metric(metric)
	}
	same := "under the same conditions"
	if best.Session != second.Session {
		same = "with the same settings, though in separate capture sessions"
	}
	if vs != 0 && vb != 0 {
		plain = capitalise(same) + ", " + plainComparison(best, second, vb, vs, metric) + "."
	}
	return headline, plain
}

// plainComparison says for a newcomer how row a compares with row b:
// "one Garnet server process did at least 1.4× the work of …", "the slow
// requests to … waited about 3.4× less time than those to …", "… did
// about the same work as …".
func plainComparison(a, b Row, va, vb float64, metric string) string {
	if isLatency(metric) {
		fast, slow, vf, vsl := a, b, va, vb
		if va > vb {
			fast, slow, vf, vsl = b, a, vb, va
		}
		which, those := "the slow requests", "those"
		if metric == "p50_ms" {
			which, those = "a typical request", "one"
		}
		if FormatRatio(vsl/vf) == "1.0×" {
			return fmt.Sprintf("%s to %s waited about as long as %s to %s", which, plainSeries(a), those, plainSeries(b))
		}
		return fmt.Sprintf("%s to %s waited about %s less time than %s to %s", which, plainSeries(fast), FormatRatio(vsl/vf), those, plainSeries(slow))
	}
	floor := a.floorFor(metric) && !b.floorFor(metric) && va >= vb
	ceiling := b.floorFor(metric) && !a.floorFor(metric) && va >= vb
	switch {
	case FormatRatio(va/vb) == "1.0×" && floor:
		return fmt.Sprintf("%s did at least about the same work as %s", plainSeries(a), plainSeries(b))
	case FormatRatio(va/vb) == "1.0×":
		return fmt.Sprintf("%s did about the same work as %s", plainSeries(a), plainSeries(b))
	case floor:
		return fmt.Sprintf("%s did at least %s the work of %s", plainSeries(a), FormatRatio(va/vb), plainSeries(b))
	case ceiling:
		return fmt.Sprintf("%s did at most %s the work of %s, whose figure is only a floor", plainSeries(a), FormatRatio(va/vb), plainSeries(b))
	}
	return fmt.Sprintf("%s did about %s the work of %s", plainSeries(a), FormatRatio(va/vb), plainSeries(b))
}

// figure is a row's figure of metric as every answer writes it: the
// median, "at least" where it is a floor (Garnet's, client-limited), and
// marked where it is a single run.
func figure(r Row, metric string) string {
	v, _ := r.Metric(metric)
	return formatMetric(metric, v, r.floorFor(metric)) + singleRunTag(r)
}

// multipleBound says how far the multiple a ÷ b of two figures holds when
// one of them is a floor: "at least " when only a is (the true multiple
// may be larger), "at most " when only b is (the lead may be smaller).
func multipleBound(a, b Row, metric string) string {
	switch af, bf := a.floorFor(metric), b.floorFor(metric); {
	case af && !bf:
		return "at least "
	case bf && !af:
		return "at most "
	}
	return ""
}

// ordinalWord spells a place: "second", "third", "11th".
func ordinalWord(n int) string {
	words := []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n > 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n) + "th"
}

// ordinaryRows are the rows an ordinary client sees: all but the fully
// driven cluster ceilings.
func ordinaryRows(rows []Row) []Row {
	return slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return r.Mode == "cluster-sat" })
}

// singleRunTag marks a figure that is one run, not a median: " (single run)".
func singleRunTag(r Row) string {
	if r.Reps == 1 {
		return " (single run)"
	}
	return ""
}

// seriesGroups splits rows into groups equal in everything but knob,
// preserving row order within each group, groups in first-seen order.
func seriesGroups(rows []Row, knob string) [][]Row {
	var keys []string
	groups := map[string][]Row{}
	for _, r := range rows {
		var parts []string
		parts = append(parts, r.Engine, r.Mode)
		for _, k := range conditionKnobs {
			if k != knob {
				parts = append(parts, knobValue(r, k))
			}
		}
		key := strings.Join(parts, "|")
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], r)
	}
	out := make([][]Row, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b Row) int { return compareKnob(a, b, knob) })
		out = append(out, g)
	}
	return out
}

func compareKnob(a, b Row, knob string) int {
	switch knob {
	case "cores":
		return cmp.Compare(a.Cores, b.Cores)
	case "pipeline":
		return cmp.Compare(a.Pipeline, b.Pipeline)
	case "value_bytes":
		return cmp.Compare(a.ValueBytes, b.ValueBytes)
	case "ratio":
		return cmp.Compare(indexOr(ratioOrder, a.Ratio), indexOr(ratioOrder, b.Ratio))
	case "session":
		return cmp.Compare(a.Session, b.Session)
	}
	return 0
}

func distinct(rows []Row, knob string) []string {
	var out []string
	for _, r := range rows {
		out = addUnique(out, knobValue(r, knob))
	}
	return out
}

// groupLabel names a group of rows that differ only in knob.
func groupLabel(g []Row, others []string) string {
	return rowLabel(g[0], others)
}

// otherVarying lists the knobs other than knob that vary between rows.
func otherVarying(rows []Row, knob string) []string {
	var out []string
	for _, k := range varyingKnobs(rows) {
		if k != knob {
			out = append(out, k)
		}
	}
	return out
}

// crossover says at which core count one series first passes the other and
// stays ahead, when the two lines cross.
func crossover(a, b []Row, metric string) string {
	// A floor (Garnet) that trails somewhere may not really trail: say
	// nothing about who leads unless the floor leads everywhere.
	if a[0].floorFor(metric) != b[0].floorFor(metric) && floorTrails(a, b, metric) {
		return ""
	}
	common, _, _, lead := coreLeads(a, b, metric)
	if len(common) < 2 {
		return ""
	}
	first := lead(common[0])
	always := true
	for _, c := range common {
		if lead(c) != first {
			always = false
		}
	}
	if always && first != 0 {
		verb := "stays below"
		if first > 0 {
			verb = "stays ahead of"
		}
		return fmt.Sprintf("%s %s %s at every core count measured.", a[0].Series, verb, b[0].Series)
	}
	for i, c := range common[1:] {
		if l := lead(c); l != 0 && l != first {
			// The later leader must stay ahead at every larger core count.
			for _, d := range common[i+1:] {
				if lead(d) != l {
					return ""
				}
			}
			winner, loser := a[0], b[0]
			if l < 0 {
				winner, loser = b[0], a[0]
			}
			return fmt.Sprintf("%s passes %s at %d cores and stays ahead.", winner.Series, loser.Series, c)
		}
	}
	return ""
}

// effectKnob is the knob an effect plan varies: the slot, else the first
// condition that varies between rows.
func effectKnob(p planner.Plan, rows []Row) string {
	if p.Slots.Knob != "" {
		return p.Slots.Knob
	}
	for _, k := range []string{"pipeline", "value_bytes", "ratio", "cores", "session"} {
		if len(distinct(rows, k)) > 1 {
			return k
		}
	}
	return "pipeline"
}

// curveText says what one knob does to each series: the figure at its
// lowest and highest measured value, and the multiple between them. A
// scaling curve reads over cores and says where two to four series cross;
// an effect names the knob's two ends (the workload mix has its own words:
// mixEffectText).
func curveText(rows []Row, metric, knob string, scaling bool) (headline, plain string) {
	if knob == "ratio" && !scaling {
		if h, pl, ok := mixEffectText(rows, metric); ok {
			return h, pl
		}
	}
	groups := seriesGroups(rows, knob)
	others := otherVarying(rows, knob)
	var parts []string
	ceilingPlain := false
	for i, g := range groups {
		if len(g) < 2 {
			continue
		}
		lo, hi := g[0], g[len(g)-1]
		vlo, ok1 := lo.Metric(metric)
		vhi, ok2 := hi.Metric(metric)
		if !ok1 || !ok2 || vlo == 0 {
			continue
		}
		from, to, q := formatMetric(metric, vlo, lo.floorFor(metric)), formatMetric(metric, vhi, lo.floorFor(metric)), FormatRatio(vhi/vlo)
		label := groupLabel(g, others) + singleRunsTag(g)
		change := fmt.Sprintf("going from %d to %d cores", lo.Cores, hi.Cores)
		if !scaling {
			change = fmt.Sprintf("changing only %s from %s to %s", knobName(knob),
				strings.TrimPrefix(knobWords(lo, knob), knobName(knob)+" "), strings.TrimPrefix(knobWords(hi, knob), knobName(knob)+" "))
		}
		switch {
		case scaling && i < 4:
			parts = append(parts, fmt.Sprintf("%s goes from %s at %d cores to %s at %d cores (%s)", label, from, lo.Cores, to, hi.Cores, q))
		case !scaling && len(parts) < 4:
			parts = append(parts, fmt.Sprintf("%s: %s → %s (%s)", label, from, to, q))
		}
		// Plain words describe what an ordinary client sees: over cores,
		// the first series that is not the fully driven ceiling, else the
		// first; for an effect, the first series.
		if plain == "" || scaling && ceilingPlain && lo.Mode != "cluster-sat" {
			plain = fmt.Sprintf("%s, the %s of %s %s.", change, metricWords(metric), plainSeries(lo), changeWords(vhi/vlo))
			ceilingPlain = lo.Mode == "cluster-sat"
		}
	}
	if len(parts) == 0 {
		return lookupText(rows, metric)
	}
	first := groups[0]
	headline = fmt.Sprintf("Effect of %s on %s (%s → %s): %s.", knobName(knob), metricWords(metric),
		knobWords(first[0], knob), knobWords(first[len(first)-1], knob), strings.Join(parts, "; "))
	if scaling {
		headline = capitalise(metricWords(metric)) + " by cores: " + strings.Join(parts, "; ") + "."
	}
	if len(groups) > 4 {
		headline += " The table has every series."
	}
	if scaling && len(groups) >= 2 && len(groups) <= 4 && !lowerIsBetter(metric) {
		for _, other := range groups[1:] {
			if c := crossover(groups[0], other, metric); c != "" {
				headline += " " + c
			}
		}
	}
	return headline, capitalise(plain)
}

// mixEffectText is the effect of the workload mix: every mix measured for
// each series, the 1:10 → 1:1 change as a multiple, and MGET/MSET rates
// named as commands of 10 keys — a multi-key command is not one key's
// operation, so no multiple is drawn between them and the single-key mixes.
func mixEffectText(rows []Row, metric string) (headline, plain string, ok bool) {
	groups := seriesGroups(rows, "ratio")
	others := otherVarying(rows, "ratio")
	var parts []string
	multi := false
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		var items []string
		var v110 float64
		for _, r := range g {
			v, okv := r.Metric(metric)
			if !okv {
				continue
			}
			item := ratioWords(r.Ratio) + " " + formatMetric(metric, v, r.floorFor(metric))
			if singleRunsTag(g) == "" {
				item += singleRunTag(r)
			}
			switch r.Ratio {
			case "1:10":
				v110 = v
			case "1:1":
				if v110 != 0 {
					item += " (" + FormatRatio(v/v110) + " of 1:10)"
					if plain == "" {
						plain = fmt.Sprintf("changing only the mix from mostly reads (1:10) to half writes (1:1), the %s of %s %s.", metricWords(metric), plainSeries(r), changeWords(v/v110))
					}
				}
			case "mget10", "mset10":
				multi = true
			}
			items = append(items, item)
		}
		if len(parts) < 4 {
			parts = append(parts, groupLabel(g, others)+singleRunsTag(g)+": "+strings.Join(items, "; "))
		}
	}
	if len(parts) == 0 {
		return "", "", false
	}
	headline = "Effect of the workload mix on " + metricWords(metric) + ". " + strings.Join(parts, ". ") + "."
	if len(groups) > 4 {
		headline += " The table has every series."
	}
	if multi && !isLatency(metric) && metric != "hit_rate" {
		headline += " An MGET or MSET operation is one command of 10 keys, so those rates count commands, not keys, and are not set against the single-key mixes."
	}
	if plain == "" {
		v, _ := rows[0].Metric(metric)
		plain = plainFor(rows[0], metric, v)
	}
	return headline, capitalise(plain), true
}

// singleRunsTag marks a group of rows that are all single runs.
func singleRunsTag(g []Row) string {
	for _, r := range g {
		if r.Reps != 1 {
			return ""
		}
	}
	return " (single runs)"
}

func knobName(knob string) string {
	switch knob {
	case "value_bytes":
		return "value size"
	case "ratio":
		return "the SET:GET mix"
	}
	return knob
}

// pivotTable shows one metric with knob values down and series across.
func pivotTable(rows []Row, metric, knob string) *Table {
	groups := seriesGroups(rows, knob)
	others := otherVarying(rows, knob)
	t := &Table{Columns: []string{knobHeader[knob]}}
	for _, g := range groups {
		t.Columns = append(t.Columns, groupLabel(g, others))
	}
	var keys []Row
	for _, r := range rows {
		if !slices.ContainsFunc(keys, func(k Row) bool { return knobValue(k, knob) == knobValue(r, knob) }) {
			keys = append(keys, r)
		}
	}
	slices.SortStableFunc(keys, func(a, b Row) int { return compareKnob(a, b, knob) })
	for _, k := range keys {
		cells := []string{knobValue(k, knob)}
		for _, g := range groups {
			cell := "not measured"
			for _, r := range g {
				if knobValue(r, knob) == knobValue(k, knob) {
					if v, ok := r.Metric(metric); ok {
						cell = tableValue(metric, v, r.Floor) + singleRunTag(r)
					}
				}
			}
			cells = append(cells, cell)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// tableValue renders a median in a table cell.
func tableValue(metric string, v float64, floor bool) string {
	switch {
	case isLatency(metric):
		return FormatMs(v)
	case metric == "hit_rate":
		return formatHitRate(v)
	}
	s := formatOpsShort(v)
	if floor && (metric == "ops_per_sec" || metric == "ops_per_core" || metric == "kb_per_sec") {
		s = "≥" + s
	}
	return s
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// changeWords says what a multiple did to a figure: "was multiplied by
// 5.6×", "fell to 0.8× of what it was", "stayed about the same".
func changeWords(q float64) string {
	switch r := FormatRatio(q); {
	case r == "1.0×":
		return "stayed about the same"
	case q > 0.95 && q < 1.05:
		return "stayed about the same (" + r + ")"
	case q < 1:
		return "fell to " + r + " of what it was"
	default:
		return "was multiplied by " + r
	}
}
