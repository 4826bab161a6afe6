package planner

import (
	"slices"
	"strings"
	"sync"
)

// feature is a server setting or platform every run left out (FACTS.md
// §1.2, §1.3): persistence, replicas, TLS and eviction were off, and the
// server was one Intel machine. Asking for one gets no_data with no
// nearest rows — the runs without it are not a stand-in.
type feature struct {
	key     string // "persistence", "replication", "tls", "eviction", "thp", "kubernetes", "arm"
	re      *rx
	phrase  string // how the interpretation names it
	missing string // the sentence a no_data plan carries
	// off says what every run had, for a question that asks for the
	// feature off ("without persistence", "tls off"): the runs' own setup.
	off string
}

func newFeatures() []feature {
	re := newRx
	return []feature{
		// A config line's value ("aof everysec", "appendfsync always") is
		// part of the match: the feature reads it (see readFeatureWords).
		{key: "persistence", re: re(`\b(?:aof|appendfsync|append[- ]?only)(?: (?:yes|no|on|off|everysec|always))?\b|\bpersist(?:ence|ent)\b|\brdb\b|\bfsync\b|\bsnapshott?ing\b|\bdurab(?:le|ility)\b`),
			phrase:  "with persistence (RDB/AOF) on",
			missing: "persistence (RDB/AOF) was never measured — every run had persistence off, so runs with it would be slower by an unmeasured amount",
			off:     "every run had persistence off"},
		{key: "replication", re: re(`\breplica(?:s|tion|ted)?\b|\breplicaof\b|\bprimary/replicas?\b|\bmaster/slaves?\b`),
			phrase:  "with replicas",
			missing: "replication was never measured — every throughput run used one node with no replicas",
			off:     "every throughput run used nodes with no replicas"},
		{key: "tls", re: re(`\btls\b|\bssl\b|\bencrypt(?:ed|ion)\b`),
			phrase:  "with TLS",
			missing: "TLS was never measured — it was off on every engine",
			off:     "TLS was off on every engine"},
		{key: "eviction", re: re(`\bevict(?:ion|ions|ing|ed)?\b|\bmemory pressure\b|\bmaxmemory\b|\blru\b|\blfu\b`),
			phrase:  "under eviction",
			missing: "eviction was never measured — every engine ran noeviction with maxmemory far above the data",
			off:     "every engine ran noeviction with maxmemory far above the data"},
		{key: "thp", re: re(`\btransparent[- ]huge[- ]?pages?\b|\bthp\b|\bhuge ?pages\b`),
			phrase:  "with Transparent Huge Pages on",
			missing: "Transparent Huge Pages on was never measured — THP was off on every run",
			off:     "THP was off on every run"},
		{key: "kubernetes", re: re(`\bk8s\b|\bkubernetes\b|\bhelm\b|\bpods?\b|\bopenshift\b|\beks\b|\bgke\b`),
			phrase:  "on Kubernetes",
			missing: "Kubernetes was never measured — every run used Docker containers pinned to physical cores on one host"},
		{key: "arm", re: re(`\barm(?:64)?\b|\baarch64\b|\bgraviton\d*\b|\bampere\b|\bamd (?:server|epyc)\b|\bepyc server\b`),
			phrase:  "on an ARM or AMD server",
			missing: "other server hardware was never measured — every run used one Intel Xeon Platinum 8488C server (c7i.metal-24xl, 48 physical cores)"},
	}
}

// featuresIn lists the unmeasured settings a question asks for; one it
// asks for only switched off is the runs' own setup (featuresOff).
func (g *grammar) featuresIn(text string) []string {
	var out []string
	for _, f := range g.features {
		if locs := f.re.FindAllStringIndex(text, -1); len(locs) > 0 && !allOff(text, locs) {
			out = append(out, f.key)
		}
	}
	return out
}

// featuresOff lists the features a question says are off ("without
// persistence", "appendonly no", "tls off"), each as written and what
// every run had: the answer is the runs' own, and line 1 says so.
func (g *grammar) featuresOff(text string) (said, had []string) {
	for _, f := range g.features {
		locs := f.re.FindAllStringIndex(text, -1)
		if len(locs) == 0 || f.off == "" || !allOff(text, locs) {
			continue
		}
		for _, l := range locs {
			said = append(said, "“"+offPhrase(text, l)+"”")
		}
		had = append(had, f.off)
	}
	return said, had
}

// allOff reports whether every mention of a feature says it is off: its
// config value is "no" or "off", or a negation stands before or after it
// (the lexicon's negation table: "without", "no", "non-", "disabled").
func allOff(text string, locs [][]int) bool {
	for _, l := range locs {
		if !mentionOff(text, l) {
			return false
		}
	}
	return true
}

func mentionOff(text string, l []int) bool {
	m := text[l[0]:l[1]]
	if strings.HasSuffix(m, " no") || strings.HasSuffix(m, " off") {
		return true
	}
	_, _, negated := negationAround(text, l)
	return negated
}

// offPhrase is a mention said off with its negation ("without tls").
func offPhrase(text string, l []int) string {
	start, end, _ := negationAround(text, l)
	return strings.TrimSpace(text[start:end])
}

// negationAround widens a mention to the negation of the lexicon standing
// just before it ("without tls", "non-persistent") or just after it ("tls
// off"); negated is false, and the span the mention's own, when none does.
func negationAround(text string, l []int) (start, end int, negated bool) {
	start, end = l[0], l[1]
	pre, post := negationPhrases()
	before := strings.Fields(strings.ReplaceAll(text[:l[0]], "-", " "))
	for _, ph := range pre {
		if len(before) >= len(ph) && slices.Equal(before[len(before)-len(ph):], ph) {
			start, negated = max(0, strings.LastIndex(text[:l[0]], ph[0])), true
			break
		}
	}
	after := strings.Fields(text[l[1]:])
	for _, ph := range post {
		if len(after) >= len(ph) && slices.Equal(after[:len(ph)], ph) {
			end, negated = l[1]+strings.Index(text[l[1]:], ph[len(ph)-1])+len(ph[len(ph)-1]), true
			break
		}
	}
	return start, end, negated
}

// negationPhrases are the lexicon's negation table, before and after what
// they negate.
var negationPhrases = sync.OnceValues(func() (pre, post [][]string) { return sidedPhrases(mNegation) })

// featureWords are the words of text the features were read from ("aof
// everysec", "tls off"), for the accounting: a feature asked for makes
// the plan no_data, one said off gives line 1's reading.
func (g *grammar) featureWords(text string) []string {
	var out []string
	for _, f := range g.features {
		for _, l := range f.re.FindAllStringIndex(text, -1) {
			out = append(out, text[l[0]:l[1]])
			if mentionOff(text, l) {
				out = append(out, offPhrase(text, l))
			}
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
