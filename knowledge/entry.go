package knowledge

import (
	"fmt"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"strconv"
	"strings"
)

// Entry is the generic view of any entry: what `kb show`, the help text and
// answer sources print.
type Entry struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"` // the id's prefix: term, claim, finding, rule, trap, caveat, engine, session, table, scope, setup, series, failover, conflict
	Title   string   `json:"title"`
	Gist    string   `json:"gist"` // one line
	URL     string   `json:"url"`  // the first source with a URL, or ""
	Text    string   `json:"text"` // the whole entry as Markdown, figures filled in
	SeeAlso []string `json:"see_also,omitempty"`
	Sources []Source `json:"sources"`
	// Aliases are the extra words search matches strongly (term aliases,
	// engine aliases).
	Aliases []string `json:"aliases,omitempty"`
}

// Entry looks any entry up by id.
func (b *Base) Entry(id string) (Entry, bool) {
	i, ok := b.entryByID[id]
	if !ok {
		return Entry{}, false
	}
	return b.entries[i], true
}

// Entries lists every entry, grouped by kind in a fixed order.
func (b *Base) Entries() []Entry { return append([]Entry(nil), b.entries...) }

func firstURL(ss []Source) string {
	for _, s := range ss {
		if s.URL != "" {
			return s.URL
		}
	}
	return ""
}

// doc builds an entry's Markdown text.
type doc struct{ strings.Builder }

func (d *doc) para(s string) {
	if s == "" {
		return
	}
	if d.Len() > 0 {
		d.WriteString("\n\n")
	}
	d.WriteString(s)
}

func (d *doc) field(label, s string) {
	if s != "" {
		d.para("**" + label + ":** " + s)
	}
}

func (d *doc) bullets(label string, items []string) {
	if len(items) == 0 {
		return
	}
	var b strings.Builder
	if label != "" {
		b.WriteString("**" + label + ":**\n")
	}
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + it)
	}
	d.para(b.String())
}

func (d *doc) sources(ss []Source) {
	var items []string
	for _, s := range ss {
		if s.URL != "" {
			items = append(items, s.Title+" — "+s.URL)
		} else {
			items = append(items, s.Title)
		}
	}
	d.bullets("Sources", items)
}

func (d *doc) seeAlso(ids []string) {
	if len(ids) > 0 {
		d.para("**See also:** " + strings.Join(ids, ", "))
	}
}

// measureLines lists computed measures with their conditions and runs.
func measureLines(ms []Measure) []string {
	var out []string
	for _, m := range ms {
		line := fmt.Sprintf("%s: %s — %s", m.Name, formatMeasure(&m, false), MeasureConditions(m))
		if ids := m.RunIDs(); len(ids) > 0 {
			if m.Across == "" {
				line += "; runs " + strings.Join(ids, ", ")
				if more := m.Runs() - len(ids); more > 0 {
					line += fmt.Sprintf(" and %d more", more)
				}
			} else {
				line += fmt.Sprintf("; %d runs", m.Runs())
			}
		}
		if m.Filter != "" {
			line += "; filter `" + m.Filter + "`"
		}
		out = append(out, line)
	}
	return out
}

func figureLines(fs []Figure) []string {
	var out []string
	for _, f := range fs {
		desc := map[string]string{
			"ratio": "%s ÷ %s", "pct": "%s as a share of %s", "more": "how much %s exceeds %s",
			"less": "how much %s falls short of %s", "change": "change from %[2]s to %[1]s",
			"crossover": "first core count where %s beats %s", "keys": "%s × 10 keys per command",
		}[f.Kind]
		if f.Kind == "keys" {
			desc = fmt.Sprintf(desc, f.A)
		} else {
			desc = fmt.Sprintf(desc, f.A, f.B)
		}
		out = append(out, fmt.Sprintf("%s: %s (%s)", f.Name, f.Text, desc))
	}
	return out
}

