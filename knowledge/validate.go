package knowledge

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// loadTables parses the measured-table files and merges what tables.json
// says about them.
func (l *loader) loadTables(b *Base, t tablesFile) {
	b.memory = t.Memory
	if data, err := fsRead(l.fsys, fileMemory); err != nil {
		l.fail("%s: %w", fileMemory, err)
	} else if keys, vb, method, rows, err := parseMemory(data); err != nil {
		l.fail("%s: %v: %w", fileMemory, err, ErrInvalid)
	} else {
		b.memory.Keys, b.memory.ValueBytes, b.memory.Method, b.memory.Rows = keys, vb, method, rows
	}
	for _, q := range b.memory.Quoted {
		if q.Label == "" {
			l.fail("%s: quoted memory figure for %s has no label: %w", fileTables, q.Engine, ErrInvalid)
		}
		if _, measured := b.memory.measured(q.Engine); measured {
			l.fail("%s: %s is both measured and quoted: %w", fileTables, q.Engine, ErrInvalid)
		}
	}

	b.crossSlot = t.CrossSlot
	if data, err := fsRead(l.fsys, fileCrossSlot); err != nil {
		l.fail("%s: %w", fileCrossSlot, err)
	} else if systems, summary, err := parseCrossSlot(data); err != nil {
		l.fail("%s: %v: %w", fileCrossSlot, err, ErrInvalid)
	} else {
		b.crossSlot.Systems, b.crossSlot.Summary = systems, summary
	}

	b.diagnostics = t.Diagnostics
	if data, err := fsRead(l.fsys, fileDiag); err != nil {
		l.fail("%s: %w", fileDiag, err)
	} else if runs, err := parseDiagnostics(data); err != nil {
		l.fail("%s: %v: %w", fileDiag, err, ErrInvalid)
	} else {
		b.diagnostics.Runs = runs
	}

	var sweep, engines []FailoverRep
	for _, f := range []struct {
		name string
		dst  *[]FailoverRep
	}{{fileSweep, &sweep}, {fileFailEng, &engines}} {
		data, err := fsRead(l.fsys, f.name)
		if err != nil {
			l.fail("%s: %w", f.name, err)
			continue
		}
		reps, err := parseFailover(f.name, data)
		if err != nil {
			l.fail("%v: %w", err, ErrInvalid)
			continue
		}
		*f.dst = reps
	}
	b.sweep = FailoverTable{ID: "failover:sweep", Groups: groupFailover(sweep)}
	// The engine comparison reuses the sweep's Redis rows at the same
	// down-after value, as the lab does.
	var cmp []FailoverRep
	if len(engines) > 0 {
		da := engines[0].DownAfterMs
		for _, r := range sweep {
			if r.DownAfterMs == da {
				cmp = append(cmp, r)
			}
		}
	}
	b.failEngines = FailoverTable{ID: "failover:engines", Groups: groupFailover(append(cmp, engines...))}
}

func (t MemoryTable) measured(engine string) (MemoryRow, bool) {
	for _, r := range t.Rows {
		if r.Engine == engine {
			return r, true
		}
	}
	return MemoryRow{}, false
}

