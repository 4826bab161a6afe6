package bot_test

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestCorrectionsAndCompoundQuestionsKeepTheirThreadOnEveryPlatform asks a
// question, corrects it, asks two things at once and corrects the second,
// in one thread per platform: each correction replaces one slot of the
// thread's last plan and says so.
func TestCorrectionsAndCompoundQuestionsKeepTheirThreadOnEveryPlatform(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, platform := range []string{"cli", "slack", "discord"} {
		t.Run(platform, func(t *testing.T) {
			ask := func(q string) bot.Answer {
				return env.Bot.Handle(t.Context(), bot.Message{Platform: platform, Channel: "C1", Thread: "T-" + platform, User: "U1", Text: q, Received: env.Clock.Now()})
			}
			first := ask("redis at 8 cores")
			if len(first.Rows) == 0 || first.Rows[0].Engine != "redis" {
				t.Fatalf("first answer rows: %+v", first.Rows)
			}
			fixed := ask("sorry, I meant Valkey")
			if len(fixed.Rows) == 0 {
				t.Fatalf("the correction has no rows: %s", fixed.Headline)
			}
			for _, r := range fixed.Rows {
				if r.Engine != "valkey" || r.Cores != 8 {
					t.Errorf("corrected row %s at %d cores, want Valkey at 8", r.Engine, r.Cores)
				}
			}
			if !strings.Contains(bot.Markdown(fixed), "Redis → Valkey") {
				t.Errorf("the correction does not say what changed")
			}
			two := ask("What is pipelining? And how does Valkey scale?")
			if !strings.HasPrefix(two.Headline, "1) ") || !strings.Contains(bot.Markdown(two), "2) ") {
				t.Errorf("compound answer does not answer both asks in order: %q", two.Headline)
			}
			again := ask("make that 16 cores")
			if len(again.Rows) == 0 {
				t.Fatalf("no rows after correcting the compound's last ask: %s", again.Headline)
			}
			for _, r := range again.Rows {
				if r.Engine != "valkey" || r.Cores != 16 {
					t.Errorf("row %s at %d cores, want Valkey at 16", r.Engine, r.Cores)
				}
			}
		})
	}
}
