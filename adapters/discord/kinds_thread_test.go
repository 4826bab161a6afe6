package discord

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestCorrectionsAndCompoundQuestionsWorkInADiscordThread drives the real
// bot through the fake Discord: a mention opens the bot's thread, a
// correction in that thread ("sorry, I meant Valkey") replaces the engine
// of the last question, and two asks in one message are answered in order.
func TestCorrectionsAndCompoundQuestionsWorkInADiscordThread(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	a, fd := restOnly(t, env.Bot, nil)
	fd.addChannel("1001", 11, "100", "900")
	seen := 0
	posted := func() string {
		t.Helper()
		var text []string
		reqs := fd.requests()
		for _, r := range reqs[seen:] {
			if isMessagePost("1001")(r) {
				content, _ := r.JSON["content"].(string)
				text = append(text, content, descriptions(t, r))
				for _, e := range embedsOf(t, r) {
					if fs, ok := e["fields"].([]any); ok {
						for _, f := range fs {
							v, _ := f.(map[string]any)["value"].(string)
							text = append(text, v)
						}
					}
				}
			}
		}
		seen = len(reqs)
		if len(text) == 0 {
			t.Fatalf("nothing was posted in the thread:\n%s", fd.summary())
		}
		return strings.Join(text, "\n")
	}
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> redis at 8 cores", "900")))
	if first := posted(); !strings.Contains(first, "Redis") {
		t.Fatalf("the first answer is not about Redis:\n%s", first)
	}
	a.onMessage(t.Context(), event(t, messageEvent("1002", "1001", "700", human, "<@900> sorry, I meant Valkey", "900")))
	fixed := posted()
	for _, want := range []string{"Redis → Valkey", "Valkey", "8 cores"} {
		if !strings.Contains(fixed, want) {
			t.Errorf("the correction lacks %q:\n%s", want, fixed)
		}
	}
	a.onMessage(t.Context(), event(t, messageEvent("1003", "1001", "700", human, "<@900> What is pipelining? And how does Valkey scale?", "900")))
	two := posted()
	i, j := strings.Index(two, "1)"), strings.Index(two, "2)")
	if i < 0 || j < 0 || j < i {
		t.Errorf("the compound answer does not answer both asks in order:\n%s", two)
	}
}
