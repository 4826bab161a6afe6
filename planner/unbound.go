package planner

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A first detector of unbound words: phrases that name a workload mix, a
// value size, pipelining or a metric, checked against the slots the plan
// bound and the defaults it applied. A phrase whose meaning the plan
// already carries (bound by the rules, or equal to the default) is fine;
// one that asks for something else while a default stood in its place is
// unbound. The reader's own tagged tokens are meant to replace this list.

// unboundFamily is one meaning a group of phrases asks for.
type unboundFamily struct {
	slot    string         // the plan slot (JSON name) the phrases set
	phrases *regexp.Regexp // case-insensitive, whole words
	// agrees reports whether the plan's value already says what the
	// phrases ask for.
	agrees func(Slots) bool
	// status says, against the measured values of the plan's engines,
	// whether what the phrases ask for was measured.
	status func(applied Slots, m measuredValues) string
}

// measuredValues are the knob values measured for the plan's engines.
type measuredValues struct {
	ratios    []string
	values    []int
	pipelines []int
}

// unboundFinding is one phrase the plan left unbound.
type unboundFinding struct {
	words  string
	family *unboundFamily
}

// unboundLexicon is the detector's vocabulary, compiled once per process.
type unboundLexicon struct {
	families []unboundFamily
	// gates hold, per family, literals every match of its phrases
	// contains, in lower case: a question (in ASCII) lacking them is not
	// searched for that family.
	gates []gate
	// words match, per family, the phrases in an ASCII question lower-cased
	// without the regexp (nil where the phrases take another shape).
	words []*wordSet
}

// phraseHit is what one family's phrases matched in a question: the first
// match's words.
type phraseHit struct {
	family *unboundFamily
	words  string
}

func phrases(alternatives ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(alternatives, "|") + `)\b`)
}

