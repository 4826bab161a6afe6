package planner

import (
	"slices"
	"strings"
)

// feature is a server setting or platform every run left out (FACTS.md
// §1.2, §1.3): persistence, replicas, TLS and eviction were off, and the
// server was one Intel machine. Asking for one gets no_data with no
// nearest rows — the runs without it are not a stand-in.
type feature struct {
	key     string // "persistence", "replication", "tls", "eviction", "arm"
	re      *rx
	phrase  string // how the interpretation names it
	missing string // the sentence a no_data plan carries
}

func newFeatures() []feature {
	re := newRx
	return []feature{
		// A config line's value ("aof everysec", "appendfsync always") is
		// part of the match: the feature reads it (see readFeatureWords).
		{key: "persistence", re: re(`\b(?:aof|appendfsync|append[- ]?only)(?: (?:yes|no|on|off|everysec|always))?\b|\bpersist(?:ence|ent)\b|\brdb\b|\bfsync\b|\bsnapshott?ing\b|\bdurab(?:le|ility)\b`),
			phrase:  "with persistence (RDB/AOF) on",
			missing: "persistence (RDB/AOF) was never measured — every run had persistence off, so runs with it would be slower by an unmeasured amount"},
		{key: "replication", re: re(`\breplica(?:s|tion|ted)?\b|\breplicaof\b|\bprimary/replicas?\b|\bmaster/slaves?\b`),
			phrase:  "with replicas",
			missing: "replication was never measured — every throughput run used one node with no replicas"},
		{key: "tls", re: re(`\btls\b|\bssl\b|\bencrypt(?:ed|ion)\b`),
			phrase:  "with TLS",
			missing: "TLS was never measured — it was off on every engine"},
		{key: "eviction", re: re(`\bevict(?:ion|ions|ing|ed)?\b|\bmemory pressure\b|\bmaxmemory\b|\blru\b|\blfu\b`),
			phrase:  "under eviction",
			missing: "eviction was never measured — every engine ran noeviction with maxmemory far above the data"},
		{key: "arm", re: re(`\barm(?:64)?\b|\baarch64\b|\bgraviton\d*\b|\bampere\b|\bamd (?:server|epyc)\b|\bepyc server\b`),
			phrase:  "on an ARM or AMD server",
			missing: "other server hardware was never measured — every run used one Intel Xeon Platinum 8488C server (c7i.metal-24xl, 48 physical cores)"},
	}
}

// features lists the unmeasured settings a question asks for.
func (g *grammar) featuresIn(text string) []string {
	var out []string
	for _, f := range g.features {
		if f.re.MatchString(text) {
			out = append(out, f.key)
		}
	}
	return out
}

// featureWords are the words of text that the unmeasured features a plan
// names were read from ("aof everysec"), for the accounting.
func (g *grammar) featureWords(text string, keys []string) []string {
	var out []string
	for _, f := range g.features {
		if slices.Contains(keys, f.key) {
			out = append(out, f.re.FindAllString(text, -1)...)
		}
	}
	return out
}

// withFeatures turns a data plan into no_data naming each unmeasured
// setting asked for; the rest of the reading (engines, conditions,
// defaults) stays so the user sees what was understood.
func (p *Planner) withFeatures(pl Plan, keys []string) Plan {
	if pl.Intent == IntentFailover || pl.Requested == IntentFailover {
		keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == "replication" })
	}
	var missing, phrases, unmeasured []string
	for _, f := range p.g.features {
		if slices.Contains(keys, f.key) {
			missing = append(missing, f.missing)
			phrases = append(phrases, f.phrase)
			unmeasured = append(unmeasured, f.key)
		}
	}
	if len(missing) == 0 {
		return pl
	}
	switch pl.Intent {
	case IntentNoData:
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentMemory, IntentFailover:
		pl.Requested, pl.Intent = pl.Intent, IntentNoData
	default:
		return pl
	}
	pl.Missing = append(missing, pl.Missing...)
	pl.Unmeasured = append(unmeasured, pl.Unmeasured...)
	pl.Queries, pl.Nearest, pl.Order = nil, nil, ""
	pl.Interpretation = strings.TrimSuffix(pl.Interpretation, " — not measured") + ", " + joinAnd(phrases) + " — not measured"
	return pl
}
