package bot_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// countingQuerier counts the queries that reach the store and names the
// runs by a fingerprint the test changes to stand for an import.
type countingQuerier struct {
	q       bot.Querier
	fp      string
	queries int
}

func (c *countingQuerier) Query(ctx context.Context, filter string) (analytics.Result, error) {
	c.queries++
	return c.q.Query(ctx, filter)
}

func (c *countingQuerier) Fingerprint() string { return c.fp }

func TestRepeatedQuestionsAreAnsweredFromTheCacheUntilTheRunsChange(t *testing.T) {
	var cq *countingQuerier
	env := bottest.NewEnv(t, func(cfg *bot.Config) {
		cq = &countingQuerier{q: cfg.Querier, fp: "runs-1"}
		cfg.Querier = cq
	})
	const question = "Is Dragonfly 25x faster than Redis?"
	first := env.Ask(t, "", question)
	composed := cq.queries
	if composed == 0 {
		t.Fatal("the first answer ran no query")
	}

	second := env.Ask(t, "", question)
	if cq.queries != composed {
		t.Errorf("the repeated question ran %d more queries", cq.queries-composed)
	}
	if !reflect.DeepEqual(first, second) {
		t.Fatalf("the cached answer differs:\n%s\n---\n%s", bot.Markdown(first), bot.Markdown(second))
	}

	second.Rows[0].RunIDs[0] = "changed"
	second.Sources.Filters[0] = "changed"
	second.Headline = "changed"
	if third := env.Ask(t, "", question); !reflect.DeepEqual(first, third) {
		t.Error("a caller's change to its answer leaked into the cache")
	}

	cq.fp = "runs-2" // an import
	cq.queries = 0
	if again := env.Ask(t, "", question); cq.queries != composed || !reflect.DeepEqual(first, again) {
		t.Errorf("after the runs changed the answer ran %d queries (want %d, composed afresh)", cq.queries, composed)
	}
}

func TestAFollowUpIsNotAnsweredFromAnotherThreadsCache(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	env.Ask(t, "a", "Dragonfly at 8 cores")
	env.Ask(t, "b", "Valkey at 8 cores")
	inA := env.Ask(t, "a", "what about 48 cores?")
	inB := env.Ask(t, "b", "what about 48 cores?")
	if reflect.DeepEqual(inA, inB) {
		t.Fatalf("the same follow-up in two threads gave the same answer:\n%s", bot.Markdown(inA))
	}
}

func TestANegativeCacheSizeComposesEveryAnswer(t *testing.T) {
	var cq *countingQuerier
	env := bottest.NewEnv(t, func(cfg *bot.Config) {
		cq = &countingQuerier{q: cfg.Querier, fp: "runs-1"}
		cfg.Querier = cq
		cfg.AnswerCacheSize = -1
	})
	env.Ask(t, "", "Dragonfly at 8 cores")
	once := cq.queries
	env.Ask(t, "", "Dragonfly at 8 cores")
	if cq.queries != 2*once {
		t.Errorf("with caching off the repeat ran %d queries, want %d", cq.queries-once, once)
	}
}

// countingPlanner counts the questions that reach the planner and says it
// is Repeatable as told.
type countingPlanner struct {
	p          bot.Planner
	repeatable bool
	plans      int
}

func (c *countingPlanner) Plan(ctx context.Context, question string, prev *planner.Plan) (planner.Plan, error) {
	c.plans++
	return c.p.Plan(ctx, question, prev)
}

func (c *countingPlanner) Repeatable() bool { return c.repeatable }

func TestARepeatedQuestionIsPlannedOnceOnlyWhenThePlannerIsRepeatable(t *testing.T) {
	follows := map[bool]bot.Answer{}
	for _, repeatable := range []bool{true, false} {
		var cp *countingPlanner
		env := bottest.NewEnv(t, func(cfg *bot.Config) {
			cp = &countingPlanner{p: cfg.Planner, repeatable: repeatable}
			cfg.Planner = cp
		})
		const question = "Which engine is fastest at 48 cores?"
		first := env.Ask(t, "", question)
		second := env.Ask(t, "t1", question) // a fresh thread: no previous plan
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("repeatable %v: the repeated question's answer differs", repeatable)
		}
		want := 1
		if !repeatable {
			want = 2
		}
		if cp.plans != want {
			t.Errorf("repeatable %v: the question was planned %d times, want %d", repeatable, cp.plans, want)
		}

		// The thread remembers the cached answer's plan: a follow-up
		// continues it as it would a planned one, and is planned itself.
		cp.plans = 0
		follows[repeatable] = env.Ask(t, "t1", "what about 8 cores?")
		if cp.plans != 1 {
			t.Errorf("repeatable %v: the follow-up was planned %d times, want 1", repeatable, cp.plans)
		}
	}
	if !reflect.DeepEqual(follows[true], follows[false]) {
		t.Errorf("a follow-up to a cached answer read %q; to a planned one %q", follows[true].Interpretation, follows[false].Interpretation)
	}
	if !strings.Contains(follows[true].Interpretation, "8 cores") {
		t.Errorf("the follow-up read %q: not 8 cores", follows[true].Interpretation)
	}
}

func TestHandleEncodedSendsTheAnswersJSONObject(t *testing.T) {
	for _, size := range []int{0, -1} {
		env := bottest.NewEnv(t, func(cfg *bot.Config) { cfg.AnswerCacheSize = size })
		for _, q := range []string{"Dragonfly at 8 cores", "Is Dragonfly 25x faster than Redis?", "what is pipelining?", "Dragonfly at 8 cores"} {
			m := bot.Message{Platform: "http", Text: q}
			a, raw, err := env.Bot.HandleEncoded(t.Context(), m)
			if err != nil {
				t.Fatal(err)
			}
			want, err := bot.JSON(env.Bot.Handle(t.Context(), m)).Encode()
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != string(want) {
				t.Errorf("cache size %d, %q: HandleEncoded sent\n%s\nwant\n%s", size, q, raw, want)
			}
			if got, _ := bot.JSON(a).Encode(); string(got) != string(want) {
				t.Errorf("cache size %d, %q: the encoding is not that of the answer returned with it", size, q)
			}
		}
	}
}
