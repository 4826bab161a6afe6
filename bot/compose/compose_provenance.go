package compose

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// composeProvenance answers where the numbers come from — machines,
// versions, the load tool and its settings, durations, repetitions,
// dates — from the knowledge base (each entry cited) and from the fields
// the runs themselves recorded.
func (b *Composer) composeProvenance(ctx context.Context, p planner.Plan) (Answer, error) {
	k := b.cfg.Knowledge
	s := newSourcer(k)
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	has := func(t string) bool { return slices.Contains(p.Topics, t) }
	var sessions []int
	for _, q := range p.Queries {
		sessions = append(sessions, q.Session)
	}
	var lines []string
	for _, n := range sessions {
		ss, ok := k.Session(n)
		if !ok {
			continue
		}
		s.entry(ss.ID)
		who := enginesWords(ss.Engines)
		if has("client") {
			lines = append(lines, "Session "+strconv.Itoa(n)+" ("+who+"): the client machine was an "+strings.TrimPrefix(ss.Client, "an ")+" ("+ss.ID+").")
		}
		if has("source") {
			// "src of runs-session2-aws.csv?", "which repo?": the published
			// files the runs were imported from, with their addresses.
			var from []string
			for _, src := range ss.Sources {
				if strings.Contains(src.URL, "github.com") && !slices.Contains(from, src.URL) {
					from = append(from, src.URL)
				}
			}
			if len(from) > 0 {
				lines = append(lines, "Session "+strconv.Itoa(n)+" ("+who+"): the runs are the published raw results of "+joinAnd(from)+" ("+ss.ID+").")
			}
		}
		if has("dates") {
			lines = append(lines, "Session "+strconv.Itoa(n)+" ("+who+") was captured "+ss.Captured+" ("+ss.ID+").")
		}
	}
	if has("versions") {
		// "what version of valkey was tested": the engine's own version
		// first, from its entry.
		var tested, ids []string
		for _, e := range b.cfg.Knowledge.Engines() {
			if slices.Contains(p.Slots.Engines, e.Key) && e.Version != "" {
				tested = append(tested, e.Name+" "+e.Version+" (session "+strconv.Itoa(e.Session)+")")
				ids = append(ids, e.ID)
				s.entry(e.ID)
			}
		}
		switch len(tested) {
		case 0:
		case 1:
			lines = append(lines, tested[0]+" was the version tested ("+ids[0]+").")
		default:
			lines = append(lines, joinAnd(tested)+" were the versions tested ("+strings.Join(ids, ", ")+").")
		}
	}
	note := func(id string, ok bool) {
		if !ok {
			return
		}
		if n, found := k.Note(id); found {
			lines = append(lines, n.Summary+" ("+id+")")
			s.entry(id)
		}
	}
	note("setup:hardware", has("server"))
	note("setup:software", has("versions"))
	note("setup:workload", has("tool") || has("duration") || has("repetitions"))
	if t, ok := k.Term("term:shard"); ok && has("config") && t.ValueHere != "" {
		// "how many shards", "how was the cluster set up": one shard per
		// core answers first, the posture every engine shared after it.
		lines = append(lines, "Shards: "+t.ValueHere+" (term:shard)")
		s.entry(t.ID)
	}
	note("setup:engine-config", has("config"))
	// The runs' own fields, per query, tallied where the runs are kept.
	var fields []string
	for _, q := range p.Queries {
		t, err := b.tallyRuns(ctx, q.Filter, analytics.RunTally{Fields: provenanceFields, IDs: maxProvenanceRunIDs})
		if err != nil {
			return Answer{}, err
		}
		s.filter(q.Filter)
		if t.Runs == 0 {
			continue
		}
		fields = append(fields, q.Label+": "+runFields(t, q.Filter))
		s.runs(t.IDs...)
		s.unnamed(q.Filter, t.Runs-len(t.IDs))
	}
	if len(lines) == 0 && len(fields) == 0 {
		a.Headline = "The knowledge base has no entry on that part of the setup."
		a.PlainWords = "Ask about the machines, versions, load tool, durations, repetitions or dates."
		a.Sources = s.sources()
		return a, nil
	}
	if len(lines) > 0 {
		a.Headline = lines[0]
		a.Body = append(a.Body, lines[1:]...)
	} else {
		a.Headline = fields[0]
		fields = fields[1:]
	}
	if len(fields) > 0 {
		a.Body = append(a.Body, "What the runs themselves recorded (their own fields):\n"+bullets(fields))
	}
	a.PlainWords = "These are the recorded facts of how the runs were made; they come from the benchmark's own notes and data, cited above and below."
	a.Sources = s.sources()
	return a, nil
}

// provenanceFields are the runs' own fields a provenance answer reports.
var provenanceFields = []string{"test_time_s", "client_threads", "client_conns", "rep", "run_id"}

// maxProvenanceRunIDs bounds the run IDs a provenance answer names per
// filter (the first in ID order; each embedded session's runs fit whole):
// a store of 1M runs named every one, a 66 MB reply. Past it the answer
// gives the count and the command that lists them all.
const maxProvenanceRunIDs = 500

// maxProvenanceBatches bounds the run_id batches a provenance answer
// names per filter (the first in order), for the same reason.
const maxProvenanceBatches = 10

// runFields summarises the recorded fields of the runs a filter matched:
// the distinct test times, client threads × connections, repetition
// numbers and run_id batches, and, when there are more runs than the
// answer names, how many and how to list them.
func runFields(t analytics.TalliedRuns, filter string) string {
	ints := func(field string) []int {
		var out []int
		for _, v := range t.Values[field] {
			out = append(out, v.Number)
		}
		return out
	}
	var parts []string
	parts = append(parts, "test_time_s "+joinIntsOr(ints("test_time_s"))+" s")
	parts = append(parts, "client_threads "+joinIntsOr(ints("client_threads"))+", client_conns "+joinIntsOr(ints("client_conns"))+" per thread")
	parts = append(parts, "repetitions numbered up to "+strconv.Itoa(slices.Max(ints("rep"))))
	var batches []string
	for _, v := range t.Values["run_id"] {
		batches = append(batches, v.Value)
	}
	shown := batches[:min(len(batches), maxProvenanceBatches)]
	batchWords := "run_id " + strings.Join(shown, ", ")
	if more := len(batches) - len(shown); more > 0 {
		batchWords += " and " + formatExact(float64(more)) + " more (" + formatExact(float64(len(batches))) + " batches)"
	}
	parts = append(parts, batchWords)
	if t.Runs > len(t.IDs) {
		parts = append(parts, formatExact(float64(t.Runs))+" runs, the first "+strconv.Itoa(len(t.IDs))+" by ID named in the sources; `memdb-oracle runs "+shellQuoted(filter)+"` lists every one")
	}
	return strings.Join(parts, "; ")
}

// shellQuoted quotes a filter for a POSIX shell, as the runs command
// takes it.
func shellQuoted(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func joinIntsOr(ns []int) string {
	var out []string
	for _, n := range ns {
		out = append(out, strconv.Itoa(n))
	}
	return strings.Join(out, " or ")
}

func engineNames(keys []string) []string {
	var out []string
	for _, k := range keys {
		out = append(out, analytics.EngineName(k))
	}
	return out
}
