package bot_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// planFunc is a Planner made of a function, for testing Handle's mechanics.
type planFunc func(ctx context.Context, q string, prev *planner.Plan) (planner.Plan, error)

func (f planFunc) Plan(ctx context.Context, q string, prev *planner.Plan) (planner.Plan, error) {
	return f(ctx, q, prev)
}

// queryFunc is a Querier made of a function.
type queryFunc func(ctx context.Context, filter string) (analytics.Result, error)

func (f queryFunc) Query(ctx context.Context, filter string) (analytics.Result, error) {
	return f(ctx, filter)
}

// emptyKnowledge knows nothing; Handle's mechanics do not need entries.
type emptyKnowledge struct{}

func (emptyKnowledge) Term(string) (knowledge.Term, bool)       { return knowledge.Term{}, false }
func (emptyKnowledge) Claim(string) (knowledge.Claim, bool)     { return knowledge.Claim{}, false }
func (emptyKnowledge) Entry(string) (knowledge.Entry, bool)     { return knowledge.Entry{}, false }
func (emptyKnowledge) Finding(string) (knowledge.Finding, bool) { return knowledge.Finding{}, false }
func (emptyKnowledge) Engine(string) (knowledge.Engine, bool)   { return knowledge.Engine{}, false }
func (emptyKnowledge) Engines() []knowledge.Engine              { return nil }
func (emptyKnowledge) Note(string) (knowledge.Note, bool)       { return knowledge.Note{}, false }
func (emptyKnowledge) Session(int) (knowledge.Session, bool)    { return knowledge.Session{}, false }
func (emptyKnowledge) MemoryTable() knowledge.MemoryTable       { return knowledge.MemoryTable{} }
func (emptyKnowledge) FailoverSweep() knowledge.FailoverTable   { return knowledge.FailoverTable{} }
func (emptyKnowledge) FailoverEngines() knowledge.FailoverTable { return knowledge.FailoverTable{} }

var oneCell = analytics.Result{Cells: []analytics.Cell{{
	CellKey: analytics.CellKey{Session: 1, Engine: "dragonfly", Mode: "single", Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 16},
	Reps:    2, OpsPerSec: 3668546.295, P50Ms: 1, P99Ms: 2, P999Ms: 3,
	RunIDs: []string{"run-a-rep1", "run-a-rep2"},
}}}

func lookupPlan(q string) planner.Plan {
	return planner.Plan{Intent: planner.IntentLookup, Question: q, Interpretation: "Dragonfly, 8 cores",
		Queries: []planner.Query{{Filter: `engine == "dragonfly" && cores == 8`, Metric: "ops_per_sec"}}}
}

func newTestBot(t *testing.T, p bot.Planner, q bot.Querier, mod func(*bot.Config)) (*bot.Bot, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	cfg := bot.Config{Planner: p, Querier: q, Knowledge: emptyKnowledge{},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), Ref: func() string { return "AB12CD" }}
	if mod != nil {
		mod(&cfg)
	}
	return bot.New(cfg), &logs
}

func TestHandleTurnsAPanicIntoAnInternalErrorAndOneLogLine(t *testing.T) {
	b, logs := newTestBot(t, planFunc(func(context.Context, string, *planner.Plan) (planner.Plan, error) {
		panic("boom")
	}), queryFunc(nil), nil)
	a := b.Handle(t.Context(), bot.Message{Platform: "cli", Text: "anything"})
	if a.Kind != bot.KindError || !strings.Contains(a.Headline, "internal error (ref AB12CD)") {
		t.Fatalf("answer = %+v", a)
	}
	if n := strings.Count(logs.String(), "\n"); n != 1 || !strings.Contains(logs.String(), "ref=AB12CD") || !strings.Contains(logs.String(), "boom") {
		t.Fatalf("want one log line with the ref and the panic, got:\n%s", logs.String())
	}
}

func TestHandleStopsAtTheDeadline(t *testing.T) {
	b, _ := newTestBot(t, planFunc(func(ctx context.Context, q string, _ *planner.Plan) (planner.Plan, error) {
		return lookupPlan(q), nil
	}), queryFunc(func(ctx context.Context, _ string) (analytics.Result, error) {
		<-ctx.Done() // a query that only ends when the deadline cancels it
		return analytics.Result{}, ctx.Err()
	}), func(c *bot.Config) { c.Deadline = time.Millisecond })
	a := b.Handle(t.Context(), bot.Message{Platform: "cli", Text: "Dragonfly at 8 cores"})
	if a.Kind != bot.KindError || !strings.Contains(a.Headline, "took longer than") {
		t.Fatalf("answer = %+v", a)
	}
}

