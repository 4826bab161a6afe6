package planner_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// meaningFields are the plan fields that carry what a question means.
var meaningFields = []string{"intent", "requested", "engines", "modes", "cores", "ratio", "value", "pipeline", "session",
	"metric", "knob", "term", "claim", "crossover", "multiple"}

// meaningOf is the part of a plan that a rewording must keep.
func meaningOf(pl planner.Plan) map[string]string {
	all := planFields(pl)
	out := make(map[string]string, len(meaningFields))
	for _, k := range meaningFields {
		out[k] = all[k]
	}
	return out
}

// diffMeaning lists the fields where two plans differ.
func diffMeaning(a, b map[string]string) []string {
	var out []string
	for _, k := range meaningFields {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s: %s vs %s", k, a[k], b[k]))
		}
	}
	return out
}

func planOf(t *testing.T, p *planner.Planner, q string) planner.Plan {
	t.Helper()
	pl, err := p.Plan(t.Context(), q, nil)
	if err != nil {
		t.Fatalf("planning %q: %v", q, err)
	}
	return pl
}

// metamorphicBases are questions of every family the decorations below
// are applied to.
var metamorphicBases = []string{
	"dragonfly at 16 cores",
	"redis vs valkey at 8 cores, p99",
	"how does valkey scale without pipelining",
	"at what point does dragonfly overtake redis",
	"what is pipelining worth for garnet",
	"how far apart are dragonfly and redis at 16 cores",
	"garnet multi-gets of ten keys at 8 cores",
	"what does client-limited mean",
	"pipelining, in the context of dragonfly",
	"what the dragonfly team advertises",
	"unpipelined keydb at 4 cores",
	"which engine is fastest at 48 cores",
	"valkey with 1kb values at 24 cores",
	"redis mixed workload at 16 cores, median latency",
	"what is a redis cluster",
	"dragonfly pipelined vs unpipelined at 16 cores",
	"how many cores before dragonfly beats redis",
	"redis with equal sets and gets at 8 cores",
	"anything but redis at 16 cores",
	"how long is redis down when the primary dies",
	"dragonfly mget at 16 cores in keys per second",
	"marketing says better memory efficiency",
	"dragonfly vs garnet, 1:1, 16c, p99",
	"our app can't pipeline, redis vs valkey at 16 cores",
	"what's the tipping point between dragonfly and redis",
	"how many shards at 48 cores",
	"how many bytes does each key cost in valkey",
	"which runs broke 20M ops/s",
	"two things: dragonfly at 16 cores, and redis p99 at 8 cores",
}

// typo swaps two letters inside the longest word of five letters or more
// that is not a number: the kind of slip people make while typing.
func typo(q string) string {
	words := strings.Fields(q)
	best := -1
	for i, w := range words {
		if len(w) >= 6 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" && (best < 0 || len(w) > len(words[best])) {
			best = i
		}
	}
	if best < 0 {
		return q
	}
	w := []byte(words[best])
	w[2], w[3] = w[3], w[2]
	words[best] = string(w)
	return strings.Join(words, " ")
}

func TestDecorationsChangeNothing(t *testing.T) {
	p := realPlanner(t)
	decorations := map[string]func(string) string{
		"please before":   func(q string) string { return "please " + q },
		"please after":    func(q string) string { return q + " please" },
		"hey bot":         func(q string) string { return "hey bot, " + q },
		"a question mark": func(q string) string { return q + "?" },
		"capitals":        func(q string) string { return strings.ToUpper(q[:1]) + q[1:] },
		"a typo":          typo,
	}
	for _, base := range metamorphicBases {
		want := meaningOf(planOf(t, p, base))
		for _, name := range slices.Sorted(maps.Keys(decorations)) {
			q := decorations[name](base)
			t.Run(name+"/"+base, func(t *testing.T) {
				if diff := diffMeaning(meaningOf(planOf(t, p, q)), want); len(diff) > 0 {
					t.Errorf("%q reads differently from %q: %s", q, base, strings.Join(diff, "; "))
				}
			})
		}
	}
}

