package compose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// claimAnswer puts a vendor or third-party claim, labelled as the
// claimant's statement with its source and setup, next to what the runs
// give (the ground truth here), the multiples the data gives, why the two
// differ and a plain-words line. A claim the knowledge base has no source
// for is answered with the measurements alone, and says so.
func (b *Composer) claimAnswer(a *Answer, p planner.Plan, planRows []Row, results []queryResult, s *sourcer) evidence {
	c, ok := b.cfg.Knowledge.Claim(p.Slots.ClaimID)
	switch {
	case !ok && len(planRows) == 0:
		return b.noDataAnswer(a, p, planRows, s)
	case !ok:
		ev := measuredAnswer(a, p, planRows, results)
		a.Body = append([]string{"I have no recorded source for that claim, so only the measurements are shown."}, a.Body...)
		return ev
	}
	// The claim's own counter-measures join the table; a measure's filter
	// is cited only when it adds a cell the plan's filters did not select,
	// so the same cell is never listed under two filters.
	selected := map[analytics.CellKey]bool{}
	for _, r := range planRows {
		selected[r.key()] = true
	}
	var rows []Row
	var tableLines []string
	for _, m := range c.Measures {
		if !m.FromRuns() {
			tableLines = append(tableLines, b.tableMeasureLine(m, s))
			continue
		}
		cells := m.Series
		if len(cells) == 0 {
			cells = []analytics.Cell{m.Cell}
		}
		added := false
		for _, cell := range cells {
			r := RowFromCell(cell)
			rows = append(rows, r)
			if !selected[r.key()] {
				added = true
				selected[r.key()] = true
			}
		}
		if added {
			s.filter(m.Filter)
		}
	}
	// The headline compares the cells the plan selected (they match the
	// interpretation line); the claim's own counter-measures join the table.
	headRows := planRows
	if len(headRows) == 0 {
		headRows = rows
		if nr := nearestRows(c); len(nr) > 0 && !c.Comparable() {
			headRows = nr
		}
	}
	rows = dedupeRows(append(planRows, rows...))
	sortRows(rows)
	metric := claimMetric(c, p)
	engines := claimEngines(c, p, headRows)

	a.Kind, a.Rows = KindClaim, rows
	a.Claim = &ClaimContext{
		ID:        c.ID,
		Claimant:  c.Claimant,
		Statement: c.Statement,
		Setup:     joinSentences(claimSetup(c.Setup), labelled("Their figures", c.Numbers), labelled("Provenance", c.Provenance)),
		Measured:  c.Measured,
		Verdict:   fullStop(capitalise(c.Verdict)),
		WhyDiffer: c.WhyDiffer,
	}
	for _, src := range c.Sources {
		if src.URL != "" {
			a.Claim.URL = src.URL
			break
		}
	}
	a.Headline = claimHeadline(engines, headRows, metric)
	switch {
	case len(rows) == 0 && len(tableLines) > 0:
		a.Headline = "Measured here: " + strings.Join(tableLines, "; ") + "."
		if h := memoryClaimHeadline(c, engines); h != "" {
			a.Headline = h
		}
	case len(rows) == 0:
		a.Headline = "No run measures this claim directly; the benchmark's evidence is set beside it below."
		if c.Verdict != "" {
			a.Headline = "Verdict: " + ensureStop(strings.ToLower(c.Verdict[:1])+c.Verdict[1:]) + " " + a.Headline
			if c.Title != "" {
				a.Headline = "Verdict on “" + c.Title + "”: " + ensureStop(strings.ToLower(c.Verdict[:1])+c.Verdict[1:]) + " No run measures it directly; the benchmark's evidence is set beside it below."
			}
		}
	}
	// Line 1 comes from the claim's structured check: the computed verdict
	// with the figures beside the claim, or why no run here is comparable
	// with the nearest measured rows; a status note states the status.
	measured := a.Headline
	switch {
	case claimIsStatus(c):
		a.Headline = ensureStop(c.Statement)
		a.Body = append(a.Body, measured)
	case c.Comparable():
		outcomes := askedOutcomes(c, p.Slots.Engines)
		if h := claimCheckHeadline(c, outcomes); h != "" {
			a.Headline = h
			a.Claim.Verdict = fullStop(capitalise(knowledge.CombineVerdicts(outcomes)))
			a.Body = append(a.Body, measured)
		}
	case c.Comparability.Status == knowledge.StatusNotComparable || c.Comparability.Status == knowledge.StatusNeverMeasured:
		a.Headline = nearestHeadline(c)
		if measured != a.Headline && measured != "" {
			a.Body = append(a.Body, measured)
		}
	}
	if line := claimRuleLine(c); line != "" {
		a.Body = append(a.Body, line)
	}
	a.Body = append(a.Body, p.Notes...)
	if len(rows) > 0 {
		a.Body = append(a.Body, joinSentences(conditionsLine(rows), repsLine(rows)))
		a.Table = rowsTable(rows, metric, false)
	}
	if len(tableLines) > 0 {
		a.Body = append(a.Body, "Measured tables (not runs):\n"+bullets(tableLines))
	}
	a.PlainWords = claimPlain(engines, headRows, metric)
	if len(rows) == 0 {
		a.PlainWords = "the claimant's statement and what this benchmark found are set side by side above; the verdict is “" + c.Verdict + "”."
		if len(tableLines) > 0 {
			a.PlainWords = "the measured table above is what this dataset treats as true; the claim comes from the claimant's own workload, and the verdict is “" + c.Verdict + "”."
		}
		a.PlainWords = capitalise(a.PlainWords)
	}
	s.entry(c.ID)
	s.entry("caveat:vendor-vs-measured")
	var termIDs []string
	if len(rows) > 0 {
		termIDs = termsFor(rows, metric)
	}
	return evidence{rows: rows, caveats: caveatsFor(rows, metric), terms: termIDs, maxTerms: 3}
}

