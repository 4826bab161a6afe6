package knowledge

import (
	"slices"
	"strings"
	"sync"
)

// Base is the loaded, validated knowledge base. It is immutable after Load
// and safe for concurrent use; values it returns share their slices with
// it, so treat them as read-only.
type Base struct {
	contents

	memory      MemoryTable
	crossSlot   CrossSlotDemo
	diagnostics DiagnosticsTable
	sweep       FailoverTable
	failEngines FailoverTable

	aliases   map[string]int // alias key → index in terms
	entries   []Entry
	entryByID map[string]int
	// index is built on the first Search: most processes (ask, serve
	// answering measured questions) never search.
	index     *searchIndex
	indexOnce sync.Once
}

// Term looks a glossary term up by id ("term:pipelining").
func (b *Base) Term(id string) (Term, bool) {
	for _, t := range b.terms {
		if t.ID == id {
			return t, true
		}
	}
	return Term{}, false
}

// Claim looks a claim up by id ("claim:dragonfly-25x").
func (b *Base) Claim(id string) (Claim, bool) {
	for _, c := range b.claims {
		if c.ID == id {
			return c, true
		}
	}
	return Claim{}, false
}

// Finding looks a finding up by id ("finding:headline-48c").
func (b *Base) Finding(id string) (Finding, bool) {
	for _, f := range b.findings {
		if f.ID == id {
			return f, true
		}
	}
	return Finding{}, false
}

// Rule looks a rule, trap or caveat up by id ("rule:same-day-references",
// "trap:cache-misses", "caveat:garnet-floor").
func (b *Base) Rule(id string) (Rule, bool) {
	for _, r := range b.rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Note looks a scope, setup, series, failover or conflict note up by id.
func (b *Base) Note(id string) (Note, bool) {
	for _, n := range b.notes {
		if n.ID == id {
			return n, true
		}
	}
	return Note{}, false
}

// Engine looks an engine up by run key ("keydb"), name ("KeyDB"), id
// ("engine:keydb") or alias, case-insensitively.
func (b *Base) Engine(name string) (Engine, bool) {
	k := aliasKey(name)
	for _, e := range b.engines {
		if k == aliasKey(e.Key) || k == aliasKey(e.Name) || k == aliasKey(e.ID) {
			return e, true
		}
		for _, a := range e.Aliases {
			if k == aliasKey(a) {
				return e, true
			}
		}
	}
	return Engine{}, false
}

// Session returns measurement session n (1 or 2).
func (b *Base) Session(n int) (Session, bool) {
	for _, s := range b.sessions {
		if s.Number == n {
			return s, true
		}
	}
	return Session{}, false
}

// Claims lists claims about an engine and/or topic ("" matches any), in
// data order.
func (b *Base) Claims(engine, topic string) []Claim {
	var out []Claim
	for _, c := range b.claims {
		if (engine == "" || slices.Contains(c.Engines, strings.ToLower(engine))) &&
			(topic == "" || slices.Contains(c.Topics, strings.ToLower(topic))) {
			out = append(out, c)
		}
	}
	return out
}

// Findings lists findings about an engine and/or topic ("" matches any).
func (b *Base) Findings(engine, topic string) []Finding {
	var out []Finding
	for _, f := range b.findings {
		if (engine == "" || slices.Contains(f.Engines, strings.ToLower(engine))) &&
			(topic == "" || slices.Contains(f.Topics, strings.ToLower(topic))) {
			out = append(out, f)
		}
	}
	return out
}

// Terms lists every glossary term (the planner builds its vocabulary from aliases).
func (b *Base) Terms() []Term { return slices.Clone(b.terms) }

// Rules lists every rule, trap and caveat: playbook rules first, then
// traps, then caveats.
func (b *Base) Rules() []Rule { return slices.Clone(b.rules) }

// Engines lists the five engines in the order answers name them.
func (b *Base) Engines() []Engine { return slices.Clone(b.engines) }

// Sessions lists the measurement sessions.
func (b *Base) Sessions() []Session { return slices.Clone(b.sessions) }

// Notes lists the notes of one kind ("scope", "setup", "series",
// "failover", "conflict"); "" lists all.
func (b *Base) Notes(kind string) []Note {
	var out []Note
	for _, n := range b.notes {
		if kind == "" || n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

// Caveats lists the caveats that apply to a situation, in data order.
func (b *Base) Caveats(s Situation) []Rule {
	var out []Rule
	for _, r := range b.rules {
		if r.Kind == "caveat" && r.triggered(s) {
			out = append(out, r)
		}
	}
	return out
}

// MemoryTable is the bytes-per-key measurement, with KeyDB's quoted figure
// (labelled) and the engines never measured.
func (b *Base) MemoryTable() MemoryTable { return b.memory }

// FailoverSweep is the Sentinel failover lab's outage per
// down-after-milliseconds on Redis 8, every repetition kept.
func (b *Base) FailoverSweep() FailoverTable { return b.sweep }

// FailoverEngines is the failover lab's comparison of data-node engines at
// down-after 5000 ms.
func (b *Base) FailoverEngines() FailoverTable { return b.failEngines }

// CrossSlot is the recorded cross-slot behaviour demo.
func (b *Base) CrossSlot() CrossSlotDemo { return b.crossSlot }

// Diagnostics are the author's one-off checks, outside the dataset.
func (b *Base) Diagnostics() DiagnosticsTable { return b.diagnostics }

// Counts returns how many entries of each kind the base holds.
func (b *Base) Counts() map[string]int {
	out := map[string]int{}
	for _, e := range b.entries {
		out[e.Kind]++
	}
	return out
}