func TestParaphrasesPlanAlike(t *testing.T) {
	p := realPlanner(t)
	for _, group := range [][]string{
		{"dragonfly at 16 cores without pipelining", "unpipelined dragonfly at 16 cores", "dragonfly 16 cores, pipelining off",
			"non-pipelined dragonfly on 16 cores", "dragonfly w/o pipelining at 16 cores", "dragonfly at 16 cores, pipeline depth 1",
			"dragonfly -p 1 at 16 cores", "dragonfly at 16 cores, one request at a time"},
		{"at what point does valkey overtake redis", "when does valkey pass redis", "from which core count is valkey ahead of redis",
			"where do valkey and redis cross", "at how many cores does valkey get ahead of redis"},
		{"what is pipelining worth for redis", "how much does pipelining help redis", "does redis gain much from pipelining",
			"impact of pipelining on redis", "effect of pipelining on redis", "redis with vs without pipelining"},
		{"how far apart are dragonfly and garnet at 8 cores", "what's the gap between dragonfly and garnet at 8 cores",
			"by what factor does dragonfly beat garnet at 8 cores", "how many times faster is dragonfly than garnet at 8 cores"},
		{"dragonfly mget of 10 keys at 16 cores", "dragonfly multi-gets of ten keys at 16 cores", "dragonfly MGETs with 10 keys each at 16 cores",
			"dragonfly batched reads of ten at 16 cores"},
		{"redis with vs without pipelining at 16 cores", "redis pipelined vs unpipelined at 16 cores", "pipelining on vs off for redis at 16 cores",
			"redis at 16 cores: pipelining on or off?", "redis with pipelining and without at 16 cores", "redis batched vs unbatched at 16 cores"},
		{"valkey mixed at 8 cores", "valkey with equal sets and gets at 8 cores", "valkey as many writes as reads at 8 cores",
			"valkey half reads half writes at 8 cores", "valkey 50-50 at 8 cores", "valkey with the same number of gets and sets at 8 cores"},
		{"at what point does dragonfly overtake redis", "how many cores before dragonfly beats redis", "from how many cores is dragonfly faster than redis",
			"how many cores does dragonfly need to beat redis"},
		{"how does valkey scale", "valkey throughput as cores go up", "how does valkey throughput change with cores",
			"what happens to valkey when you add cores", "valkey as you add more cores"},
		{"how long is the redis failover outage", "how long is redis down when the primary dies", "redis master goes down, how long is the outage",
			"when the redis leader crashes how long until writes work"},
		{"what does client-limited mean", "client-limited, in the context of garnet", "what does client-limited mean for garnet",
			"define client-limited", "tell me about client-limited"},
	} {
		want := meaningOf(planOf(t, p, group[0]))
		for _, q := range group[1:] {
			t.Run(q, func(t *testing.T) {
				got := meaningOf(planOf(t, p, q))
				if group[0] == "what does client-limited mean" {
					got["engines"] = want["engines"] // the context names an engine; the definition is the same
				}
				if diff := diffMeaning(got, want); len(diff) > 0 {
					t.Errorf("%q reads differently from %q: %s", q, group[0], strings.Join(diff, "; "))
				}
			})
		}
	}
}

func TestNegatingASettingFlipsExactlyThatSetting(t *testing.T) {
	p := realPlanner(t)
	negations := []struct{ positive, negative string }{
		{"with pipelining", "without pipelining"},
		{"pipelined", "unpipelined"},
		{"pipelined", "non-pipelined"},
		{"with pipelining on", "with pipelining off"},
		{"with pipelining enabled", "with pipelining disabled"},
		{"not without pipelining", "without pipelining"},
		{"pipelined", "not pipelined"},
	}
	for _, base := range []string{"redis at 8 cores %s", "dragonfly vs valkey at 16 cores %s", "%s garnet at 24 cores, p99", "how does keydb scale %s"} {
		for _, n := range negations {
			pos, neg := fmt.Sprintf(base, n.positive), fmt.Sprintf(base, n.negative)
			t.Run(neg, func(t *testing.T) {
				a, b := meaningOf(planOf(t, p, pos)), meaningOf(planOf(t, p, neg))
				if b["pipeline"] != "1" || a["pipeline"] == "1" {
					t.Errorf("pipeline: %q reads %s, %q reads %s; want pipelined and 1", pos, a["pipeline"], neg, b["pipeline"])
				}
				a["pipeline"], b["pipeline"] = "", ""
				if diff := diffMeaning(b, a); len(diff) > 0 {
					t.Errorf("negating pipelining changed more than the pipeline: %s", strings.Join(diff, "; "))
				}
			})
		}
	}
}

func TestNegatedEngineOrValueIsNeverReadAsItself(t *testing.T) {
	p := realPlanner(t)
	for _, tt := range []struct{ q, field, never string }{
		{"anything but redis at 16 cores", "engines", "redis"},
		{"non-dragonfly engines at 8 cores", "engines", "dragonfly"},
		{"dragonfly, not valkey, at 16 cores", "engines", "valkey"},
		{"fastest at 48 cores excluding garnet", "engines", "garnet"},
		{"redis at 16 cores, not 1kb values", "value", "1024"},
		{"dragonfly at 8 cores with values other than 100 bytes", "value", "100"},
		{"valkey non-1kb values at 24 cores", "value", "1024"},
		{"dragonfly at anything but 48 cores", "cores", "48"},
		{"redis, not 16 cores, p99", "cores", "16"},
		{"dragonfly at 16 cores, pipeline not 16", "pipeline", "16"},
		{"garnet at 8 cores, not 1:10", "ratio", "1:10"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := planOf(t, p, tt.q)
			got := meaningOf(pl)[tt.field]
			if slices.Contains(strings.Split(got, ","), tt.never) {
				t.Errorf("%q reads %s=%s, which holds the negated %s", tt.q, tt.field, got, tt.never)
			}
			if !strings.HasPrefix(pl.UnboundReading, "Read “") && (pl.Intent != planner.IntentClarify || len(pl.Options) == 0) {
				t.Errorf("%q: neither says the reading taken first (UnboundReading %q) nor offers choices", tt.q, pl.UnboundReading)
			}
		})
	}
}