// buildEntries renders every entry once, after validation.
func (b *Base) buildEntries() {
	add := func(e Entry) {
		if e.URL == "" {
			e.URL = firstURL(e.Sources)
		}
		b.entries = append(b.entries, e)
	}
	for _, t := range b.terms {
		var d doc
		d.para(t.Definition)
		d.field("Effect on the results", t.Why)
		d.field("In this benchmark", t.ValueHere)
		if len(t.Aliases) > 0 {
			d.field("Also called", strings.Join(t.Aliases, ", "))
		}
		d.seeAlso(t.SeeAlso)
		d.sources(t.Sources)
		add(Entry{ID: t.ID, Kind: "term", Title: t.Name, Gist: t.Gist(), Text: d.String(), SeeAlso: t.SeeAlso, Sources: t.Sources, Aliases: t.Aliases})
	}
	for _, c := range b.claims {
		add(Entry{ID: c.ID, Kind: claimKind(c.ID), Title: c.Title, Gist: c.Statement, Text: claimText(c), SeeAlso: c.SeeAlso, Sources: c.Sources})
	}
	for _, f := range b.findings {
		var d doc
		d.para(f.Statement)
		d.bullets("", f.Points)
		d.bullets("Computed from the data", measureLines(f.Measures))
		d.bullets("Derived figures", figureLines(f.Figures))
		d.field("Provenance", provenanceText(f.Provenance))
		d.seeAlso(f.SeeAlso)
		d.sources(f.Sources)
		add(Entry{ID: f.ID, Kind: "finding", Title: f.Title, Gist: firstSentence(f.Statement), Text: d.String(), SeeAlso: f.SeeAlso, Sources: f.Sources})
	}
	for _, r := range b.rules {
		var d doc
		d.para(r.Text)
		d.seeAlso(r.SeeAlso)
		d.sources(r.Sources)
		add(Entry{ID: r.ID, Kind: r.Kind, Title: r.Title, Gist: firstSentence(r.Text), Text: d.String(), SeeAlso: r.SeeAlso, Sources: r.Sources})
	}
	for _, e := range b.engines {
		add(Entry{ID: e.ID, Kind: "engine", Title: e.Name, Gist: engineGist(e), Text: engineText(e), SeeAlso: e.SeeAlso, Sources: e.Sources, Aliases: e.Aliases})
	}
	add(b.engineSummary())
	for _, s := range b.sessions {
		var d doc
		d.para(fmt.Sprintf("%s. Captured %s; client %s. The store holds %d runs in %d cells for it: %s.",
			s.Title, s.Captured, s.Client, s.Runs, s.Cells, b.sessionEngines(s)))
		d.bullets("", s.Points)
		d.seeAlso(s.SeeAlso)
		d.sources(s.Sources)
		add(Entry{ID: s.ID, Kind: "session", Title: s.Title, Gist: firstSentence(s.Title), Text: d.String(), SeeAlso: s.SeeAlso, Sources: s.Sources})
	}
	add(Entry{ID: b.memory.ID, Kind: "table", Title: b.memory.Title, Gist: "Bytes per key for each engine, measured or labelled.", Text: memoryText(b.memory), Sources: b.memory.Sources})
	add(Entry{ID: b.crossSlot.ID, Kind: "table", Title: b.crossSlot.Title, Gist: "Multi-key commands on one Dragonfly process vs a 3-shard Redis Cluster.", Text: crossSlotText(b.crossSlot), Sources: b.crossSlot.Sources})
	add(Entry{ID: b.diagnostics.ID, Kind: "table", Title: b.diagnostics.Title, Gist: "The author's one-off checks, outside the dataset.", Text: diagnosticsText(b.diagnostics), Sources: b.diagnostics.Sources})
	for _, n := range b.notes {
		var d doc
		d.para(n.Summary)
		d.bullets("", n.Points)
		switch n.ID {
		case "failover:sweep":
			d.para(failoverText(b.sweep))
		case "failover:engines":
			d.para(failoverText(b.failEngines))
		}
		d.bullets("Computed from the data", measureLines(n.Measures))
		d.seeAlso(n.SeeAlso)
		d.sources(n.Sources)
		add(Entry{ID: n.ID, Kind: n.Kind, Title: n.Title, Gist: firstSentence(n.Summary), Text: d.String(), SeeAlso: n.SeeAlso, Sources: n.Sources})
	}
	b.entryByID = map[string]int{}
	for i, e := range b.entries {
		b.entryByID[e.ID] = i
	}
}

// sessionEngines lists a session's engines with their run counts.
func (b *Base) sessionEngines(s Session) string {
	var parts []string
	for _, key := range s.Engines {
		if e, ok := b.Engine(key); ok {
			parts = append(parts, fmt.Sprintf("%s %d runs", e.Name, e.Runs))
		}
	}
	return strings.Join(parts, ", ")
}

func provenanceText(p string) string {
	switch p {
	case "measured":
		return "measured (published runs or measured tables)"
	case "blog":
		return "stated by the benchmark's author; no published run behind it"
	case "measured+blog":
		return "measured figures, with some context the author states without a published run (labelled)"
	}
	return p
}