func newUnboundLexicon() *unboundLexicon {
	ratio := func(r string, words ...string) unboundFamily {
		return unboundFamily{slot: slotRatio, phrases: phrases(words...),
			agrees: func(s Slots) bool { return s.Ratio == r },
			status: func(_ Slots, m measuredValues) string {
				if slices.Contains(m.ratios, r) {
					return ratioName(r) + " was measured too"
				}
				return ratioName(r) + " was never measured"
			}}
	}
	valueDirection := func(larger bool, words ...string) unboundFamily {
		return unboundFamily{slot: slotValue, phrases: phrases(words...),
			agrees: func(Slots) bool { return false }, // only a default reaches here: it is the smallest or the usual size
			status: func(s Slots, m measuredValues) string {
				var other []string
				for _, v := range m.values {
					if larger && v > s.ValueBytes || !larger && v < s.ValueBytes {
						other = append(other, valueShort(v))
					}
				}
				switch {
				case len(other) > 0:
					return joinAnd(other) + " values were measured too"
				case larger:
					return "nothing larger was measured"
				}
				return "nothing smaller was measured"
			}}
	}
	depth := func(agrees func(int) bool, wanted func(int) bool, never string, words ...string) unboundFamily {
		return unboundFamily{slot: slotPipeline, phrases: phrases(words...),
			agrees: func(s Slots) bool { return agrees(s.Pipeline) },
			status: func(s Slots, m measuredValues) string {
				var other []string
				for _, p := range m.pipelines {
					if wanted(p) && p != s.Pipeline {
						other = append(other, fmt.Sprintf("pipeline %d", p))
					}
				}
				if len(other) > 0 {
					return joinAnd(other) + " was measured too"
				}
				return never + " was never measured"
			}}
	}
	metric := func(names []string, shown string, words ...string) unboundFamily {
		return unboundFamily{slot: "metric", phrases: phrases(words...),
			agrees: func(s Slots) bool { return slices.Contains(names, s.Metric) },
			status: func(Slots, measuredValues) string { return shown + " was measured too" }}
	}
	l := &unboundLexicon{families: []unboundFamily{
		ratio("1:1", `mixed (?:reads and writes|read/write|workload|traffic)`, `50/50`, `50-50`, `half reads`, `half writes`,
			`as many writes as reads`, `equal(?:ly)? (?:reads and writes|read and write)`, `balanced (?:reads and writes|read/write|workload)`),
		ratio("10:1", `heavy (?:on )?writ(?:es|ing)`, `write[- ]?heavy`, `writes?[- ]intensive`, `write[- ]mostly`, `mostly (?:writes|sets)`,
			`(?:lots|a lot) of writes`, `many writes`, `more writes than reads`, `writes? dominated`, `set[- ]heavy`, `frequent writes`),
		ratio("1:10", `read[- ]?heavy`, `mostly reads`, `heavy reads`, `read[- ]mostly`, `mostly gets`, `more reads than writes`),
		ratio("mget10", `batched reads`, `batch reads`, `multi[- ]?gets?`, `multi[- ]key reads`, `bulk reads`),
		ratio("mset10", `batched writes`, `batch writes`, `multi[- ]?sets?`, `multi[- ]key writes`, `bulk (?:writes|inserts|loads?)`),
		valueDirection(true, `(?:large|big|bigger|larger|huge|fat|heavy) (?:values|payloads|objects|blobs|items|records|documents|keys)`,
			`kilobyte[- ]sized? values`),
		valueDirection(false, `(?:small|tiny|smaller|short|little) (?:values|payloads|objects|blobs|items|records)`),
		depth(func(p int) bool { return p == 1 }, func(p int) bool { return p == 1 }, "pipeline 1 (no pipelining)",
			`no pipelining`, `without (?:any )?pipelining`, `unpipelined`, `non[- ]pipelined`, `not pipelined`, `pipelining (?:off|disabled)`,
			`one (?:request|command) at a time`, `without batching`, `no batching`, `sequential (?:requests|commands)`),
		depth(func(p int) bool { return p > 1 }, func(p int) bool { return p > 1 }, "a pipeline deeper than 1",
			`pipelined`, `with pipelining`, `pipelining (?:on|enabled)`, `batched commands`),
		depth(func(p int) bool { return p > 16 }, func(p int) bool { return p > 16 }, "a deeper pipeline",
			`deep(?:er)? pipelin(?:es?|ing)`, `long(?:er)? pipelines?`, `heavy pipelining`, `lots of pipelining`),
		metric([]string{"p50_ms", "p99_ms", "p999_ms"}, "latency (p50, p99, p99.9)",
			`latenc(?:y|ies)`, `tail latency`, `response times?`, `p99(?:\.9)?`, `p50`),
		metric([]string{"kb_per_sec"}, "network throughput (KB/s)", `bandwidth`, `network throughput`, `kb/s`),
		metric([]string{"ops_per_sec", "ops_per_core"}, "throughput (ops/s)",
			`throughput`, `ops/s(?:ec)?`, `ops per second`, `qps`, `requests per second`),
		metric([]string{"hit_rate"}, "the hit rate", `hit (?:rate|ratio)`, `cache hits`),
	}}
	for _, f := range l.families {
		var g gate
		var ws *wordSet
		src := strings.TrimPrefix(f.phrases.String(), "(?i)")
		if re, err := syntax.Parse(src, syntax.Perl); err == nil {
			re = re.Simplify()
			g = rarestFirst(required(re))
			if strings.ToLower(src) == src {
				ws = newWordSet(re, 0) // over lower-cased text, as (?i) reads ASCII
			}
		}
		l.gates = append(l.gates, g)
		l.words = append(l.words, ws)
	}
	return l
}

// scan finds each family's phrases in the question, in family order; each
// match is blanked for the families after it, so "not pipelined" is read
// once, as no pipelining, and "network throughput" is not also throughput.
func (l *unboundLexicon) scan(question string) []phraseHit {
	lower, ascii := asciiLower(question)
	rest, restLower := []byte(question), []byte(lower)
	var out []phraseHit
	for i := range l.families {
		f := &l.families[i]
		if ascii && !l.gates[i].admits(lower) {
			continue
		}
		var locs [][]int
		if ascii && l.words[i] != nil {
			locs = l.words[i].findAll(string(restLower), -1, false)
		} else {
			locs = f.phrases.FindAllIndex(rest, -1)
		}
		if len(locs) == 0 {
			continue
		}
		out = append(out, phraseHit{family: f, words: string(rest[locs[0][0]:locs[0][1]])})
		for _, loc := range locs {
			for j := loc[0]; j < loc[1]; j++ {
				rest[j], restLower[j] = ' ', ' '
			}
		}
	}
	return out
}

// asciiLower lower-cases ASCII letters; ascii is false when the text holds
// other bytes (case folding may then match letters outside ASCII, and
// the gates are not used).
func asciiLower(s string) (lower string, ascii bool) {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= utf8.RuneSelf:
			return s, false
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b), true
}

// unboundIntents are the plans whose answers depend on the workload,
// value size, pipeline and metric slots.
func unboundIntents() []Intent {
	return []Intent{IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentNoData, IntentRecommend, IntentSearch, IntentSpread}
}

