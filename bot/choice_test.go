package bot_test

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestAPickInAClarifyThreadAsksThatChoice answers an ambiguous question
// with choices, then picks one the ways people do in a thread: each pick
// is answered as the chosen question itself.
func TestAPickInAClarifyThreadAsksThatChoice(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	const ambiguous = "dragonfly at 16 cores, not read-heavy"
	for _, tc := range []struct {
		pick string
		n    int
	}{
		{"2", 2}, {"#2", 2}, {"option 2", 2}, {"the second one", 2}, {"I meant the 2nd", 2},
		{"first", 1}, {"the last one", 3}, {"3.", 3},
	} {
		t.Run(tc.pick, func(t *testing.T) {
			thread := "T-" + tc.pick
			ask := func(q string) bot.Answer {
				return env.Bot.Handle(t.Context(), bot.Message{Platform: "slack", Channel: "C1", Thread: thread, User: "U1", Text: q, Received: env.Clock.Now()})
			}
			clarify := ask(ambiguous)
			if clarify.Kind != bot.KindClarify || len(clarify.Choices) < 3 {
				t.Fatalf("%q: kind %s, choices %q", ambiguous, clarify.Kind, clarify.Choices)
			}
			got := ask(tc.pick)
			want := env.Bot.Handle(t.Context(), bot.Message{Platform: "slack", Channel: "C1", Thread: thread + "-direct", User: "U1", Text: clarify.Choices[tc.n-1]})
			if got.Kind == bot.KindClarify || got.Headline != want.Headline {
				t.Fatalf("pick %q answered %s %q, want choice %d %q answered %q", tc.pick, got.Kind, got.Headline, tc.n, clarify.Choices[tc.n-1], want.Headline)
			}
		})
	}
}