func claimText(c Claim) string {
	var d doc
	d.para(fmt.Sprintf("**Claim — %s:** %s", c.Claimant, c.Statement))
	d.field("Claimant's setup", c.Setup)
	d.field("Claimant's numbers", c.Numbers)
	d.field("Provenance", c.Provenance)
	d.field("What our measurements give", c.Measured)
	d.bullets("Measured counter-figures (computed from the runs)", measureLines(c.Measures))
	d.bullets("Derived figures", figureLines(c.Figures))
	d.field("Claim as structured", fmt.Sprintf("engine %s; version %s; date %s; metric %s; conditions: hardware %s, ratio %s, value size %s, pipeline %s, shape %s",
		c.Engine, c.Version, c.Date, c.Metric, c.Conditions.Hardware, c.Conditions.Ratio, c.Conditions.ValueSize, c.Conditions.Pipeline, c.Conditions.Shape))
	d.field("Comparability", comparabilityText(c))
	d.field("Verdict", c.Verdict)
	d.field("Why the two differ", c.WhyDiffer)
	d.seeAlso(c.SeeAlso)
	d.sources(c.Sources)
	return d.String()
}

// comparabilityText is a claim's comparability rule in one line: its
// status, what a comparable run is and, for a checked claim, the claimed
// figure.
func comparabilityText(c Claim) string {
	r := c.Comparability
	parts := []string{r.Status}
	if r.Series != "" {
		parts = append(parts, "comparable run: "+r.Series)
	}
	if r.Reason != "" {
		parts = append(parts, r.Reason)
	}
	if t := c.ClaimedText(); t != "" {
		parts = append(parts, "claimed "+t)
	}
	return strings.Join(parts, "; ")
}

func engineGist(e Engine) string {
	return fmt.Sprintf("%s %s, by %s, measured in session %d: %s.", e.Name, e.Version, e.Vendor, e.Session, e.Threading)
}

func engineText(e Engine) string {
	var d doc
	d.para(engineGist(e))
	scaling := "a single process spreads over all the cores it is given"
	if e.NeedsCluster {
		scaling = "one process executes on one core, so it was run as a cluster with a shard per core"
	}
	d.field("Scaling", scaling)
	d.field("Modes measured", strings.Join(e.Modes, ", "))
	d.field("Licence", e.Licence)
	d.bullets("Configuration", e.Config)
	d.field("Measured", e.Measured)
	d.field("Runs in the store", fmt.Sprintf("%d runs in %d cells", e.Runs, e.Cells))
	if e.BytesPerKey != nil {
		d.field("Bytes per key", trimFloat(*e.BytesPerKey, 1)+" "+e.MemoryNote)
	} else {
		d.field("Bytes per key", e.MemoryNote)
	}
	d.bullets("Caveats", e.Caveats)
	d.seeAlso(e.SeeAlso)
	d.sources(e.Sources)
	return d.String()
}

func (b *Base) engineSummary() Entry {
	var rows []string
	rows = append(rows, "| Engine | Session | Version | Modes in the runs | Bytes per key | Shards needed | Threads | Maker |", "|---|---|---|---|---|---|---|---|")
	var srcs []Source
	for _, e := range b.engines {
		bpk := "not measured"
		if r, ok := b.memory.Row(e.Key); ok {
			bpk = trimFloat(r.BytesPerKey, 1)
			if r.Label != "" {
				bpk += " (quoted, not measured here)"
			}
		}
		shards := "none: one process"
		if e.NeedsCluster {
			shards = "one per core"
		}
		rows = append(rows, fmt.Sprintf("| %s | %d | %s | %s | %s | %s | %s | %s |", e.Name, e.Session, e.Version, strings.Join(e.Modes, " / "), bpk, shards, e.Threading, e.Vendor))
		srcs = append(srcs, e.Sources...)
	}
	srcs = dedupeSources(srcs)
	var d doc
	d.para("The five engines side by side, as they were tested.")
	d.para(strings.Join(rows, "\n"))
	d.sources(srcs)
	var see []string
	for _, e := range b.engines {
		see = append(see, e.ID)
	}
	return Entry{ID: "engine:summary", Kind: "engine", Title: "Engine summary", Gist: "The five engines side by side.", Text: d.String(), SeeAlso: see, Sources: srcs}
}