func TestSwappingTheEnginesOfAComparisonSwapsThem(t *testing.T) {
	p := realPlanner(t)
	pairs := [][2]string{{"dragonfly", "redis"}, {"valkey", "keydb"}, {"garnet", "dragonfly"}, {"redis", "valkey"}}
	for _, form := range []string{"%s vs %s at 8 cores", "is %s faster than %s at 16 cores?", "compare %s and %s, p99, 4 cores",
		"how far apart are %s and %s at 16 cores", "when does %s overtake %s"} {
		for _, pr := range pairs {
			q1, q2 := fmt.Sprintf(form, pr[0], pr[1]), fmt.Sprintf(form, pr[1], pr[0])
			t.Run(q1, func(t *testing.T) {
				a, b := meaningOf(planOf(t, p, q1)), meaningOf(planOf(t, p, q2))
				if a["engines"] != pr[0]+","+pr[1] || b["engines"] != pr[1]+","+pr[0] {
					t.Errorf("engines %s and %s, want %s,%s and the swap", a["engines"], b["engines"], pr[0], pr[1])
				}
				a["engines"], b["engines"] = "", ""
				if diff := diffMeaning(a, b); len(diff) > 0 {
					t.Errorf("swapping the engines changed more than their order: %s", strings.Join(diff, "; "))
				}
			})
		}
	}
}

// statedSetting is one setting a question states, in several spellings,
// with the plan field it must set.
type statedSetting struct {
	field, want string
	spellings   []string
}

var statedSettings = []statedSetting{
	{"cores", "16", []string{"16 cores", "16c", "at 16 cores", "on 16 cores", "16 core"}},
	{"ratio", "1:1", []string{"1:1", "SET:GET 1:1", "mixed workload", "50/50", "half reads half writes"}},
	{"value", "1024", []string{"1kb values", "1kb", "1 KB values", "1024 byte values", "1k values"}},
	{"pipeline", "1", []string{"pipeline 1", "no pipelining", "p1", "without pipelining", "pipeline depth 1"}},
	{"metric", "p99_ms", []string{"p99", "p99 latency", "tail latency p99", "99th percentile", "p99 please"}},
}

// TestStatedSettingsSurviveTheOthers states every subset of the settings
// above, in every order, after a comparison or a lookup, joined by commas
// or by spaces: each stated setting must be in the plan, whatever sits
// next to it ("1:1, 16c" once read the list "1, 16" and lost the cores).
func TestStatedSettingsSurviveTheOthers(t *testing.T) {
	p := realPlanner(t)
	var orders func(prefix, rest []int, yield func([]int))
	orders = func(prefix, rest []int, yield func([]int)) {
		if len(prefix) > 0 {
			yield(prefix)
		}
		for i, r := range rest {
			next := append(slices.Clone(rest[:i]), rest[i+1:]...)
			orders(append(slices.Clone(prefix), r), next, yield)
		}
	}
	n := 0
	for _, head := range []string{"dragonfly vs garnet", "redis", "valkey vs keydb"} {
		for _, sep := range []string{", ", " "} {
			orders(nil, []int{0, 1, 2, 3, 4}, func(order []int) {
				n++
				parts := []string{head}
				for _, i := range order {
					s := statedSettings[i]
					parts = append(parts, s.spellings[n%len(s.spellings)])
				}
				q := strings.Join(parts, sep)
				got := planFields(planOf(t, p, q))
				for _, i := range order {
					s := statedSettings[i]
					if got[s.field] != s.want {
						t.Errorf("%q: %s=%s, want %s", q, s.field, got[s.field], s.want)
					}
				}
			})
		}
	}
}

// TestGapFollowUpsKeepTheThread asks every way of saying "how far apart"
// after comparisons: each must be the thread's comparison as a multiple,
// with its engines and cells, never a new question ("the two" is not two
// cores, "the spread between them" is not the repetitions' spread).
func TestGapFollowUpsKeepTheThread(t *testing.T) {
	p := realPlanner(t)
	followUps := []string{"by how much", "x-fold?", "how many x", "how wide is the difference", "the ratio between the two",
		"what's the spread between them", "how big a difference is that", "what's the multiple", "by what percentage?",
		"how far apart are they", "how many times?", "what percentage", "by what margin", "how many fold"}
	for _, base := range []string{"dragonfly vs garnet at 16 cores", "redis vs valkey, 1:1, 8c", "keydb vs garnet at 8 cores, p99"} {
		prev := planOf(t, p, base)
		want := meaningOf(prev)
		want["intent"], want["multiple"] = "compare", "yes"
		for _, f := range followUps {
			t.Run(base+" >> "+f, func(t *testing.T) {
				got := meaningOf(planThread(t, p, []string{base}, f))
				if diff := diffMeaning(got, want); len(diff) > 0 {
					t.Errorf("%q after %q: %s", f, base, strings.Join(diff, "; "))
				}
			})
		}
	}
}
