package knowledge

import (
	"fmt"
	"io/fs"
)

func fsRead(fsys fs.FS, name string) ([]byte, error) { return fs.ReadFile(fsys, name) }

// renderAll fills the placeholders of every text field.
func (l *loader) renderAll(b *Base) {
	type table struct {
		ms map[string]*Measure
		fs map[string]*Figure
	}
	tables := map[string]table{}
	add := func(id string, ms []Measure, fs []Figure) {
		t := table{ms: map[string]*Measure{}, fs: map[string]*Figure{}}
		for i := range ms {
			t.ms[ms[i].Name] = &ms[i]
		}
		for i := range fs {
			t.fs[fs[i].Name] = &fs[i]
		}
		tables[id] = t
	}
	for i := range b.claims {
		add(b.claims[i].ID, b.claims[i].Measures, b.claims[i].Figures)
	}
	for i := range b.findings {
		add(b.findings[i].ID, b.findings[i].Measures, b.findings[i].Figures)
	}
	for i := range b.notes {
		add(b.notes[i].ID, b.notes[i].Measures, b.notes[i].Figures)
	}
	global := func(id string) (map[string]*Measure, map[string]*Figure, bool) {
		t, ok := tables[id]
		return t.ms, t.fs, ok
	}
	scopeOf := func(id string) scope {
		t := tables[id]
		return scope{measures: t.ms, figures: t.fs, global: global}
	}
	text := func(id, field string, s *string) {
		out, err := scopeOf(id).render(*s)
		if err != nil {
			l.fail("%s: %s: %w", id, field, err)
			return
		}
		*s = out
	}
	list := func(id, field string, ss []string) {
		for i := range ss {
			text(id, fmt.Sprintf("%s[%d]", field, i), &ss[i])
		}
	}
	for i := range b.terms {
		t := &b.terms[i]
		text(t.ID, "definition", &t.Definition)
		text(t.ID, "why", &t.Why)
		text(t.ID, "value_here", &t.ValueHere)
	}
	for i := range b.claims {
		c := &b.claims[i]
		for _, f := range []struct {
			name string
			s    *string
		}{{"statement", &c.Statement}, {"setup", &c.Setup}, {"numbers", &c.Numbers}, {"provenance", &c.Provenance},
			{"measured", &c.Measured}, {"verdict", &c.Verdict}, {"why_differ", &c.WhyDiffer},
			{"comparability.series", &c.Comparability.Series}, {"comparability.reason", &c.Comparability.Reason}} {
			text(c.ID, f.name, f.s)
		}
	}
	for i := range b.findings {
		f := &b.findings[i]
		text(f.ID, "statement", &f.Statement)
		list(f.ID, "points", f.Points)
	}
	for i := range b.rules {
		text(b.rules[i].ID, "text", &b.rules[i].Text)
	}
	for i := range b.engines {
		e := &b.engines[i]
		text(e.ID, "measured", &e.Measured)
		text(e.ID, "memory_note", &e.MemoryNote)
		list(e.ID, "caveats", e.Caveats)
		list(e.ID, "config", e.Config)
	}
	for i := range b.sessions {
		list(b.sessions[i].ID, "points", b.sessions[i].Points)
	}
	for i := range b.notes {
		n := &b.notes[i]
		text(n.ID, "summary", &n.Summary)
		list(n.ID, "points", n.Points)
	}
}

// resolveSources replaces source ids with their titles and URLs.
func (l *loader) resolveSources(b *Base, byID map[string]Source) {
	resolve := func(id string, ss []Source) {
		if len(ss) == 0 {
			l.fail("%s: no sources: %w", id, ErrInvalid)
		}
		for i := range ss {
			if ss[i].Title != "" {
				continue // given in full
			}
			s, ok := byID[ss[i].ID]
			if !ok {
				l.fail("%s: unknown source %q: %w", id, ss[i].ID, ErrInvalid)
				continue
			}
			ss[i] = s
		}
	}
	for i := range b.terms {
		resolve(b.terms[i].ID, b.terms[i].Sources)
	}
	for i := range b.claims {
		resolve(b.claims[i].ID, b.claims[i].Sources)
	}
	for i := range b.findings {
		resolve(b.findings[i].ID, b.findings[i].Sources)
	}
	for i := range b.rules {
		resolve(b.rules[i].ID, b.rules[i].Sources)
	}
	for i := range b.engines {
		resolve(b.engines[i].ID, b.engines[i].Sources)
	}
	for i := range b.sessions {
		resolve(b.sessions[i].ID, b.sessions[i].Sources)
	}
	for i := range b.notes {
		resolve(b.notes[i].ID, b.notes[i].Sources)
	}
	resolve(b.memory.ID, b.memory.Sources)
	resolve(b.crossSlot.ID, b.crossSlot.Sources)
	resolve(b.diagnostics.ID, b.diagnostics.Sources)
	b.sweep.Sources = b.noteSources("failover:sweep")
	b.failEngines.Sources = b.noteSources("failover:engines")
	if b.sweep.Title = b.noteTitle("failover:sweep"); b.sweep.Title == "" {
		l.fail("failover:sweep: no note describes the sweep table: %w", ErrInvalid)
	}
	if b.failEngines.Title = b.noteTitle("failover:engines"); b.failEngines.Title == "" {
		l.fail("failover:engines: no note describes the engine table: %w", ErrInvalid)
	}
}

func (b *Base) noteSources(id string) []Source {
	for _, n := range b.notes {
		if n.ID == id {
			return n.Sources
		}
	}
	return nil
}

func (b *Base) noteTitle(id string) string {
	for _, n := range b.notes {
		if n.ID == id {
			return n.Title
		}
	}
	return ""
}

// allIDs lists every entry id.
func (b *Base) allIDs() map[string]bool {
	ids := map[string]bool{b.memory.ID: true, b.crossSlot.ID: true, b.diagnostics.ID: true, "engine:summary": true}
	for _, t := range b.terms {
		ids[t.ID] = true
	}
	for _, c := range b.claims {
		ids[c.ID] = true
	}
	for _, f := range b.findings {
		ids[f.ID] = true
	}
	for _, r := range b.rules {
		ids[r.ID] = true
	}
	for _, e := range b.engines {
		ids[e.ID] = true
	}
	for _, s := range b.sessions {
		ids[s.ID] = true
	}
	for _, n := range b.notes {
		ids[n.ID] = true
	}
	return ids
}

// checkSeeAlso reports see-also ids that name no entry.
func (l *loader) checkSeeAlso(b *Base) {
	ids := b.allIDs()
	check := func(id string, see []string) {
		for _, s := range see {
			if !ids[s] {
				l.fail("%s: see_also: unknown id %q: %w", id, s, ErrInvalid)
			}
			if s == id {
				l.fail("%s: see_also names the entry itself: %w", id, ErrInvalid)
			}
		}
	}
	for _, t := range b.terms {
		check(t.ID, t.SeeAlso)
	}
	for _, c := range b.claims {
		check(c.ID, c.SeeAlso)
	}
	for _, f := range b.findings {
		check(f.ID, f.SeeAlso)
	}
	for _, r := range b.rules {
		check(r.ID, r.SeeAlso)
	}
	for _, e := range b.engines {
		check(e.ID, e.SeeAlso)
	}
	for _, s := range b.sessions {
		check(s.ID, s.SeeAlso)
	}
	for _, n := range b.notes {
		check(n.ID, n.SeeAlso)
	}
}
