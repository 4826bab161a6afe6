package bot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// TestComposition checks the behaviours of issue #5's composition beyond
// their golden files: "why?" follow-ups, multiples, crossovers, clarify
// answers, engine descriptions and the interpretation line.
func TestComposition(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	has := func(t *testing.T, s string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("lacks %q:\n%s", w, s)
			}
		}
	}
	cited := func(a bot.Answer, id string) bool {
		return slices.ContainsFunc(a.Sources.Entries, func(e bot.SourceEntry) bool { return e.ID == id })
	}

	t.Run("why? explains the previous answer from cited entries and restates its figures with their runs", func(t *testing.T) {
		first := env.Ask(t, "why-1", "Dragonfly vs Redis at 48 cores")
		a := env.Ask(t, "why-1", "why?")
		md := bot.Markdown(a)
		if a.Kind != bot.KindAnswer || !strings.HasPrefix(a.Headline, "Why, in short (finding:cluster-saturation-story): ") {
			t.Fatalf("kind %s, headline %q", a.Kind, a.Headline)
		}
		has(t, md, "**The reasons, from the knowledge base:**", "(finding:cluster-saturation-story)", "(term:client-limited)",
			"**The answer being explained:** "+first.Headline, "nothing is added from general knowledge")
		for _, id := range []string{"finding:cluster-saturation-story", "term:client-limited"} {
			if !cited(a, id) {
				t.Errorf("reason %s is not cited in the sources", id)
			}
		}
		if !slices.Equal(a.Sources.RunIDs, first.Sources.RunIDs) || !slices.Equal(a.Sources.Filters, first.Sources.Filters) {
			t.Errorf("the figures lost their runs or filters: %v / %v", a.Sources.RunIDs, a.Sources.Filters)
		}
	})
	t.Run("why? after a claim leads with why the claim and the measurements differ, said once", func(t *testing.T) {
		env.Ask(t, "why-2", "Is Dragonfly 25x faster than Redis?")
		a := env.Ask(t, "why-2", "why?")
		md := bot.Markdown(a)
		if a.Kind != bot.KindClaim || !strings.HasPrefix(a.Headline, "Why, in short (claim:dragonfly-25x): The vendor sets Dragonfly against one Redis process") {
			t.Fatalf("kind %s, headline %q", a.Kind, a.Headline)
		}
		if n := strings.Count(md, "so the vendor's ratio can be neither reproduced nor refuted"); n != 2 { // headline and the reason
			t.Errorf("the claim's why appears %d times, want 2 (headline, reasons)", n)
		}
		has(t, md, "**Why the claim and the measurements differ** (claim:dragonfly-25x)", "not measured here", "ground truth")
	})
	t.Run("why? after a never-measured answer says why from the knowledge base", func(t *testing.T) {
		env.Ask(t, "why-3", "KeyDB at 24 cores")
		a := env.Ask(t, "why-3", "why?")
		if a.Kind != bot.KindNoData || !strings.Contains(a.Headline, "refuses to start") || !cited(a, "finding:keydb-wall") {
			t.Fatalf("kind %s, headline %q", a.Kind, a.Headline)
		}
	})

	t.Run("a how-many-times question states each ratio with both series, realistic and ceiling apart", func(t *testing.T) {
		a := env.Ask(t, "", "How many times faster is Dragonfly than Redis at 48 cores?")
		has(t, a.Headline, "Dragonfly (single process) has 3.4× the throughput of Redis Cluster — realistic (one normal client)",
			"0.38× the throughput of Redis Cluster — fully driven ceiling (one client per shard)")
		md := bot.Markdown(a)
		has(t, md, "15.5M ops/s ÷ 4.6M ops/s = 3.4×", "15.5M ops/s ÷ 40.6M ops/s = 0.38× (38%; the other way round, 2.6×)")
	})
	t.Run("a Garnet ratio is at least when Garnet leads and at most when it divides", func(t *testing.T) {
		a := env.Ask(t, "", "How much faster is Garnet than KeyDB at 16 cores?")
		has(t, a.Headline, "has at least 24.8× the throughput of KeyDB")
		b := env.Ask(t, "", "How many times faster is Dragonfly than Garnet at 48 cores?")
		has(t, bot.Markdown(b), "at most 0.72×", "across sessions: session 1 against session 2")
	})

	t.Run("a crossover names the first core count passed and whether the lead holds", func(t *testing.T) {
		a := env.Ask(t, "", "When does Dragonfly overtake Redis?")
		has(t, a.Headline, "first passes Redis Cluster — realistic (one normal client) at 16 cores (6.5M ops/s against 5.0M ops/s) and stays ahead at every larger core count measured (24 and 48 cores)",
			"never passes Redis Cluster — fully driven ceiling")
		b := env.Ask(t, "", "When does Redis overtake Dragonfly?")
		has(t, b.Headline, "ahead of Dragonfly (single process) at 4 and 8 cores, but falls behind at 16 cores")
	})

	t.Run("a question not understood shows the planner's reason and its examples", func(t *testing.T) {
		p, err := env.Planner.Plan(t.Context(), "the nimble one with the tiny blobs, how did it fare", nil)
		if err != nil {
			t.Fatal(err)
		}
		a := env.Ask(t, "", "the nimble one with the tiny blobs, how did it fare")
		if a.Kind != bot.KindClarify || a.Interpretation != "" || !slices.Contains(a.Body, p.Refusal) || !slices.Equal(a.Examples, p.Suggestions) {
			t.Fatalf("answer %+v for plan refusal %q", a, p.Refusal)
		}
	})

	t.Run("a clarify with readings offers them as numbered choices, and ask --json carries them", func(t *testing.T) {
		a := env.Ask(t, "", "the nimble one with the tiny blobs, how did it fare")
		j := bot.JSON(a)
		if a.Kind != bot.KindClarify || len(a.Choices) == 0 || len(a.Choices) > 3 || !slices.Equal(j.Choices, a.Choices) {
			t.Fatalf("kind %s, choices %q, JSON choices %q", a.Kind, a.Choices, j.Choices)
		}
		has(t, bot.Markdown(a), "1. "+a.Choices[0])
	})

	t.Run("a message that asks nothing is chatter, with no numbers", func(t *testing.T) {
		for _, q := range []string{"thanks!", "lol", "+1", "👍", "@sam what do you think?"} {
			a := env.Ask(t, "", q)
			if a.Kind != bot.KindChatter || len(a.Rows) != 0 || len(a.Choices) != 0 {
				t.Errorf("%q: kind %s, %d rows", q, a.Kind, len(a.Rows))
			}
		}
	})

	t.Run("what is Valkey? describes the engine from its entry with a measured headline that carries its runs", func(t *testing.T) {
		a := env.Ask(t, "", "What is Valkey?")
		e, ok := env.Knowledge.Engine("valkey")
		if !ok {
			t.Fatal("no Valkey entry")
		}
		if a.Kind != bot.KindDefinition || a.Headline != "Valkey" || len(a.Sources.Entries) == 0 || a.Sources.Entries[0].ID != "engine:valkey" {
			t.Fatalf("kind %s, headline %q, sources %+v", a.Kind, a.Headline, a.Sources.Entries)
		}
		md := bot.Markdown(a)
		has(t, md, e.Version, e.Vendor, e.Caveats[0], "Valkey Cluster — realistic (one normal client)", "Valkey Cluster — fully driven ceiling (one client per shard)",
			"**Measured headline:**", "median")
		if len(a.Rows) != 2 || len(a.Sources.RunIDs) != 3 || len(a.Sources.Filters) != 2 {
			t.Errorf("headline rows %d, runs %d, filters %d", len(a.Rows), len(a.Sources.RunIDs), len(a.Sources.Filters))
		}
	})

	t.Run("the interpretation names a claim by its title and says each default once", func(t *testing.T) {
		a := env.Ask(t, "", "Is Dragonfly 25x faster than Redis?")
		if strings.Contains(a.Interpretation, "claim:dragonfly-25x") || !strings.HasPrefix(a.Interpretation, `Dragonfly: "25x more QPS than Redis" — checked against`) {
			t.Errorf("interpretation %q", a.Interpretation)
		}
		for _, c := range readGolden(t) {
			var prev *planner.Plan
			var p planner.Plan
			for _, q := range c.questions {
				var err error
				if p, err = env.Planner.Plan(t.Context(), q, prev); err != nil {
					t.Fatal(err)
				}
				prev = &p
			}
			a := env.Ask(t, "once-"+c.name, c.questions[0])
			for _, q := range c.questions[1:] {
				a = env.Ask(t, "once-"+c.name, q)
			}
			for _, d := range p.Defaults {
				bare := d
				if i := strings.LastIndex(d, " ("); i > 0 && strings.HasSuffix(d, ")") && !strings.Contains(a.Interpretation, ", "+d) {
					bare = d[:i]
				}
				if n := strings.Count(a.Interpretation, bare); a.Interpretation != "" && n > 1 {
					t.Errorf("%s: default %q said %d times in %q", c.name, bare, n, a.Interpretation)
				}
			}
		}
	})
}

