package planner

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// meaning is the type of what a tagged token stands for.
type meaning uint8

// The meanings the lexicon knows. Each has one table of synonyms below.
const (
	mEngine     meaning = iota + 1 // value: engine key ("dragonfly")
	mMode                          // value: mode ("single", "cluster", "cluster-sat")
	mSetting                       // value: the setting a word names ("pipeline", "cluster", "value_bytes", "cores", "ratio")
	mWorkload                      // value: a ratio in filter vocabulary ("1:10", "mget10")
	mMetric                        // value: metric ("ops_per_sec", "p99_ms")
	mNegation                      // value: "pre" (negates what follows) or "post" (negates what precedes)
	mRelation                      // value: relation ("crossover", "effect", "gap", "compare")
	mKind                          // value: the kind of answer asked ("define", "method")
	mClaimant                      // value: claim id the words select
	mDomain                        // value: "" — a benchmark word that is neither slot nor relation
	mChatter                       // value: "" — a word that asks nothing ("thanks", "lol")
	mPolite                        // value: "" — a word that changes nothing ("please", "hey bot")
	mUnit                          // value: the quantity a unit measures ("keys_per_sec")
	mFollowUp                      // value: "" — asks to go on with the thread ("tell me more")
	mFailover                      // value: "" — the failover event in other words ("the primary dies")
	mHelp                          // value: "" — asks what the bot can do ("usage?", "halp")
	mClaimTopic                    // value: claim id the content of the words points to ("memory efficiency")
	mDataset                       // value: a measured table other than the runs ("crossslot", "diagnostics")
	mHedge                         // value: "pre" (loosens the number after it) or "post" (the number before it)
)

// entry is one synonym: a phrase (words separated by spaces, as the
// tokenizer splits them) and the value it stands for.
type entry struct {
	phrase, value string
}

// table is the synonyms of one meaning. Adding a synonym is one line.
type table struct {
	meaning meaning
	entries []entry
	// crossed marks a table built by crossing patterns with words, which
	// help shows by one example per value.
	crossed bool
}

// lexiconText is the reader's vocabulary, one table per meaning: data, so
// a synonym is one line of planner/data/lexicon.txt, not code.
//
//go:embed data/lexicon.txt
var lexiconText string

// meaningNames are the table names lexicon.txt uses.
var meaningNames = map[string]meaning{
	"engine": mEngine, "mode": mMode, "setting": mSetting, "workload": mWorkload, "metric": mMetric,
	"negation": mNegation, "relation": mRelation, "kind": mKind, "claimant": mClaimant, "domain": mDomain,
	"chatter": mChatter, "polite": mPolite, "unit": mUnit, "followup": mFollowUp, "failover": mFailover,
	"help": mHelp, "claimtopic": mClaimTopic, "dataset": mDataset, "hedge": mHedge,
}

// generatedTables are the tables built by crossing patterns with words.
var generatedTables = map[string]func() []entry{
	"mixPhrases": mixPhrases, "multiKeyPhrases": multiKeyPhrases, "failoverPhrases": failoverPhrases,
}

// lexiconTables is the vocabulary of the reader, one table per meaning,
// in the file's order. help lists the engine, metric and workload tables
// (Vocabulary); the glossary terms and claims come from the knowledge
// base at New. The file is part of the binary, so a mistake in it is a
// programming error: it panics at the first New, which every test does.
func lexiconTables() []table {
	var out []table
	for n, line := range strings.Split(lexiconText, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			f := strings.Fields(line[3:])
			m, ok := meaningNames[f[0]]
			if !ok || len(f) != 1 && (len(f) != 3 || f[1] != "generated" || generatedTables[f[2]] == nil) {
				panic(fmt.Sprintf("data/lexicon.txt:%d: bad table header %q", n+1, line))
			}
			t := table{meaning: m}
			if len(f) == 3 {
				t.entries, t.crossed = generatedTables[f[2]](), true
			}
			out = append(out, t)
		default:
			phrase, value, ok := strings.Cut(line, "=>")
			if !ok || len(out) == 0 || out[len(out)-1].crossed {
				panic(fmt.Sprintf("data/lexicon.txt:%d: want PHRASE => VALUE under a table, got %q", n+1, line))
			}
			t := &out[len(out)-1]
			t.entries = append(t.entries, entry{strings.TrimSpace(phrase), strings.TrimSpace(value)})
		}
	}
	return out
}

