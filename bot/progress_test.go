package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestHandleReportsTheStagesItGoesThrough checks the steps a surface
// shows while an answer is worked on: each stage starts before it is done,
// in the order the bot really goes through them; a data question runs its
// filters, a repeated one is served from the answers composed before, a
// definition runs none.
func TestHandleReportsTheStagesItGoesThrough(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	// describe writes a step as "stage start" or "stage done" with what it
	// carries that the test can check without copying the answer.
	describe := func(s bot.Step) string {
		d := string(s.Stage) + " start"
		if s.Done {
			d = string(s.Stage) + " done"
		}
		switch {
		case s.Failed:
			d += " failed"
		case s.Cached:
			d += " cached"
		case s.Stage == bot.StageRead && s.Done && s.Reading != "":
			d += " with a reading"
		case s.Stage == bot.StageFilter && !s.Done && strings.Contains(s.Filter, "=="):
			d += " with a filter"
		case s.Stage == bot.StageFilter && s.Done && s.Filters > 0:
			d += " after filters"
		}
		return d
	}
	ask := func(t *testing.T, question string) ([]string, bot.Answer) {
		var steps []string
		ctx := bot.WithProgress(t.Context(), func(s bot.Step) { steps = append(steps, describe(s)) })
		a := env.Bot.Handle(ctx, bot.Message{Platform: "cli", Text: question, Received: env.Clock.Now()})
		return steps, a
	}
	tests := []struct {
		name, question string
		want           []string
	}{
		{"a data question reads, runs its filters, then composes", "Dragonfly at 8 cores",
			[]string{"read start", "read done with a reading", "filter start with a filter", "compose start", "filter done after filters", "compose done"}},
		{"the same question again is served as composed before", "Dragonfly at 8 cores",
			[]string{"read start", "read done cached", "compose start", "compose done cached"}},
		{"a definition runs no filter", "what is pipelining?",
			[]string{"read start", "read done with a reading", "compose start", "compose done"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps, a := ask(t, tc.question)
			if fmt.Sprint(steps) != fmt.Sprint(tc.want) {
				t.Errorf("steps\n%v\nwant\n%v", strings.Join(steps, "\n"), strings.Join(tc.want, "\n"))
			}
			if a.Kind == bot.KindError {
				t.Errorf("answered with an error: %s", a.Headline)
			}
		})
	}
	t.Run("without a progress in the context nothing is reported and the answer is the same", func(t *testing.T) {
		_, withSteps := ask(t, "Valkey at 16 cores")
		plain := env.Ask(t, "", "Valkey at 16 cores")
		if bot.Markdown(plain) != bot.Markdown(withSteps) {
			t.Error("reporting progress changed the answer")
		}
	})
}