func TestHandleMapsErrorsToUserText(t *testing.T) {
	tests := []struct {
		name string
		err  error
		kind bot.Kind
		want string
	}{
		{"a filter error shows the gate's message", &analytics.FilterError{Msg: `unknown field "core" (did you mean "cores"?)`}, bot.KindError, `unknown field "core"`},
		{"a safe error shows its message only", &bot.SafeError{Msg: "I could not read that.", Err: errors.New("secret detail")}, bot.KindError, "I could not read that."},
		{"anything else is an internal error with a ref", errors.New("badger: disk on fire"), bot.KindError, "internal error (ref AB12CD)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := newTestBot(t, planFunc(func(context.Context, string, *planner.Plan) (planner.Plan, error) {
				return planner.Plan{}, tt.err
			}), queryFunc(nil), nil)
			a := b.Handle(t.Context(), bot.Message{Platform: "cli", Text: "x"})
			if a.Kind != tt.kind || !strings.Contains(a.Headline, tt.want) {
				t.Fatalf("answer = %+v", a)
			}
			if strings.Contains(bot.Markdown(a), "secret detail") || strings.Contains(bot.Markdown(a), "disk on fire") {
				t.Fatalf("internal detail leaked: %s", bot.Markdown(a))
			}
		})
	}
}

func TestHandleRefusesOverTheRateLimitWithAnEphemeralNotice(t *testing.T) {
	clock := bottest.NewClock(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	planned := 0
	b, _ := newTestBot(t, planFunc(func(_ context.Context, q string, _ *planner.Plan) (planner.Plan, error) {
		planned++
		return lookupPlan(q), nil
	}), queryFunc(func(context.Context, string) (analytics.Result, error) { return oneCell, nil }), func(c *bot.Config) {
		c.Limiter = bot.NewLimiter(bot.Limits{UserPerMinute: 1, UserBurst: 1}, nil, clock.Now)
	})
	m := bot.Message{Platform: "slack", User: "U1", Text: "Dragonfly at 8 cores"}
	if a := b.Handle(t.Context(), m); a.Kind != bot.KindAnswer {
		t.Fatalf("first answer = %+v", a)
	}
	a := b.Handle(t.Context(), m)
	if a.Kind != bot.KindRateLimited || !a.Ephemeral || !strings.Contains(a.Headline, "wait") {
		t.Fatalf("second answer = %+v", a)
	}
	if planned != 1 {
		t.Fatalf("planned %d times; a limited question must not reach the planner", planned)
	}
}

func TestHandleGivesThePreviousPlanOfTheThreadToThePlanner(t *testing.T) {
	kv := bottest.NewMemKV(nil)
	var prevs []*planner.Plan
	p := planFunc(func(_ context.Context, q string, prev *planner.Plan) (planner.Plan, error) {
		prevs = append(prevs, prev)
		return lookupPlan(q), nil
	})
	q := queryFunc(func(context.Context, string) (analytics.Result, error) { return oneCell, nil })
	mk := func() *bot.Bot { // a new process each time, sharing the KV
		b, _ := newTestBot(t, p, q, func(c *bot.Config) { c.Threads = bot.NewKVThreads(kv, 0, 0) })
		return b
	}
	m := bot.Message{Platform: "cli", Thread: "t1"}
	m.Text = "Dragonfly at 8 cores"
	mk().Handle(t.Context(), m)
	m.Text = "what about valkey?"
	mk().Handle(t.Context(), m)
	other := bot.Message{Platform: "cli", Thread: "t2", Text: "and the p99?"}
	mk().Handle(t.Context(), other)
	if prevs[0] != nil || prevs[1] == nil || prevs[1].Question != "Dragonfly at 8 cores" || prevs[2] != nil {
		t.Fatalf("previous plans seen by the planner: %v, %v, %v", prevs[0], prevs[1], prevs[2])
	}
	b := mk()
	if err := b.Reset(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	m.Text = "and the p99?"
	b.Handle(t.Context(), m)
	if prevs[3] != nil {
		t.Fatalf("after Reset the planner still saw %v", prevs[3])
	}
}

// The real dependencies satisfy the bot's consumer-side interfaces.
var (
	_ bot.Planner   = (*planner.Planner)(nil)
	_ bot.Querier   = (*analytics.Store)(nil)
	_ bot.Knowledge = (*knowledge.Base)(nil)
	_ bot.KV        = (*analytics.KV)(nil)
)