// TestStatementLabel checks the claim heading reads as a possessive with
// the claimant's role after it.
func TestStatementLabel(t *testing.T) {
	tests := []struct{ claimant, want string }{
		{"Dragonfly (vendor)", "Dragonfly's statement (vendor)"},
		{"Redis Ltd. (vendor docs)", "Redis Ltd.'s statement (vendor docs)"},
		{"third party (unverified)", "a third party's statement (unverified)"},
		{"various (third party)", "statements of various third parties"},
		{"Momento", "Momento's statement"},
		{"", "the claimant's statement"},
	}
	for _, tt := range tests {
		t.Run(tt.claimant, func(t *testing.T) {
			if got := (bot.ClaimContext{Claimant: tt.claimant}).StatementLabel(); got != tt.want {
				t.Fatalf("StatementLabel() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWhyAfterEveryGoldenQuestionTraces asks "why?" after every golden
// question: the answer is never an error, keeps the previous answer's
// kind (a refusal stays a refusal), and every number in it traces.
func TestWhyAfterEveryGoldenQuestionTraces(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	tr := newTracer(env.Store.Runs(), env.Knowledge)
	for _, c := range readGolden(t) {
		t.Run(c.name, func(t *testing.T) {
			// Each golden question asks in a thread of its own, and
			// tracing a search's answer takes seconds under the race
			// detector.
			t.Parallel()
			thread := "why-all-" + c.name
			var first bot.Answer
			for _, q := range c.questions {
				first = env.Ask(t, thread, q)
			}
			a := env.Ask(t, thread, "why?")
			if a.Kind == bot.KindError {
				t.Fatalf("error: %s", a.Headline)
			}
			switch first.Kind {
			case bot.KindChatter:
				// Chatter asks nothing and is not remembered: a why?
				// after it has nothing to explain.
			case bot.KindOutOfScope, bot.KindHelp:
				if a.Kind != bot.KindClarify {
					t.Errorf("why? after %s is %s, want clarify", first.Kind, a.Kind)
				}
			default:
				if a.Kind != first.Kind {
					t.Errorf("why? turned %s into %s", first.Kind, a.Kind)
				}
			}
			md := bot.Markdown(a)
			for _, p := range tr.trace(a, md, append(slices.Clone(c.questions), "why?")) {
				t.Errorf("%s", p)
			}
		})
	}
}