// checkIDs makes sure every id is well formed, carries its kind's prefix
// and is unique across the base.
func (l *loader) checkIDs(b *Base) {
	seen := map[string]bool{}
	check := func(id, prefix string) {
		switch {
		case !idPattern().MatchString(id):
			l.fail("bad id %q (want kind:lower-case-slug): %w", id, ErrInvalid)
		case prefix != "" && !strings.HasPrefix(id, prefix+":"):
			l.fail("id %q should start with %q: %w", id, prefix+":", ErrInvalid)
		case seen[id]:
			l.fail("duplicate id %q: %w", id, ErrInvalid)
		}
		seen[id] = true
	}
	for _, t := range b.terms {
		check(t.ID, "term")
	}
	for i, c := range b.claims {
		check(c.ID, claimKind(c.ID))
		if c.Kind != "vendor" && c.Kind != "third-party" {
			l.fail("%s: kind %q, want vendor or third-party: %w", c.ID, c.Kind, ErrInvalid)
		}
		l.checkClaim(&b.claims[i])
	}
	for _, f := range b.findings {
		check(f.ID, "finding")
		if f.Provenance != "measured" && f.Provenance != "blog" && f.Provenance != "measured+blog" {
			l.fail("%s: provenance %q, want measured, blog or measured+blog: %w", f.ID, f.Provenance, ErrInvalid)
		}
	}
	for i := range b.rules {
		r := &b.rules[i]
		kind, _, _ := strings.Cut(r.ID, ":")
		if kind != "rule" && kind != "trap" && kind != "caveat" {
			l.fail("rule %q: kind must be rule, trap or caveat: %w", r.ID, ErrInvalid)
		}
		r.Kind = kind
		check(r.ID, kind)
	}
	for i := range b.engines {
		e := &b.engines[i]
		check(e.ID, "engine")
		if e.ID != "engine:"+e.Key || !isEngine(e.Key) {
			l.fail("%s: key %q is not an engine of the runs: %w", e.ID, e.Key, ErrInvalid)
		}
	}
	for _, s := range b.sessions {
		check(s.ID, "session")
		if s.ID != "session:"+strconv.Itoa(s.Number) {
			l.fail("%s: number %d does not match the id: %w", s.ID, s.Number, ErrInvalid)
		}
	}
	for _, n := range b.notes {
		check(n.ID, n.Kind)
	}
	for _, id := range []string{b.memory.ID, b.crossSlot.ID, "engine:summary"} {
		check(id, "")
	}
}

// compute fills every measure and figure.
func (l *loader) compute(ctx context.Context, b *Base, q *queryMemo) {
	do := func(id string, ms []Measure, fs []Figure) {
		names := map[string]*Measure{}
		for i := range ms {
			m := &ms[i]
			if err := l.computeMeasure(ctx, b, q, m); err != nil {
				l.fail("%s: measure %q: %w", id, m.Name, err)
				continue
			}
			if _, dup := names[m.Name]; dup || inlineOps[m.Name] {
				l.fail("%s: measure name %q is reused or reserved: %w", id, m.Name, ErrInvalid)
			}
			names[m.Name] = m
		}
		for i := range fs {
			f := &fs[i]
			if f.Value != 0 || f.Text != "" {
				l.fail("%s: figure %q: value and text are computed, never typed: %w", id, f.Name, ErrInvalid)
				continue
			}
			if _, clash := names[f.Name]; clash {
				l.fail("%s: figure %q has a measure's name: %w", id, f.Name, ErrInvalid)
			}
			if err := computeFigure(f, names); err != nil {
				l.fail("%s: %w", id, err)
			}
		}
	}
	for i := range b.claims {
		do(b.claims[i].ID, b.claims[i].Measures, b.claims[i].Figures)
		l.judge(&b.claims[i])
	}
	for i := range b.findings {
		do(b.findings[i].ID, b.findings[i].Measures, b.findings[i].Figures)
	}
	for i := range b.notes {
		do(b.notes[i].ID, b.notes[i].Measures, b.notes[i].Figures)
	}
	for i := range b.sessions {
		s := &b.sessions[i]
		n, err := q.count(ctx, "session == "+strconv.Itoa(s.Number))
		if err != nil {
			l.fail("%s: counting runs: %w", s.ID, err)
			continue
		}
		if n.Runs == 0 {
			l.fail("%s: no runs in the store for this session: %w", s.ID, ErrInvalid)
		}
		s.Runs, s.Cells = n.Runs, n.Cells
	}
	for i := range b.engines {
		e := &b.engines[i]
		n, err := q.count(ctx, fmt.Sprintf("engine == %q", e.Key))
		if err != nil {
			l.fail("%s: counting runs: %w", e.ID, err)
			continue
		}
		if n.Runs == 0 {
			l.fail("%s: no runs in the store for this engine: %w", e.ID, ErrInvalid)
		}
		e.Runs, e.Cells = n.Runs, n.Cells
		if r, ok := b.memory.Row(e.Key); ok {
			v := r.BytesPerKey
			e.BytesPerKey = &v
		}
	}
}

