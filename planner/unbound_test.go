package planner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// settingPhrasing is a question with words naming a workload mix, a value
// size or pipelining, and what a plan must carry to have read them.
type settingPhrasing struct {
	question, words string
	slot            string // the plan slot (JSON name) the words set
	carries         func(planner.Slots) bool
}

func ratioIs(r string) func(planner.Slots) bool {
	return func(s planner.Slots) bool { return s.Ratio == r }
}

func valueAbove(b int) func(planner.Slots) bool {
	return func(s planner.Slots) bool { return s.ValueBytes > b }
}

func pipelineIs(ok func(int) bool) func(planner.Slots) bool {
	return func(s planner.Slots) bool { return ok(s.Pipeline) }
}

// settingPhrasings are worded the many ways people name settings. The
// tests below hold whatever reader binds them: a plan either carries what
// the words ask for, or it names them as unbound.
func settingPhrasings() []settingPhrasing {
	writeHeavy, noPipelining := ratioIs("10:1"), pipelineIs(func(p int) bool { return p == 1 })
	deeper := pipelineIs(func(p int) bool { return p > 16 })
	return []settingPhrasing{
		{"which engine should I use for a leaderboard with heavy writes on a 16 core box", "heavy writes", "ratio", writeHeavy},
		{"session store with heavy writing on 48 cores", "heavy writing", "ratio", writeHeavy},
		{"leaderboard for a game with frequent writes, 16 cores, dragonfly or garnet", "frequent writes", "ratio", writeHeavy},
		{"valkey with more writes than reads", "more writes than reads", "ratio", writeHeavy},
		{"Dragonfly vs Redis for a write-heavy workload at 16 cores", "write-heavy", "ratio", writeHeavy},
		{"how does valkey do with mostly writes", "mostly writes", "ratio", writeHeavy},
		{"garnet throughput with lots of writes", "lots of writes", "ratio", writeHeavy},
		{"redis with as many writes as reads", "as many writes as reads", "ratio", ratioIs("1:1")},
		{"Redis vs Valkey with a 50/50 read write split", "50/50", "ratio", ratioIs("1:1")},
		{"dragonfly bulk reads", "bulk reads", "ratio", ratioIs("mget10")},
		{"which is fastest with batched reads at 16 cores", "batched reads", "ratio", ratioIs("mget10")},
		{"garnet with bulk inserts", "bulk inserts", "ratio", ratioIs("mset10")},
		{"valkey with huge values at 16 cores", "huge values", "value_bytes", valueAbove(100)},
		{"dragonfly with fat values", "fat values", "value_bytes", valueAbove(100)},
		{"redis with larger records", "larger records", "value_bytes", valueAbove(100)},
		{"dragonfly kilobyte-sized values", "kilobyte-sized values", "value_bytes", valueAbove(100)},
		{"Dragonfly with large values at 16 cores", "large values", "value_bytes", valueAbove(100)},
		{"which engine is best for big payloads", "big payloads", "value_bytes", valueAbove(100)},
		{"redis one command at a time at 8 cores", "one command at a time", "pipeline", noPipelining},
		{"garnet one request at a time", "one request at a time", "pipeline", noPipelining},
		{"valkey with no batching", "no batching", "pipeline", noPipelining},
		{"Dragonfly at 16 cores without pipelining", "without pipelining", "pipeline", noPipelining},
		{"garnet with long pipelines", "long pipelines", "pipeline", deeper},
		{"dragonfly with heavy pipelining", "heavy pipelining", "pipeline", deeper},
		{"dragonfly with a deep pipeline at 48 cores", "deep pipeline", "pipeline", deeper},
		{"redis write-mostly at 16 cores", "write-mostly", "ratio", writeHeavy},
		{"which engine handles bulk writes best", "bulk writes", "ratio", ratioIs("mset10")},
		{"keydb batched writes at 8 cores", "batched writes", "ratio", ratioIs("mset10")},
		{"valkey with multi-key reads", "multi-key reads", "ratio", ratioIs("mget10")},
		{"dragonfly with bigger values", "bigger values", "value_bytes", valueAbove(100)},
		{"redis with large blobs at 24 cores", "large blobs", "value_bytes", valueAbove(100)},
		{"garnet with sequential commands", "sequential commands", "pipeline", noPipelining},
		{"dragonfly with longer pipelines at 16 cores", "longer pipelines", "pipeline", deeper},
	}
}

// read reports whether a plan carries what the words ask for: the slot's
// value says it, or the plan varies that very knob.
func (ph settingPhrasing) read(pl planner.Plan) bool {
	return ph.carries(pl.Slots) || pl.Slots.Knob == ph.slot || pl.Intent == planner.IntentNoData && !slices.Contains(pl.Defaulted, ph.slot)
}

