package bot_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// stuckModel replies only when its context ends, like a model server that
// accepted the request and went quiet.
type stuckModel struct{}

func (stuckModel) Complete(ctx context.Context, _ string) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

// A model that never replies costs its budget, not the answer: with the
// bot's default deadline and the planner's default (or an oversized)
// model timeout, the question is answered from the rules' own reading, or
// with a clarify offering choices, inside the deadline.
func TestABlockingModelNeverTurnsAQuestionIntoAnError(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, tt := range []struct {
		name     string
		timeout  time.Duration
		question string
		kinds    []bot.Kind
		waited   time.Duration
	}{
		{"a question the rules cannot place, default options", 0, "the nimble one with the tiny blobs, how did it fare",
			[]bot.Kind{bot.KindClarify}, planner.DefaultCompleterTimeout},
		{"a question the rules cannot place, a 60s timeout setting", 60 * time.Second, "the nimble one with the tiny blobs, how did it fare",
			[]bot.Kind{bot.KindClarify}, bot.DefaultDeadline * 3 / 4},
		{"a vague speed question keeps the rules' ranking", 0, "which is quickest?",
			[]bot.Kind{bot.KindAnswer}, planner.DefaultCompleterTimeout},
		{"words the rules left unbound keep the rules' reading", 0, "which engine should I use for a leaderboard with write storms on a 16 core box",
			[]bot.Kind{bot.KindAnswer}, planner.DefaultCompleterTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := planner.New(env.Store, env.Knowledge, planner.Options{Completer: stuckModel{}, CompleterTimeout: tt.timeout})
			b := bot.New(bot.Config{Planner: p, Querier: env.Store, Knowledge: env.Knowledge})
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				a := b.Handle(t.Context(), bot.Message{Platform: "cli", Text: tt.question, Received: start})
				waited := time.Since(start)
				if !containsKind(tt.kinds, a.Kind) {
					t.Errorf("kind %s, want one of %v:\n%s", a.Kind, tt.kinds, a.Headline)
				}
				if waited != tt.waited || waited >= bot.DefaultDeadline {
					t.Errorf("answered after %v, want %v (the deadline is %v)", waited, tt.waited, bot.DefaultDeadline)
				}
				if a.Kind == bot.KindClarify && len(a.Examples) == 0 {
					t.Errorf("a clarify without choices:\n%+v", a)
				}
			})
		})
	}
}

func containsKind(kinds []bot.Kind, k bot.Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}