// computeMeasure fills one measure from the runs or from a measured table.
func (l *loader) computeMeasure(ctx context.Context, b *Base, q Querier, m *Measure) error {
	if m.Value != 0 || m.Cell.Reps != 0 || len(m.Series) > 0 || m.Label != "" {
		return fmt.Errorf("value, cell, series and label are computed, never typed: %w", ErrInvalid)
	}
	if m.Name == "" {
		return fmt.Errorf("no name: %w", ErrInvalid)
	}
	if m.Table != "" {
		if m.Filter != "" || m.At != "" || m.Across != "" {
			return fmt.Errorf("a table measure takes no filter, at or across: %w", ErrInvalid)
		}
		return b.tableValue(m)
	}
	switch {
	case m.At != "" && m.Filter != "":
		return fmt.Errorf("both at and filter given: %w", ErrInvalid)
	case m.At != "":
		f, err := filterFromAt(m.At)
		if err != nil {
			return fmt.Errorf("at %q: %v: %w", m.At, err, ErrInvalid)
		}
		m.Filter = f
	case m.Filter == "":
		return fmt.Errorf("no filter: %w", ErrInvalid)
	}
	return m.compute(ctx, q)
}

// tableValue reads a measure's value from a measured table.
func (b *Base) tableValue(m *Measure) error {
	switch m.Table {
	case "memory":
		r, ok := b.memory.Row(m.Row)
		if !ok {
			if nm, missing := b.memory.Missing(m.Row); missing {
				return fmt.Errorf("memory table: %s was never measured (%s): %w", m.Row, nm.Reason, ErrInvalid)
			}
			return fmt.Errorf("memory table has no row %q: %w", m.Row, ErrInvalid)
		}
		switch m.Metric {
		case "bytes_per_key":
			m.Value = r.BytesPerKey
		case "used_memory":
			if r.UsedMemory == 0 {
				return fmt.Errorf("memory table: %s has no used_memory: %w", m.Row, ErrInvalid)
			}
			m.Value = float64(r.UsedMemory)
		default:
			return fmt.Errorf("memory table has no metric %q: %w", m.Metric, ErrInvalid)
		}
		m.Label = r.Label
		return nil
	case "failover-sweep", "failover-engines":
		t := b.sweep
		if m.Table == "failover-engines" {
			t = b.failEngines
		}
		var groups []FailoverGroup
		for _, g := range t.Groups {
			key := g.Engine
			if m.Table == "failover-sweep" {
				key = strconv.Itoa(g.DownAfterMs)
			}
			if m.Row == "all" || m.Row == key {
				groups = append(groups, g)
			}
		}
		if len(groups) == 0 {
			return fmt.Errorf("%s has no row %q: %w", m.Table, m.Row, ErrInvalid)
		}
		return failoverMetric(m, groups)
	case "crossslot":
		if m.Metric != "slot" {
			return fmt.Errorf("crossslot table has no metric %q: %w", m.Metric, ErrInvalid)
		}
		s, ok := b.crossSlot.Slot(m.Row)
		if !ok {
			return fmt.Errorf("crossslot table has no key %q: %w", m.Row, ErrInvalid)
		}
		m.Value = float64(s)
		return nil
	}
	return fmt.Errorf("unknown table %q (memory, failover-sweep, failover-engines, crossslot): %w", m.Table, ErrInvalid)
}

func failoverMetric(m *Measure, groups []FailoverGroup) error {
	switch m.Metric {
	case "median_outage_s", "mean_outage_s":
		if len(groups) != 1 {
			return fmt.Errorf("%s over %d groups: pick one row: %w", m.Metric, len(groups), ErrInvalid)
		}
		m.Value = groups[0].MedianOutageS
		if m.Metric == "mean_outage_s" {
			m.Value = groups[0].MeanOutageS
		}
	case "min_overhead_s":
		m.Value = groups[0].MinOverheadS
		for _, g := range groups {
			m.Value = min(m.Value, g.MinOverheadS)
		}
	case "max_overhead_s":
		m.Value = groups[0].MaxOverheadS
		for _, g := range groups {
			m.Value = max(m.Value, g.MaxOverheadS)
		}
	case "min_first_fail_s", "max_first_fail_s":
		m.Value = groups[0].Reps[0].FirstFailS
		for _, g := range groups {
			for _, r := range g.Reps {
				if m.Metric == "min_first_fail_s" {
					m.Value = min(m.Value, r.FirstFailS)
				} else {
					m.Value = max(m.Value, r.FirstFailS)
				}
			}
		}
	default:
		return fmt.Errorf("failover table has no metric %q: %w", m.Metric, ErrInvalid)
	}
	return nil
}
