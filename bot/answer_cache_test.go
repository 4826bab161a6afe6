package bot_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
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
