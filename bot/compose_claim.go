package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// composeClaim puts a vendor or third-party claim, labelled as the
// claimant's statement with its source and setup, next to what the runs
// give (the ground truth here), the multiples the data gives, why the two
// differ and a plain-words line.
func (b *Bot) composeClaim(ctx context.Context, p planner.Plan) (Answer, error) {
	c, ok := b.cfg.Knowledge.Claim(p.Slots.ClaimID)
	if !ok {
		a, err := b.composeMeasured(ctx, p)
		if err == nil && a.Kind == KindAnswer {
			a.Body = append([]string{"I have no recorded source for that claim, so only the measurements are shown."}, a.Body...)
		}
		return a, err
	}
	s := newSourcer(b.cfg.Knowledge)
	var rows []Row
	var tableLines []string
	for _, m := range c.Measures {
		switch {
		case m.FromRuns() && len(m.Series) > 0:
			for _, cell := range m.Series {
				rows = append(rows, RowFromCell(cell))
			}
			s.filter(m.Filter)
		case m.FromRuns():
			rows = append(rows, RowFromCell(m.Cell))
			s.filter(m.Filter)
		default:
			tableLines = append(tableLines, b.tableMeasureLine(m, s))
		}
	}
	planRows, _, err := b.runQueries(ctx, p.Queries)
	if err != nil {
		return Answer{}, err
	}
	for _, q := range p.Queries {
		s.filter(q.Filter)
	}
	rows = dedupeRows(append(rows, planRows...))
	metric := claimMetric(c, p)

	a := Answer{Kind: KindClaim, Interpretation: p.Interpretation, Rows: rows, Nearest: []Row{}}
	a.Claim = &ClaimContext{
		ID:        c.ID,
		Claimant:  c.Claimant,
		Statement: c.Statement,
		Setup:     joinSentences(ensureStop(c.Setup), labelled("Their figures", c.Numbers), labelled("Provenance", c.Provenance)),
		Measured:  c.Measured,
		Verdict:   capitalise(c.Verdict),
		WhyDiffer: c.WhyDiffer,
	}
	if len(c.Sources) > 0 {
		a.Claim.URL = c.Sources[0].URL
	}
	a.Headline = claimHeadline(c, rows, metric)
	a.Body = append(a.Body, p.Notes...)
	if len(rows) > 0 {
		a.Body = append(a.Body, joinSentences(conditionsLine(rows), repsLine(rows)))
		a.Table = rowsTable(rows, metric, false)
	}
	if len(tableLines) > 0 {
		a.Body = append(a.Body, "Measured tables (not runs):\n"+bullets(tableLines))
	}
	a.PlainWords = claimPlain(c, rows, metric)
	s.entry(c.ID)
	s.entry("caveat:vendor-vs-measured")
	b.applyCaveatsAndTerms(&a, s, caveatsFor(rows, metric), termsFor(rows, metric), 3)
	s.rows(rows)
	a.Sources = s.sources()
	return a, nil
}

func labelled(label, s string) string {
	if s == "" {
		return ""
	}
	return label + ": " + ensureStop(s)
}

func ensureStop(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, ")") || strings.HasSuffix(s, "”") || strings.HasSuffix(s, "\"") {
		return s
	}
	return s + "."
}

// claimMetric is the metric the claim's run measures use.
func claimMetric(c knowledge.Claim, p planner.Plan) string {
	for _, m := range c.Measures {
		if m.FromRuns() && m.Metric != "" {
			return m.Metric
		}
	}
	return planMetric(p)
}

// claimSubject is the row of the claimant's own engine (the first engine
// the claim names), when a run measure has it.
func claimSubject(c knowledge.Claim, rows []Row) (Row, bool) {
	if len(c.Engines) == 0 {
		return Row{}, false
	}
	for _, r := range rows {
		if r.Engine == c.Engines[0] {
			return r, true
		}
	}
	return Row{}, false
}

// claimHeadline states the measured figures, and for each other series
// the multiple (or the share, below one) the claimant's engine achieves.
func claimHeadline(c knowledge.Claim, rows []Row, metric string) string {
	lead := "Measured here"
	if c.Verdict != "" {
		lead = capitalise(c.Verdict) + " — measured here"
	}
	if len(rows) == 0 {
		return lead + ": see the measured tables below."
	}
	subj, ok := claimSubject(c, rows)
	var parts []string
	for _, r := range rows {
		v, okv := r.Metric(metric)
		if !okv {
			continue
		}
		part := r.Series + " " + formatMetric(metric, v, r.Floor && metric == "ops_per_sec")
		if ok && r.Engine != subj.Engine && r.Cores == subj.Cores && !lowerIsBetter(metric) {
			sv, _ := subj.Metric(metric)
			if q := sv / v; v != 0 && q >= 1 {
				part += fmt.Sprintf(" (%s %s of it)", EngineName(subj.Engine), FormatRatio(q))
			} else if v != 0 {
				part += fmt.Sprintf(" (%s at %s of it, %s)", EngineName(subj.Engine), FormatPercent(q), FormatRatio(q))
			}
		}
		parts = append(parts, part)
		if len(parts) == 5 {
			break
		}
	}
	return lead + ": " + strings.Join(parts, "; ") + "."
}

// claimPlain is the newcomer's line: how the claimant's engine compares
// with each other measured series, and that the claim's figure belongs to
// its own setup.
func claimPlain(c knowledge.Claim, rows []Row, metric string) string {
	subj, ok := claimSubject(c, rows)
	if !ok {
		if len(rows) > 0 {
			v, _ := rows[0].Metric(metric)
			return capitalise(plainFor(rows[0], metric, v))
		}
		return "the claim describes the claimant's own test; this dataset measured the figures listed, and those are what it treats as true."
	}
	sv, _ := subj.Metric(metric)
	var parts []string
	for _, r := range rows {
		v, okv := r.Metric(metric)
		if !okv || v == 0 || r.Engine == subj.Engine || r.Cores != subj.Cores {
			continue
		}
		if lowerIsBetter(metric) {
			continue
		}
		parts = append(parts, fmt.Sprintf("about %s the work of %s", FormatRatio(sv/v), plainSeries(r)))
	}
	if len(parts) == 0 {
		return capitalise(plainFor(subj, metric, sv)) + " The claim's own figure comes from the claimant's setup, not this one."
	}
	return fmt.Sprintf("on this benchmark, %s did %s. The claim's own figure comes from the claimant's setup, not this one.",
		plainSeries(subj), strings.Join(parts, " and "))
}

// tableMeasureLine renders a claim measure read from a measured table.
func (b *Bot) tableMeasureLine(m knowledge.Measure, s *sourcer) string {
	switch m.Table {
	case "memory":
		t := b.cfg.Knowledge.MemoryTable()
		s.entry(t.ID)
		line := fmt.Sprintf("%s: %s bytes per key", EngineName(m.Row), formatExact(m.Value))
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