func dedupeSources(ss []Source) []Source {
	seen := map[string]bool{}
	var out []Source
	for _, s := range ss {
		k := s.ID + s.Title
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

func memoryText(t MemoryTable) string {
	var d doc
	d.para(fmt.Sprintf("%s. %s keys × %d B values per engine; bytes per key = %s.", t.Title, exactNumber(float64(t.Keys)), t.ValueBytes, strings.TrimPrefix(t.Method, "bytes/key = ")))
	rows := []string{"| Engine | Bytes per key | Memory after loading (bytes) | Distinct keys |", "|---|---:|---:|---:|"}
	for _, r := range t.Rows {
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", analytics.EngineName(r.Engine), trimFloat(r.BytesPerKey, 1), exactNumber(float64(r.UsedMemory)), exactNumber(float64(r.Keys))))
	}
	d.para(strings.Join(rows, "\n"))
	var quoted []string
	for _, r := range t.Quoted {
		quoted = append(quoted, fmt.Sprintf("%s: %s bytes/key — %s", analytics.EngineName(r.Engine), trimFloat(r.BytesPerKey, 1), r.Label))
	}
	d.bullets("Quoted, not measured in this file", quoted)
	var missing []string
	for _, n := range t.NotMeasured {
		missing = append(missing, analytics.EngineName(n.Engine)+": "+n.Reason)
	}
	d.bullets("No figure", missing)
	d.sources(t.Sources)
	return d.String()
}

func crossSlotText(c CrossSlotDemo) string {
	var d doc
	d.para(c.Title + ".")
	for _, s := range c.Systems {
		var items []string
		if len(s.Slots) > 0 {
			var ks []string
			for _, k := range s.Slots {
				ks = append(ks, fmt.Sprintf("%s → slot %d", k.Key, k.Slot))
			}
			items = append(items, "hash slots: "+strings.Join(ks, ", "))
		}
		for _, ch := range s.Checks {
			verdict := "accepted"
			if !ch.Accepted {
				verdict = "rejected"
			}
			items = append(items, fmt.Sprintf("%s: %s (%s)", ch.Command, verdict, ch.Reply))
		}
		d.bullets(s.Name, items)
	}
	d.sources(c.Sources)
	return d.String()
}

func failoverText(t FailoverTable) string {
	head := "| Data nodes | down-after (ms) | outage per kill (s) | median (s) | mean (s) | first failed write (s) | outage − down-after (s) |"
	rows := []string{head, "|---|---:|---|---:|---:|---|---|"}
	for _, g := range t.Groups {
		var outs, ffs, ovs []string
		for _, r := range g.Reps {
			outs = append(outs, fmt.Sprintf("%.2f", r.OutageS))
			ffs = append(ffs, fmt.Sprintf("%.2f", r.FirstFailS))
			ovs = append(ovs, fmt.Sprintf("%.2f", r.OverheadS))
		}
		rows = append(rows, fmt.Sprintf("| %s | %d | %s | %.2f | %.2f | %s | %s |", failoverEngine(g.Engine), g.DownAfterMs,
			strings.Join(outs, " / "), g.MedianOutageS, g.MeanOutageS, strings.Join(ffs, " / "), strings.Join(ovs, " / ")))
	}
	return strings.Join(rows, "\n")
}

func failoverEngine(e string) string {
	switch e {
	case "redis":
		return "Redis 8"
	case "valkey":
		return "Valkey 8"
	}
	return analytics.EngineName(e)
}

func diagnosticsText(t DiagnosticsTable) string {
	var d doc
	d.para(t.Title + ".")
	var items []string
	for _, r := range t.Runs {
		items = append(items, fmt.Sprintf("%s: %s %s, %d cores, %d client threads × %d connections, %d s, SET:GET %s, %d B, pipeline %d — %s ops/s (p50 %s / p99 %s / p99.9 %s ms)",
			r.Label, analytics.EngineName(r.Engine), r.Mode, r.Cores, r.ClientThreads, r.ClientConns, r.TestTimeS, r.Ratio, r.ValueBytes, r.Pipeline,
			strconv.FormatFloat(r.OpsPerSec, 'f', -1, 64), strconv.FormatFloat(r.P50Ms, 'f', -1, 64), strconv.FormatFloat(r.P99Ms, 'f', -1, 64), strconv.FormatFloat(r.P999Ms, 'f', -1, 64)))
	}
	d.bullets("Runs", items)
	d.sources(t.Sources)
	return d.String()
}