// claimIsStatus reports a status note (engine-status:keydb) answered
// through the claim check: it states a project's state, not a figure.
func claimIsStatus(c knowledge.Claim) bool { return strings.HasPrefix(c.ID, "engine-status:") }

func labelled(label, s string) string {
	if s == "" {
		return ""
	}
	return label + ": " + ensureStop(s)
}

// claimSetup is the claimant's setup as a sentence, "Not recorded." when
// the knowledge base has none (or only a dash).
func claimSetup(setup string) string {
	if s := strings.Trim(setup, " —-"); s != "" {
		return ensureStop(s)
	}
	return "Not recorded."
}

// fullStop ends a sentence with a full stop, even after a closing bracket.
func fullStop(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

func ensureStop(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, ")") || strings.HasSuffix(s, "”") || strings.HasSuffix(s, "\"") {
		return s
	}
	return s + "."
}

// claimMetric is the metric the question asked about (the plan's slot),
// else the one the claim's run measures use.
func claimMetric(c knowledge.Claim, p planner.Plan) string {
	if p.Slots.Metric != "" {
		return p.Slots.Metric
	}
	for _, m := range c.Measures {
		if m.FromRuns() && m.Metric != "" {
			return m.Metric
		}
	}
	return planMetric(p)
}

// claimEngines orders the engines a claim answer compares: the claim's
// own engine first when the rows have it, then the question's engines,
// then the claim's others.
func claimEngines(c knowledge.Claim, p planner.Plan, rows []Row) []string {
	var out []string
	if len(c.Engines) > 0 && slices.ContainsFunc(rows, func(r Row) bool { return r.Engine == c.Engines[0] }) {
		out = append(out, c.Engines[0])
	}
	for _, e := range append(slices.Clone(p.Slots.Engines), c.Engines...) {
		out = addUnique(out, e)
	}
	return out
}

// claimSubject is the row of the engine the claim is about (the first
// engine of the question, else of the claim), when a row has it.
func claimSubject(engines []string, rows []Row) (Row, bool) {
	if len(engines) == 0 {
		return Row{}, false
	}
	for _, r := range rows {
		if r.Engine == engines[0] {
			return r, true
		}
	}
	return Row{}, false
}

// claimPeers are the rows of other engines measured under the same
// conditions as the subject's row, which the multiples compare with. A
// cluster subject is compared like for like (realistic with realistic,
// ceiling with ceiling); a single process with every series.
func claimPeers(subj Row, rows []Row) []Row {
	var same []Row
	sameMode := map[string]bool{}
	for _, r := range rows {
		if r.Engine == subj.Engine || r.Cores != subj.Cores || r.Ratio != subj.Ratio || r.ValueBytes != subj.ValueBytes || r.Pipeline != subj.Pipeline {
			continue
		}
		same = append(same, r)
		if r.Mode == subj.Mode {
			sameMode[r.Engine] = true
		}
	}
	if subj.Mode == "single" {
		return same
	}
	// A cluster is compared with the same series of another cluster engine;
	// an engine that never ran in that mode is compared as it ran.
	var out []Row
	for _, r := range same {
		if r.Mode == subj.Mode || !sameMode[r.Engine] {
			out = append(out, r)
		}
	}
	return out
}

