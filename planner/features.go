package planner

import (
	_ "embed"
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

// newFeatures reads the features table (data/features.txt).
func newFeatures() []feature {
	var out []feature
	for _, block := range strings.Split(featuresTable, "\n== ")[1:] {
		lines := strings.Split(block, "\n")
		f := feature{key: strings.TrimSpace(lines[0])}
		for _, l := range lines[1:] {
			field, value, _ := strings.Cut(l, " ")
			switch field {
			case "match":
				f.re = newRx(value)
			case "phrase":
				f.phrase = value
			case "missing":
				f.missing = value
			case "off":
				f.off = value
			}
		}
		out = append(out, f)
	}
	return out
}

//go:embed data/features.txt
var featuresTable string

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