// unbound lists the phrases of the question (its scan, hits) that ask for
// a workload, value size, pipeline depth or metric the plan does not carry
// because a default stood in their place.
func unbound(hits []phraseHit, pl Plan) []unboundFinding {
	if !slices.Contains(unboundIntents(), pl.Intent) {
		return nil
	}
	var out []unboundFinding
	for _, h := range hits {
		f := h.family
		switch {
		case !slices.Contains(pl.Defaulted, f.slot) && !slices.Contains(pl.Inherited, f.slot), pl.Slots.Knob == f.slot, f.agrees(pl.Slots):
			continue // bound by the rules, varied by the plan, or already what the words ask for
		case slices.ContainsFunc(out, func(u unboundFinding) bool { return u.family.slot == f.slot }):
			continue // one statement per slot
		}
		out = append(out, unboundFinding{words: h.words, family: f})
	}
	return out
}

// unboundIn is unbound for the plan's question, scanned once per call.
func (p *Planner) unboundIn(pl Plan) []unboundFinding {
	if !slices.Contains(unboundIntents(), pl.Intent) {
		return nil
	}
	return unbound(p.phraseHits(pl.Question), pl)
}

// unboundReading is the sentence an answer opens with for the plan's
// unbound words: the reading applied instead of each phrase the detector
// knows, and whether what it asks for was measured for the plan's engines;
// words only the reader flagged are named as not read. It stays short: the
// answer's verdict follows on the same line.
func (p *Planner) unboundReading(pl Plan) string {
	if len(pl.Unbound) == 0 {
		return ""
	}
	found := p.unboundIn(pl)
	m := p.measuredFor(pl.Slots.Engines)
	var parts, unread []string
	for _, u := range found {
		parts = append(parts, "Read as "+appliedPhrase(u.family.slot, pl.Slots)+" — the question mentioned "+u.words+": "+u.family.status(pl.Slots, m))
	}
	for _, w := range pl.Unbound {
		if !slices.ContainsFunc(found, func(u unboundFinding) bool { return strings.EqualFold(u.words, w) }) {
			unread = append(unread, w)
		}
	}
	if len(unread) > 0 {
		parts = append(parts, "Read with the defaults — the question mentioned "+joinAnd(unread)+", not read as any setting")
	}
	return strings.Join(parts, "; ")
}

// appliedPhrase names the value a default gave a slot.
func appliedPhrase(slot string, s Slots) string {
	switch slot {
	case slotRatio:
		switch s.Ratio {
		case "1:10":
			return "read-heavy 1:10"
		case "1:1":
			return "mixed 1:1"
		}
		return ratioName(s.Ratio)
	case slotValue:
		return valueShort(s.ValueBytes) + " values"
	case slotPipeline:
		if s.Pipeline == 1 {
			return "pipeline 1 (no pipelining)"
		}
		return fmt.Sprintf("pipeline %d", s.Pipeline)
	}
	if s.Metric == "" {
		return metricPhrase("ops_per_sec")
	}
	return metricPhrase(s.Metric)
}

// ratioName names a workload without its gloss: "SET:GET 10:1", "MGET of
// 10 keys".
func ratioName(r string) string {
	if strings.Contains(r, ":") {
		return "SET:GET " + r
	}
	return ratioPhrase(r)
}

// measuredFor gathers the knob values measured for the engines (all
// engines when none are named).
func (p *Planner) measuredFor(engines []string) measuredValues {
	var m measuredValues
	for _, c := range p.coverage() {
		if len(engines) > 0 && !slices.Contains(engines, c.Engine) {
			continue
		}
		for _, r := range c.Ratios {
			m.ratios = appendUnique(m.ratios, r)
		}
		for _, v := range c.ValueBytes {
			if !slices.Contains(m.values, v) {
				m.values = append(m.values, v)
			}
		}
		for _, d := range c.Pipelines {
			if !slices.Contains(m.pipelines, d) {
				m.pipelines = append(m.pipelines, d)
			}
		}
	}
	slices.SortFunc(m.ratios, func(a, b string) int { return ratioRank(a) - ratioRank(b) })
	slices.Sort(m.values)
	slices.Sort(m.pipelines)
	return m
}

// markUnbound adds the detector's phrases to the words the reader left
// unbound. Words that are not in this question (a "why?" copies the
// previous plan) are dropped, and so is a reading written for another
// plan.
func (p *Planner) markUnbound(pl *Plan) {
	pl.UnboundReading = ""
	var words []string
	for _, w := range pl.Unbound {
		if strings.Contains(strings.ToLower(pl.Question), strings.ToLower(w)) {
			words = append(words, w)
		}
	}
	for _, u := range p.unboundIn(*pl) {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(w, u.words) }) {
			words = append(words, u.words)
		}
	}
	pl.Unbound = words
}