// claimHeadline states the measured figures, and for each other series
// the multiple (or the share, below one) the claimant's engine achieves.
func claimHeadline(engines []string, rows []Row, metric string) string {
	if len(rows) == 0 {
		return "Measured here: see the measured tables below."
	}
	shown := rows
	subj, ok := claimSubject(engines, rows)
	if ok {
		shown = []Row{subj}
		for _, r := range claimPeers(subj, rows) {
			// The engine the claim compares against comes first; the
			// table carries the rest.
			if len(engines) < 2 || r.Engine == engines[1] {
				shown = append(shown, r)
			}
		}
		if len(shown) == 1 {
			shown = append(shown, claimPeers(subj, rows)...)
		}
	}
	// Every series the plan queried is named (the realistic cluster and its
	// fully driven ceiling alike), once, at its first cell; the subject
	// engine's other series come before the other engines'.
	var extra []Row
	for _, r := range rows {
		named := func(x Row) bool { return x.Engine == r.Engine && x.Mode == r.Mode }
		if !slices.ContainsFunc(shown, named) && !slices.ContainsFunc(extra, named) {
			extra = append(extra, r)
		}
	}
	if ok {
		slices.SortStableFunc(extra, func(a, b Row) int { return boolRank(a.Engine != subj.Engine) - boolRank(b.Engine != subj.Engine) })
	}
	shown = append(shown, extra...)
	crossSession := slices.ContainsFunc(shown, func(r Row) bool { return r.Session != shown[0].Session })
	var parts []string
	for _, r := range shown {
		v, okv := r.Metric(metric)
		if !okv {
			continue
		}
		part := r.Series
		if crossSession {
			part += " (session " + strconv.Itoa(r.Session) + ")"
		}
		part += " " + figure(r, metric)
		if other, okp := singlePeer(subj, r, shown); ok && okp && !lowerIsBetter(metric) && v != 0 {
			// The claimant engine's other series (its ceiling) against the
			// single process it is compared with.
			ov, _ := other.Metric(metric)
			if q := v / ov; ov != 0 && q >= 1 {
				part += fmt.Sprintf(" — %s %s", FormatRatio(q), analytics.EngineName(other.Engine))
			} else if ov != 0 {
				part += fmt.Sprintf(" — %s of %s", FormatPercent(q), analytics.EngineName(other.Engine))
			}
		} else if ref, name, okr := claimReference(subj, r, shown, rows); ok && okr && !lowerIsBetter(metric) && v != 0 {
			sv, _ := ref.Metric(metric)
			bound := multipleBound(ref, r, metric)
			if q := sv / v; q >= 1 {
				part += fmt.Sprintf(" — %s is %s%s this", name, bound, FormatRatio(q))
			} else {
				part += fmt.Sprintf(" — %s reaches %s%s of it (%s)", name, bound, FormatPercent(q), FormatRatio(q))
			}
		}
		parts = append(parts, part)
	}
	return "Measured here (" + metricWords(metric) + "): " + strings.Join(parts, "; ") + "."
}

// claimReference is the row of the claim's subject engine that a headline
// row r is measured against, and how to name it: the subject's series in
// r's own mode (a ceiling against a ceiling), else the subject itself when
// r is one of its like-for-like peers. Rows of the subject engine itself
// get no multiple.
func claimReference(subj, r Row, shown, rows []Row) (Row, string, bool) {
	if r.Engine == subj.Engine {
		return Row{}, "", false
	}
	if r.Mode != subj.Mode {
		for _, x := range shown {
			if x.Engine == subj.Engine && x.Mode == r.Mode && x.key() != subj.key() {
				return x, shortSeries(x.Engine, x.Mode), true
			}
		}
	}
	if slices.ContainsFunc(claimPeers(subj, rows), func(x Row) bool { return x.key() == r.key() }) {
		return subj, analytics.EngineName(subj.Engine), true
	}
	return Row{}, "", false
}

