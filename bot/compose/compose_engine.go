package compose

import (
	"context"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// composeEngine describes one engine from its knowledge-base entry
// (Slots.TermID "engine:valkey"): vendor, version tested and session,
// threading, how it was run, the series measured, bytes per key, caveats
// and links. Its measured headline comes only from the plan's queries, so
// every figure carries its conditions, filter and run IDs; the entry's own
// sentence of figures is left out rather than shown without them.
func (b *Composer) composeEngine(ctx context.Context, p planner.Plan) (Answer, error) {
	e, ok := b.cfg.Knowledge.Engine(p.Slots.TermID)
	if !ok {
		a := composeClarify(p)
		a.Headline = "That engine is not in the knowledge base, so I won't describe it from memory."
		return a, nil
	}
	rows, _, s, err := b.runQueries(ctx, p.Queries)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Kind: KindDefinition, Interpretation: p.Interpretation, Rows: rows, Nearest: []Row{},
		Headline: e.Name}
	a.Body = append(a.Body, e.Name+" "+e.Version+", by "+e.Vendor+", measured in session "+strconv.Itoa(e.Session)+": "+ensureStop(e.Threading))
	run := "a single process spreads over all the cores it is given."
	if e.NeedsCluster {
		run = "one process executes on one core, so it was run as a cluster with a shard per core."
	}
	a.Body = append(a.Body, "**How it was run:** "+run)
	var series []string
	for _, m := range e.Modes {
		series = append(series, analytics.SeriesName(e.Key, m))
	}
	a.Body = append(a.Body, "**Series measured:** "+strings.Join(series, "; ")+".")
	if g := withoutFigures(e.Measured); g != "" {
		a.Body = append(a.Body, "**What was measured:** "+g)
	}
	if len(rows) > 0 {
		metric := planMetric(p)
		head, plain := lookupText(rows, metric)
		how := joinSentences(conditionsLine(rows), repsLine(rows))
		if len(rows) == 1 {
			how = conditionsLine(rows) // the headline already says how the figure was formed
		}
		a.Body = append(a.Body, "**Measured headline:** "+head+" "+how)
		a.Table = rowsTable(rows, metric, false)
		a.PlainWords = capitalise(plain)
		b.applyCaveatsAndTerms(&a, s, caveatsFor(rows, metric), termsFor(rows, metric), 2)
		s.rows(rows)
	}
	if line := b.engineMemory(e, s); line != "" {
		a.Body = append(a.Body, line)
	}
	if e.Licence != "" {
		a.Body = append(a.Body, "**Licence:** "+ensureStop(e.Licence))
	}
	var links []string
	for _, src := range e.Sources {
		if src.URL != "" {
			links = append(links, src.Title+" — "+src.URL)
		}
	}
	if len(links) > 0 {
		a.Body = append(a.Body, "**Links:**\n"+bullets(links))
	}
	a.Caveats = append(append([]string(nil), e.Caveats...), a.Caveats...)
	a.Body = append(a.Body, p.Notes...)
	a.Body = append(a.Body, "_Everything in this answer is from the knowledge base's entry "+e.ID+" and the measured runs in the sources; nothing is added from general knowledge._")
	src := s.sources()
	// The engine's own entry is the first source.
	if ent, ok := lookupEntry(b.cfg.Knowledge, e.ID); ok {
		src.Entries = append([]SourceEntry{ent}, src.Entries...)
	}
	a.Sources = src
	return a, nil
}

// engineMemory is the engine's bytes-per-key line: the measured table's
// figure (cited), a labelled quote, or why there is none.
func (b *Composer) engineMemory(e knowledge.Engine, s *sourcer) string {
	switch {
	case e.BytesPerKey != nil:
		s.entry(b.cfg.Knowledge.MemoryTable().ID)
		return "**Bytes per key:** " + trimZeros(strconv.FormatFloat(*e.BytesPerKey, 'f', 1, 64)) + " " + e.MemoryNote
	case e.MemoryNote != "":
		return "**Bytes per key:** " + e.MemoryNote
	}
	return ""
}

// withoutFigures keeps the clauses of an entry's "measured" sentence that
// hold no figure (the grid of what was run), dropping those that state
// throughput without conditions and run IDs.
func withoutFigures(s string) string {
	var sentences []string
	for _, sent := range strings.SplitAfter(s, ". ") {
		var clauses []string
		for _, c := range strings.Split(strings.TrimSpace(sent), "; ") {
			if strings.Contains(c, "ops/s") || strings.Contains(c, "bytes/key") {
				continue
			}
			clauses = append(clauses, strings.TrimSuffix(c, "."))
		}
		if len(clauses) > 0 {
			sentences = append(sentences, strings.Join(clauses, "; ")+".")
		}
	}
	return strings.Join(sentences, " ")
}
