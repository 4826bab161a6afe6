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
		who := enginesWordsNames(engineNames(ss.Engines))
		if has("client") {
			lines = append(lines, "Session "+strconv.Itoa(n)+" ("+who+"): the client machine was an "+strings.TrimPrefix(ss.Client, "an ")+" ("+ss.ID+").")
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
	// The runs' own fields, per query.
	var fields []string
	for _, q := range p.Queries {
		runs, err := b.matchRuns(ctx, q.Filter)
		if err != nil {
			return Answer{}, err
		}
		s.filter(q.Filter)
		if len(runs) == 0 {
			continue
		}
		fields = append(fields, q.Label+": "+runFields(runs, p.Topics))
		for _, r := range runs {
			s.runs(r.ID)
		}
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

// runFields summarises the recorded fields of runs: the distinct test
// times, client threads × connections and repetition numbers.
func runFields(runs []analytics.Run, topics []string) string {
	var times, threads, conns, reps []int
	var batches []string
	for _, r := range runs {
		times = addUnique(times, r.TestTimeS)
		threads = addUnique(threads, r.ClientThreads)
		conns = addUnique(conns, r.ClientConns)
		reps = addUnique(reps, r.Rep)
		batches = append(batches, r.RunID)
	}
	slices.Sort(times)
	slices.Sort(threads)
	slices.Sort(conns)
	var parts []string
	parts = append(parts, "test_time_s "+joinIntsOr(times)+" s")
	parts = append(parts, "client_threads "+joinIntsOr(threads)+", client_conns "+joinIntsOr(conns)+" per thread")
	parts = append(parts, "repetitions numbered up to "+strconv.Itoa(slices.Max(reps)))
	slices.Sort(batches) // then distinct: a linear search per run took minutes over 100K batches
	parts = append(parts, "run_id "+strings.Join(slices.Compact(batches), ", "))
	return strings.Join(parts, "; ")
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
