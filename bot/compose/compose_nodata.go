package compose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// noDataAnswer says which requested part was never measured (and why,
// where the plan or the knowledge base knows), then lists the nearest
// measured rows with their numbers and run IDs: the plan's nearest cells,
// and the rows of any filter it carries. It gives no other numbers and
// never interpolates; a query whose filters matched no run is refused
// the same way.
func (b *Composer) noDataAnswer(a *Answer, p planner.Plan, rows []Row, s *sourcer) evidence {
	var nearest []Row
	for _, n := range p.Nearest {
		r := RowFromCell(n.Cell)
		r.Differs = append([]string(nil), n.Differs...)
		// Another engine offered as the nearest (Dragonfly's MGET for a
		// Redis MGET question) differs in the engine above all.
		if len(p.Slots.Engines) > 0 && !slices.Contains(p.Slots.Engines, r.Engine) && !slices.Contains(r.Differs, "engine") {
			r.Differs = append([]string{"engine"}, r.Differs...)
		}
		nearest = append(nearest, r)
	}
	// Filters a no_data plan carries select its nearest cells; their rows
	// join the nearest list so every row shown has a filter behind it.
	nearest = dedupeRows(append(nearest, rows...))
	a.Kind, a.Rows, a.Nearest = KindNoData, []Row{}, nearest
	var ev evidence
	switch len(p.Missing) {
	case 0:
		a.Headline = "That combination was never measured, so there is no figure for it."
	case 1:
		m := strings.TrimSuffix(p.Missing[0], ".")
		if l := strings.ToLower(m); strings.Contains(l, "never measured") || strings.Contains(l, "not measured") || strings.Contains(l, "not answered") {
			a.Headline = capitalise(m) + "."
		} else {
			a.Headline = "Never measured: " + m + "."
		}
	default:
		a.Headline = "Never measured, on more than one count:"
		var items []string
		for _, m := range p.Missing {
			items = append(items, capitalise(strings.TrimSuffix(m, "."))+".")
		}
		a.Body = append(a.Body, bullets(items))
	}
	a.Body = append(a.Body, p.Notes...)
	a.Body = append(a.Body, unmeasuredEffects(p.Unmeasured, s)...)
	a.Body = append(a.Body, "Nothing is interpolated or extrapolated between measured combinations.")
	s.entry("caveat:not-measured")
	if len(nearest) > 0 {
		a.Body = append(a.Body, "The nearest measured rows (what differs from the question is named in each row):")
		a.Table = rowsTable(nearest, planMetric(p), true)
		a.Body = append(a.Body, joinSentences(conditionsLine(nearest), repsLine(nearest)))
		ev = evidence{rows: nearest, caveats: caveatsFor(nearest, planMetric(p))}
	}
	switch p.Slots.Metric {
	case "bytes_per_key":
		a.Body = append(a.Body, b.memoryNearest(s))
	case "outage_s":
		a.Body = append(a.Body, b.failoverNearest(s))
	}
	return ev
}

// memoryNearest lists the engines the memory table did measure, for a
// bytes-per-key question about one it did not.
func (b *Composer) memoryNearest(s *sourcer) string {
	t := b.cfg.Knowledge.MemoryTable()
	s.entry(t.ID)
	s.entry("caveat:no-memory")
	return fmt.Sprintf("Measured instead (bytes per key, %s keys of %s values): %s.", formatExact(float64(t.Keys)),
		formatValueBytes(t.ValueBytes), memoryFigures(t.Rows))
}

// failoverNearest lists what the failover lab did measure.
func (b *Composer) failoverNearest(s *sourcer) string {
	var parts []string
	for _, g := range failoverGroups(s, b.cfg.Knowledge.FailoverSweep(), b.cfg.Knowledge.FailoverEngines()) {
		parts = append(parts, failoverFigure(g))
	}
	return "Measured instead (Sentinel failover outage, median of the kills): " + strings.Join(parts, "; ") + "."
}

// settingNames name the server settings every run left off, as an answer
// says them.
var settingNames = map[string]string{
	"persistence": "persistence (RDB/AOF)",
	"replication": "replicas",
	"tls":         "TLS",
	"eviction":    "eviction under memory pressure",
}

// unmeasuredEffects says, without a number, what the never-measured
// settings a question asked for would do (FACTS §1.2, §1.3): persistence,
// replicas, TLS and eviction would lower throughput; other server hardware
// is simply untested. Each sentence cites the scope entries.
func unmeasuredEffects(keys []string, s *sourcer) []string {
	var settings []string
	other := false
	for _, k := range keys {
		if n, ok := settingNames[k]; ok {
			settings = append(settings, n)
		} else if k == "arm" {
			other = true
		}
	}
	var out []string
	if len(settings) > 0 {
		s.entry("scope:absent")
		s.entry("scope:not-measured")
		them := "it"
		if len(settings) > 1 {
			them = "them"
		}
		out = append(out, capitalise(joinAnd(settings))+" would lower throughput: every run left "+them+
			" out, so a setup with "+them+" will see lower numbers than the ones measured here — by an amount this benchmark never measured, so I give no figure for it (scope:absent, scope:not-measured).")
	}
	if other {
		s.entry("scope:not-measured")
		s.entry("setup:hardware")
		out = append(out, "Other server hardware (ARM, an AMD server, virtual machines) was not tested — every run used the Intel server described in setup:hardware — so these runs say nothing about it in either direction (scope:not-measured).")
	}
	return out
}