// Without a model the reading is stated; with one, the words go to it
// (here a model that cannot tell either, so the statement stands).
func TestSettingWordsAreReadOrNamedAndSentToTheModel(t *testing.T) {
	st := analyticstest.OpenStore(t)
	kb, err := knowledge.Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	c := &scriptedCompleter{reply: `{"intent":"unclear"}`}
	p := planner.New(st, kb, planner.Options{Completer: c})
	for _, ph := range settingPhrasings() {
		t.Run(ph.question, func(t *testing.T) {
			c.calls, c.prompts = 0, nil
			pl, err := p.Plan(t.Context(), ph.question, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ph.read(pl) {
				return
			}
			if !slices.ContainsFunc(pl.Unbound, func(w string) bool { return strings.EqualFold(w, ph.words) }) {
				t.Errorf("the plan neither carries %q nor names it as unbound (unbound %q):\n%s", ph.words, pl.Unbound, pl.Text())
			}
			if c.calls != 1 {
				t.Fatalf("the model was asked %d times about unbound %q", c.calls, ph.words)
			}
			if !strings.Contains(c.prompts[0], ph.words) || !strings.Contains(c.prompts[0], "a plain reading missed them") {
				t.Errorf("the prompt does not point the model at %q:\n%s", ph.words, c.prompts[0])
			}
			if pl.Source != "rules" || !strings.Contains(strings.ToLower(pl.UnboundReading), "read as ") || !strings.Contains(pl.UnboundReading, "the question mentioned "+ph.words) {
				t.Errorf("a model that cannot tell leaves the rules' plan with the default applied instead of %q stated; got source %s, reading %q", ph.words, pl.Source, pl.UnboundReading)
			}
		})
	}
}

// A model that does place the words gives a plan that carries them: here
// the write-heavy mix, which coverage then refuses as never measured.
func TestAModelThatPlacesUnboundWordsReplacesTheDefault(t *testing.T) {
	c := &scriptedCompleter{reply: `{"intent":"compare","ratio":"10:1","cores":[16]}`}
	cov := newFakeCoverage(
		grid(1, "dragonfly", "single", []int{16}, []string{"1:10", "1:1"}, []int{100}, []int{16}),
		grid(2, "garnet", "single", []int{16}, []string{"1:10", "1:1"}, []int{100}, []int{16}),
	)
	pl, err := planner.New(cov, nil, planner.Options{Completer: c}).Plan(t.Context(),
		"which engine should I use for a leaderboard with write storms on a 16 core box", nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Source != "llm" || pl.Slots.Ratio != "10:1" || pl.Intent != planner.IntentNoData {
		t.Fatalf("got %s from %s with ratio %q, want the model's write-heavy reading refused as no_data\n%s", pl.Intent, pl.Source, pl.Slots.Ratio, pl.Text())
	}
	if len(pl.Unbound) != 0 || pl.UnboundReading != "Read by the language model" {
		t.Errorf("the model bound the words, yet the plan says unbound %q, or not who read it: %q", pl.Unbound, pl.UnboundReading)
	}
}

func TestWordsTheRulesDidNotNeedAreNotUnbound(t *testing.T) {
	p := realPlanner(t)
	for _, q := range []string{
		"read-heavy dragonfly at 16 cores",
		"Dragonfly pipelined at 48 cores",
		"what does pipelining do to garnet",
		"dragonfly latency at 16 cores",
		"redis hit rate at 8 cores",
		"Dragonfly at 16 cores",
	} {
		pl, err := p.Plan(t.Context(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(pl.Unbound) != 0 || pl.UnboundReading != "" {
			t.Errorf("%q: unbound %q, reading %q", q, pl.Unbound, pl.UnboundReading)
		}
	}
}

// A follow-up that reuses the previous plan ("why?") does not carry the
// previous question's unbound words or their statement.
func TestAFollowUpDoesNotRepeatThePreviousQuestionsUnboundWords(t *testing.T) {
	p := realPlanner(t)
	first, err := p.Plan(t.Context(), "which engine should I use for a leaderboard with write storms on a 16 core box", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Unbound) == 0 {
		t.Skip("the reader binds these words now; nothing to carry over")
	}
	why, err := p.Plan(t.Context(), "why?", &first)
	if err != nil {
		t.Fatal(err)
	}
	if len(why.Unbound) != 0 || why.UnboundReading != "" {
		t.Errorf("the follow-up says unbound %q, reading %q", why.Unbound, why.UnboundReading)
	}
	if len(first.Unbound) == 0 || first.UnboundReading == "" {
		t.Errorf("planning the follow-up changed the first plan: %q %q", first.Unbound, first.UnboundReading)
	}
}