// fillMix spells a mix pattern: each "R" the read word, each "W" the write
// word (a strings.Replacer built per phrase made the lexicon cost
// milliseconds at start).
func fillMix(form, r, w string) string {
	var b strings.Builder
	for i := 0; i < len(form); i++ {
		switch form[i] {
		case 'R':
			b.WriteString(r)
		case 'W':
			b.WriteString(w)
		default:
			b.WriteByte(form[i])
		}
	}
	return b.String()
}

// mixPhrases are the ways of saying a read/write mix in words: every read
// word crossed with every write word in each pattern of a mix ("equal
// sets and gets", "as many writes as reads", "10 gets per set").
func mixPhrases() []entry {
	reads := []string{"reads", "gets", "read", "get", "lookups"}
	writes := []string{"writes", "sets", "write", "set", "updates"}
	patterns := []struct{ form, ratio string }{
		{"equal R and W", "1:1"}, {"equal W and R", "1:1"}, {"equal numbers of R and W", "1:1"}, {"equal numbers of W and R", "1:1"},
		{"equal number of R and W", "1:1"}, {"equal number of W and R", "1:1"}, {"as many R as W", "1:1"}, {"as many W as R", "1:1"},
		{"half R half W", "1:1"}, {"half W half R", "1:1"}, {"half R and half W", "1:1"}, {"half W and half R", "1:1"},
		{"half R , half W", "1:1"}, {"half W , half R", "1:1"}, {"same number of R and W", "1:1"}, {"same number of W and R", "1:1"},
		{"equal amounts of R and W", "1:1"}, {"equal amounts of W and R", "1:1"}, {"equal amount of R and W", "1:1"},
		{"same amounts of R and W", "1:1"}, {"equal R W", "1:1"}, {"equal R / W", "1:1"}, {"equal W R", "1:1"}, {"equal W / R", "1:1"}, {"same amount of R and W", "1:1"}, {"same amount of W and R", "1:1"}, {"R and W equally", "1:1"}, {"W and R equally", "1:1"},
		{"1 R per W", "1:1"}, {"1 W per R", "1:1"}, {"1 R for every W", "1:1"}, {"1 W for every R", "1:1"},
		{"50 % R", "1:1"}, {"50 % W", "1:1"}, {"50 / 50 R and W", "1:1"}, {"50 / 50 W and R", "1:1"},
		{"10 R per W", "1:10"}, {"10 R for every W", "1:10"}, {"10 R for each W", "1:10"}, {"10 R to 1 W", "1:10"},
		{"10 R to every W", "1:10"}, {"1 W per 10 R", "1:10"}, {"1 W for every 10 R", "1:10"}, {"1 W to 10 R", "1:10"},
		{"10 times more R than W", "1:10"}, {"10 x more R than W", "1:10"}, {"10 x as many R as W", "1:10"},
		{"10 times as many R as W", "1:10"}, {"91 % R", "1:10"}, {"mostly R", "1:10"},
		{"10 W per R", "10:1"}, {"10 W for every R", "10:1"}, {"10 W for each R", "10:1"}, {"10 W to 1 R", "10:1"},
		{"1 R per 10 W", "10:1"}, {"1 R for every 10 W", "10:1"}, {"10 times more W than R", "10:1"},
		{"10 x more W than R", "10:1"}, {"10 x as many W as R", "10:1"}, {"mostly W", "10:1"},
		{"only R", "0:1"}, {"100 % R", "0:1"}, {"R only", "0:1"}, {"only W", "1:0"}, {"100 % W", "1:0"}, {"W only", "1:0"},
	}
	out := []entry{
		{"10 reads per write", "1:10"}, {"10 writes per read", "10:1"}, {"reads only", "0:1"}, {"writes only", "1:0"},
		{"even mix", "1:1"}, {"even split", "1:1"}, {"evenly mixed", "1:1"}, {"evenly split", "1:1"}, {"50 - 50", "1:1"},
		{"50 50", "1:1"}, {"1 to 1", "1:1"}, {"half and half", "1:1"}, {"half & half", "1:1"}, {"half / half", "1:1"}, {"equal mix", "1:1"}, {"equal split", "1:1"},
		{"1 - to - 1", "1:1"}, {"balanced mix", "1:1"},
	}
	// "a third of requests are writes": a share of the commands, as
	// SET:GET (a third writes is 1:2, a third reads 2:1).
	shares := []struct {
		word       string
		part, rest int
	}{{"half", 1, 1}, {"third", 1, 2}, {"quarter", 1, 3}, {"fifth", 1, 4}, {"tenth", 1, 9}}
	for _, sh := range shares {
		for _, lead := range []string{"a ", "1 ", ""} {
			for _, noun := range []string{"requests", "ops", "operations", "commands", "calls", "the requests", "the ops", "the operations", "the traffic", "traffic"} {
				for _, verb := range []string{"are", "is"} {
					for _, w := range writes[:2] {
						out = append(out, entry{lead + sh.word + " of " + noun + " " + verb + " " + w, strconv.Itoa(sh.part) + ":" + strconv.Itoa(sh.rest)})
					}
					for _, r := range reads[:2] {
						out = append(out, entry{lead + sh.word + " of " + noun + " " + verb + " " + r, strconv.Itoa(sh.rest) + ":" + strconv.Itoa(sh.part)})
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, pt := range patterns {
		for _, r := range reads {
			for _, w := range writes {
				ph := fillMix(pt.form, r, w)
				if !seen[ph] {
					seen[ph] = true
					out = append(out, entry{ph, pt.ratio})
				}
			}
		}
	}
	return out
}

// multiKeyPhrases are multi-key commands said in words ("getting 10 keys
// at once", "10-key gets", "bulk writes"): the MGET/MSET workloads, never
// a keyspace of ten keys.
func multiKeyPhrases() []entry {
	reads := []string{"get", "gets", "getting", "fetch", "fetching", "fetches", "read", "reads", "reading", "lookup", "lookups"}
	writes := []string{"set", "sets", "setting", "write", "writes", "writing", "store", "storing"}
	var counts []string
	// "ten" stays a word before "keys"; typo correction makes "request"
	// "requests".
	for _, n := range []string{"10", "ten"} {
		for _, c := range []string{" keys at once", " keys per call", " keys per command", " keys per request", " keys per requests", " keys in 1 call",
			" keys in 1 command", " keys at a time", " keys in 1 go"} {
			counts = append(counts, n+c)
		}
	}
	var out []entry
	// "multi-key MGET": the adjective says again what the command is.
	for _, m := range []string{"multi - key", "multi key", "multikey", "10 - key", "10 key"} {
		for _, c := range [][2]string{{"mget", "mget10"}, {"mgets", "mget10"}, {"mset", "mset10"}, {"msets", "mset10"}} {
			out = append(out, entry{m + " " + c[0], c[1]})
		}
	}
	for _, side := range []struct {
		verbs []string
		cmd   string
	}{{reads, "mget10"}, {writes, "mset10"}} {
		for _, v := range side.verbs {
			for _, c := range counts {
				out = append(out, entry{v + " " + c, side.cmd})
			}
			out = append(out, entry{"10 - key " + v, side.cmd}, entry{"10 key " + v, side.cmd}, entry{"ten - key " + v, side.cmd},
				entry{"ten key " + v, side.cmd}, entry{"bulk " + v, side.cmd}, entry{"multi - key " + v, side.cmd},
				entry{"multi key " + v, side.cmd}, entry{"multikey " + v, side.cmd})
		}
	}
	return out
}

// failoverPhrases are the ways of saying that the primary is lost, which
// is what the failover lab measured ("when the master goes down").
func failoverPhrases() []entry {
	nodes := []string{"primary", "master", "leader", "main node", "primary node", "master node", "leader node", "primary instance", "master instance",
		"primary box", "master box", "node", "a node"}
	events := []string{"dies", "died", "die", "dying", "goes down", "go down", "went down", "going down", "crashes", "crash", "crashed",
		"crashing", "fails", "fail", "failed", "failing", "is killed", "gets killed", "got killed", "is lost", "goes away", "is down",
		"goes offline", "dropped", "drops", "disappears", "is gone", "blows up", "falls over", "fell over", "is unreachable"}
	var out []entry
	for _, n := range nodes {
		for _, e := range events {
			out = append(out, entry{n + " " + e, ""})
		}
		out = append(out, entry{"lose the " + n, ""}, entry{"lost the " + n, ""}, entry{"losing the " + n, ""},
			entry{"kill the " + n, ""}, entry{"killing the " + n, ""}, entry{n + " crash", ""}, entry{n + " failure", ""},
			entry{n + " loss", ""}, entry{n + " outage", ""}, entry{n + " kill", ""}, entry{n + " kills", ""})
	}
	return append(out, entry{"replica takes over", ""}, entry{"replica take over", ""}, entry{"replica promoted", ""},
		entry{"replica gets promoted", ""}, entry{"promote a replica", ""}, entry{"promoting a replica", ""},
		entry{"new primary", ""}, entry{"new master", ""}, entry{"dead master", ""}, entry{"dead primary", ""}, entry{"dead leader", ""}, entry{"fail over", ""}, entry{"fails over", ""}, entry{"failing over", ""},
		entry{"recover from", ""}, entry{"recovers from", ""}, entry{"recovery from", ""}, entry{"recovery time", ""})
}

// phrase is one compiled lexicon entry: its words and meaning.
type phrase struct {
	words   []string
	meaning meaning
	value   string
}

// lexicon indexes every phrase by its first word; phrases of one first
// word are sorted longest first, so the tagger takes the longest match.
type lexicon struct {
	byFirst map[string][]phrase
	// settingWords are the one-word setting and workload phrases a
	// negating prefix may be glued to ("unpipelined", "nonclustered").
	settingWords map[string]phrase
}

func newLexicon(tables []table) *lexicon {
	lx := &lexicon{byFirst: map[string][]phrase{}, settingWords: map[string]phrase{}}
	for _, t := range tables {
		lx.add(t)
	}
	return lx
}

func (lx *lexicon) add(t table) {
	for _, e := range t.entries {
		ws := strings.Fields(e.phrase)
		if len(ws) == 0 {
			continue
		}
		ph := phrase{words: ws, meaning: t.meaning, value: e.value}
		lx.byFirst[ws[0]] = append(lx.byFirst[ws[0]], ph)
		if len(ws) == 1 && (t.meaning == mSetting || t.meaning == mMode) {
			lx.settingWords[ws[0]] = ph
		}
	}
	for k, phs := range lx.byFirst {
		slices.SortStableFunc(phs, func(a, b phrase) int { return len(b.words) - len(a.words) })
		lx.byFirst[k] = phs
	}
}

// VocabularySlot is one slot of the reader's vocabulary, named for
// people, with the words it reads in the order the lexicon lists them.
type VocabularySlot struct {
	Name  string
	Words []string
}

// Vocabulary lists, per slot, the words the reader understands, straight
// from the lexicon tables: help shows it, so the words people see are the
// words read and a synonym added to a table shows up in help. A table
// built by crossing patterns (mixes said in words) contributes its first
// phrase per value, as an example. The list is built once per process;
// each call returns its own copy.
func Vocabulary() []VocabularySlot {
	out := slices.Clone(sharedSlots())
	for i := range out {
		out[i].Words = slices.Clone(out[i].Words)
	}
	return out
}

// sharedSlots is the vocabulary help lists, built on first use (from every
// lexicon table: half a millisecond, once, not per help answer).
var sharedSlots = sync.OnceValue(vocabularySlots)

func vocabularySlots() []VocabularySlot {
	slots := []struct {
		m    meaning
		name string
	}{{mEngine, "engines"}, {mMode, "series"}, {mMetric, "metrics"}, {mWorkload, "workloads"}, {mSetting, "settings"}, {mNegation, "negations"}}
	tables := lexiconTables()
	// A setting phrase that carries its own negation ("cannot shard") is
	// read through the negation words, listed once under negations.
	negFirst := map[string]bool{}
	for _, t := range tables {
		if t.meaning == mNegation {
			for _, e := range t.entries {
				negFirst[strings.Fields(e.phrase)[0]] = true
			}
		}
	}
	out := make([]VocabularySlot, 0, len(slots))
	for _, sl := range slots {
		vs := VocabularySlot{Name: sl.name}
		seen := map[string]bool{}
		for _, t := range tables {
			if t.meaning != sl.m {
				continue
			}
			values := map[string]bool{}
			for _, e := range t.entries {
				if t.crossed && values[e.value] || sl.m == mSetting && negFirst[strings.Fields(e.phrase)[0]] {
					continue
				}
				values[e.value] = true
				w := strings.NewReplacer(" - ", "-", " / ", "/", " s ", "'s ").Replace(e.phrase)
				// "read heavy", "read-heavy" and "readheavy" are one word
				// to a reader of help.
				key := strings.NewReplacer(" ", "", "-", "").Replace(w)
				if !seen[key] {
					seen[key] = true
					vs.Words = append(vs.Words, w)
				}
			}
		}
		out = append(out, vs)
	}
	return out
}

// sidedPhrases splits a "pre"/"post" table of the lexicon (negations,
// hedges) into its words before what they bear on and those after it,
// longest first; a phrase ending in punctuation ("not ,") is left out.
func sidedPhrases(m meaning) (pre, post [][]string) {
	for _, t := range lexiconTables() {
		if t.meaning != m {
			continue
		}
		for _, e := range t.entries {
			ph := strings.Fields(e.phrase)
			if !hasLetter(ph[len(ph)-1]) {
				continue
			}
			if e.value == "post" {
				post = append(post, ph)
			} else {
				pre = append(pre, ph)
			}
		}
	}
	longest := func(a, b []string) int { return len(b) - len(a) }
	slices.SortStableFunc(pre, longest)
	slices.SortStableFunc(post, longest)
	return pre, post
}