// singlePeer is, for a row of the subject's engine in another series (a
// ceiling next to the realistic subject), the single-process row of another
// engine under the same conditions that the headline already shows.
func singlePeer(subj, r Row, shown []Row) (Row, bool) {
	if r.Engine != subj.Engine || r.key() == subj.key() {
		return Row{}, false
	}
	for _, x := range shown {
		if x.Engine != subj.Engine && x.Mode == "single" && x.Cores == r.Cores && x.Ratio == r.Ratio && x.ValueBytes == r.ValueBytes && x.Pipeline == r.Pipeline {
			return x, true
		}
	}
	return Row{}, false
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// claimPlain is the newcomer's line: how the claimant's engine compares
// with the series of the engine it is compared against, and that the
// claim's figure belongs to its own setup.
func claimPlain(engines []string, rows []Row, metric string) string {
	const tail = " The claim's own figure comes from the claimant's setup, not this one."
	subj, ok := claimSubject(engines, rows)
	if !ok {
		if len(rows) > 0 {
			v, _ := rows[0].Metric(metric)
			return capitalise(plainFor(rows[0], metric, v)) + tail
		}
		return "The claim describes the claimant's own test; this dataset measured the figures listed, and those are what it treats as true."
	}
	sv, _ := subj.Metric(metric)
	var parts []string
	for _, r := range claimPeers(subj, rows) {
		v, okv := r.Metric(metric)
		if !okv || v == 0 || lowerIsBetter(metric) || len(engines) > 1 && r.Engine != engines[1] {
			continue
		}
		about := "about"
		if bound := multipleBound(subj, r, metric); bound != "" && sv/v >= 1 {
			about = strings.TrimSpace(bound)
		}
		parts = append(parts, fmt.Sprintf("%s %s the work of %s", about, FormatRatio(sv/v), plainSeries(r)))
	}
	if len(parts) == 0 {
		return capitalise(plainFor(subj, metric, sv)) + tail
	}
	lead := "On this benchmark"
	if slices.ContainsFunc(claimPeers(subj, rows), func(r Row) bool { return r.Session != subj.Session }) {
		lead = "On this benchmark, though in separate capture sessions"
	}
	return fmt.Sprintf("%s, %s did %s.", lead, plainSeries(subj), strings.Join(parts, ", and ")) + tail
}

// tableMeasureLine renders a claim measure read from a measured table.
func (b *Composer) tableMeasureLine(m knowledge.Measure, s *sourcer) string {
	switch m.Table {
	case "memory":
		t := b.cfg.Knowledge.MemoryTable()
		s.entry(t.ID)
		line := fmt.Sprintf("%s: %s bytes per key", analytics.EngineName(m.Row), formatExact(m.Value))
		if m.Label != "" {
			line += " — " + m.Label
		}
		return line
	case "failover-sweep", "failover-engines":
		id := "failover:sweep"
		if m.Table == "failover-engines" {
			id = "failover:engines"
		}
		s.entry(id)
		return fmt.Sprintf("%s %s: %s s", id, m.Row, formatExact(m.Value))
	}
	return fmt.Sprintf("%s %s: %s", m.Table, m.Row, formatExact(m.Value))
}

// memoryClaimHeadline states a memory claim's measured bytes per key and
// how much less (or more) the claim's engine needs than each other engine.
func memoryClaimHeadline(c knowledge.Claim, engines []string) string {
	vals := map[string]float64{}
	var order []string
	for _, m := range c.Measures {
		if m.Table == "memory" && m.Label == "" {
			vals[m.Row] = m.Value
			order = append(order, m.Row)
		}
	}
	if len(engines) == 0 || len(order) < 2 {
		return ""
	}
	subj, ok := vals[engines[0]]
	if !ok {
		return ""
	}
	var parts []string
	parts = append(parts, analytics.EngineName(engines[0])+" "+formatExact(subj))
	for _, e := range order {
		if e == engines[0] {
			continue
		}
		v := vals[e]
		rel := "less"
		f := 1 - subj/v
		if subj > v {
			rel, f = "more", subj/v-1
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s needs %s %s)", analytics.EngineName(e), formatExact(v), analytics.EngineName(engines[0]), pct1(f), rel))
	}
	return "Measured here (bytes per key): " + strings.Join(parts, "; ") + "."
}
