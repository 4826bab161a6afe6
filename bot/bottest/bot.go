package bottest

import (
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// Env is a real Bot over the embedded dataset (in-memory store), the
// embedded knowledge base and the rules planner, with thread memory in a
// MemKV on a manual clock.
type Env struct {
	Store     *analytics.Store
	Knowledge *knowledge.Base
	Planner   *planner.Planner
	KV        *MemKV
	Clock     *Clock
	Bot       *bot.Bot
}

// Start is the manual clock's starting time in every Env.
var Start = time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)

// NewEnv builds an Env. mod, when not nil, adjusts the bot's configuration
// before the bot is built (limits, logger, deadline). It fails the test on
// any error.
func NewEnv(tb testing.TB, mod func(*bot.Config)) *Env {
	tb.Helper()
	return NewEnvOn(tb, analyticstest.OpenStore(tb), mod)
}

// NewEnvOn builds an Env over the runs of st (the knowledge base's
// figures computed from them), as NewEnv does.
func NewEnvOn(tb testing.TB, st *analytics.Store, mod func(*bot.Config)) *Env {
	tb.Helper()
	kb, err := knowledge.Load(tb.Context(), st)
	if err != nil {
		tb.Fatalf("loading the knowledge base: %v", err)
	}
	pl := planner.New(st, kb, planner.Options{})
	clock := NewClock(Start)
	kv := NewMemKV(clock.Now)
	cfg := bot.Config{
		Planner: pl, Querier: st, Knowledge: kb,
		Threads: bot.NewKVThreads(kv, 0, 0),
		Now:     clock.Now,
		Ref:     func() string { return "TESTREF" },
	}
	if mod != nil {
		mod(&cfg)
	}
	return &Env{Store: st, Knowledge: kb, Planner: pl, KV: kv, Clock: clock, Bot: bot.New(cfg)}
}

// Ask sends one question from the terminal, in thread (empty: a fresh
// conversation), and returns the answer.
func (e *Env) Ask(tb testing.TB, thread, question string) bot.Answer {
	tb.Helper()
	return e.Bot.Handle(tb.Context(), bot.Message{Platform: "cli", Thread: thread, Text: question, Received: e.Clock.Now()})
}
