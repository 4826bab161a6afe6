package compose

import (
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// crossSessionCaveat is the caveat of rows from both capture sessions.
const crossSessionCaveat = "This mixes the two capture sessions — session 1 (Dragonfly, Redis, Valkey) and session 2 (KeyDB, Garnet): the same server instance type, but different machines, a different date and a different client box. Treat cross-session gaps as indicative."

// withoutRepeatedCrossSession drops the cross-session caveat's text when
// the plan's note already says it in the body (the entry stays cited).
func withoutRepeatedCrossSession(a *Answer) {
	if slices.Contains(a.Body, planner.CrossSessionNote) {
		a.Caveats = slices.DeleteFunc(a.Caveats, func(c string) bool { return c == crossSessionCaveat })
	}
}

// caveat is one sentence an answer must carry when it applies, with the
// knowledge entry it rests on.
type caveat struct {
	id   string
	text string
}

// rowsFacts summarises what a set of rows involves, for caveats and terms.
type rowsFacts struct {
	engines, modes, ratios []string
	sessions               []int
	valueBytes, pipelines  []int
	singleRun              bool // some row is a single repetition
}

func factsOf(rows []Row) rowsFacts {
	var f rowsFacts
	for _, r := range rows {
		f.engines = addUnique(f.engines, r.Engine)
		f.modes = addUnique(f.modes, r.Mode)
		f.ratios = addUnique(f.ratios, r.Ratio)
		f.sessions = addUnique(f.sessions, r.Session)
		f.valueBytes = addUnique(f.valueBytes, r.ValueBytes)
		f.pipelines = addUnique(f.pipelines, r.Pipeline)
		if r.Reps == 1 {
			f.singleRun = true
		}
	}
	return f
}

func addUnique[T comparable](list []T, v T) []T {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func (f rowsFacts) has(engine string) bool { return slices.Contains(f.engines, engine) }

// caveatsFor lists the caveats that apply to rows read through metric
// (docs/design.md#answers; knowledge/testdata/facts.md §0): Garnet floor, cross-session, realistic vs ceiling,
// 1 KB network-bound, single run, KeyDB's thread wall, client-side latency.
func caveatsFor(rows []Row, metric string) []caveat {
	f := factsOf(rows)
	var cs []caveat
	if f.has("garnet") {
		cs = append(cs, caveat{"caveat:garnet-floor", "Garnet's figures are floors, not its ceiling: the load-generating client ran out of CPU before Garnet did, so read each one as “at least” (client-limited)."})
	}
	if len(f.sessions) > 1 {
		cs = append(cs, caveat{"caveat:cross-session", crossSessionCaveat})
	}
	if f.has("redis") || f.has("valkey") {
		text := "Redis and Valkey ran as clusters, measured two ways: “realistic” (one ordinary cluster-aware client — what an application sees) and the “fully driven ceiling” (one load generator per shard). Each row names its series."
		if !slices.Contains(f.modes, "cluster-sat") {
			text += " Only the realistic series is shown here; the ceiling is a separate series you can ask for."
		} else if !slices.Contains(f.modes, "cluster") {
			text += " Only the ceiling is shown here; an ordinary client sees the much lower realistic series."
		}
		cs = append(cs, caveat{"caveat:cluster-series", text})
	}
	if slices.Contains(f.valueBytes, 1024) {
		cs = append(cs, caveat{"finding:value-size-1kb", "With 1 KB values the network link, not the engine, becomes the limit, so throughput flattens as cores are added."})
	}
	if f.singleRun {
		cs = append(cs, caveat{"caveat:single-rep", "Fully driven ceiling figures come from a single run each; treat their last digits as approximate."})
	}
	if f.has("keydb") {
		cs = append(cs, caveat{"finding:keydb-wall", "KeyDB refuses to start above 16 server threads, so its runs stop at 16 cores — a hard wall, not a measured slowdown."})
	}
	if isLatency(metric) {
		cs = append(cs, caveat{"caveat:client-side-latency", "Latencies are measured at the client (memtier_benchmark), network and queueing included; never compare them with an engine's self-reported latency."})
	}
	return cs
}

// termsFor lists glossary ids an answer over rows and metric uses, most
// relevant first.
func termsFor(rows []Row, metric string) []string {
	f := factsOf(rows)
	var ids []string
	if f.has("garnet") {
		ids = append(ids, "term:client-limited")
	}
	if slices.Contains(f.modes, "cluster") {
		ids = append(ids, "term:realistic")
	}
	if slices.Contains(f.modes, "cluster-sat") {
		ids = append(ids, "term:ceiling")
	}
	switch {
	case isLatency(metric):
		ids = append(ids, "term:latency-percentiles")
	case metric == "ops_per_core":
		ids = append(ids, "term:ops-per-core")
	case metric == "hit_rate":
		ids = append(ids, "term:hit-rate")
	case metric == "kb_per_sec":
		ids = append(ids, "term:kb-per-sec")
	default:
		ids = append(ids, "term:throughput")
	}
	if slices.Contains(f.ratios, "mget10") || slices.Contains(f.ratios, "mset10") {
		ids = append(ids, "term:multi-key")
	}
	ids = append(ids, "term:pipelining", "term:median")
	return ids
}

func isLatency(metric string) bool { return strings.HasSuffix(metric, "_ms") }

// applyCaveatsAndTerms adds caveats and term gists to a and cites them.
func (b *Composer) applyCaveatsAndTerms(a *Answer, s *sourcer, cs []caveat, termIDs []string, maxTerms int) {
	for _, c := range cs {
		a.Caveats = append(a.Caveats, c.text)
		s.entry(c.id)
	}
	for _, id := range termIDs {
		if len(a.Terms) >= maxTerms {
			break
		}
		t, ok := b.cfg.Knowledge.Term(id)
		if !ok || slices.ContainsFunc(a.Terms, func(g TermGist) bool { return g.ID == id }) {
			continue
		}
		a.Terms = append(a.Terms, TermGist{ID: t.ID, Name: t.Name, Gist: t.Gist()})
		s.entry(id)
	}
}
