package slack

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheRealBotAnswersThroughSlack drives the adapter with the real bot
// (planner, embedded runs, knowledge base) against the fake Slack: a
// mention, a follow-up in its thread without a mention, a never-measured
// question through the slash command, and help. Every message Slack gets
// stays within Block Kit's limits.
func TestTheRealBotAnswersThroughSlack(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), env.Bot)
	posts := func() (text string, calls []call) {
		t.Helper()
		card := fs.waitAnswer()[0]
		h.showEvidence(card, "U1")
		for _, c := range append([]call{card}, fs.waitEvidence()...) {
			assertPostWithinLimits(t, c)
			calls = append(calls, c)
			text += c.textOf(t)
		}
		return text, calls
	}

	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Is Dragonfly 25x faster than Redis?"))
	claim, calls := posts()
	for _, c := range calls {
		if c.Form.Get("thread_ts") != "1700000001.000100" {
			t.Fatalf("claim answer outside the mention's thread: %v", c.Form)
		}
	}
	for _, want := range []string{"15.5M", "4.6M", "40.6M", "3.4×", "not measured here", "*Sources*",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1", "claim:dragonfly-25x"} {
		if !strings.Contains(claim, want) {
			t.Errorf("the claim answer lacks %q", want)
		}
	}

	h.event(messageEvent("Ev2", "C1", "channel", "U1", "1700000002.000100", "1700000001.000100", "what about valkey?", ""))
	followUpCard := fs.waitAnswer()[0]
	followUp, calls := followUpCard.textOf(t), []call{followUpCard}
	if calls[0].Form.Get("thread_ts") != "1700000001.000100" || !strings.Contains(followUp, "Valkey") || !strings.Contains(followUp, "48 cores") {
		t.Errorf("the follow-up was not answered in the thread with the earlier conditions:\n%s", followUp)
	}

	h.command("C1", "U1", "Give me the Redis single-process result at 8 cores with pipeline 64.", "T9")
	noData, _ := posts()
	for _, want := range []string{"<@U1> asked:*", "ever measured", "5.0M", "9.2M", "run-s1-20260901-083406-redis-cluster-sat-8c-p16-1-10-d100-rep1"} {
		if !strings.Contains(noData, want) {
			t.Errorf("the no_data answer lacks %q", want)
		}
	}

	h.command("C1", "U1", "help", "T10")
	help := fs.waitFor("response_url", "chat.postMessage")
	if help.Method != "response_url" || help.JSON["response_type"] != "ephemeral" || !strings.Contains(help.textOf(t), "Is Dragonfly 25x faster than Redis?") {
		t.Errorf("help not ephemeral with examples: %s %v", help.Method, help.JSON["response_type"])
	}
}

// assertPostWithinLimits checks a chat.postMessage call against Block
// Kit's limits.
func assertPostWithinLimits(t testing.TB, c call) {
	t.Helper()
	blocks := c.blocksOf(t)
	if c.Form.Get("text") == "" || len(blocks) == 0 || len(blocks) > maxBlocks {
		t.Fatalf("post with %d blocks and text %q", len(blocks), c.Form.Get("text"))
	}
	for _, b := range blocks {
		if tx, ok := b["text"].(map[string]any); ok && len([]rune(tx["text"].(string))) > maxSectionText {
			t.Fatalf("section over %d characters", maxSectionText)
		}
		if els, ok := b["elements"].([]any); ok && len(els) > maxContextElems && b["type"] == "context" {
			t.Fatalf("context with %d elements", len(els))
		}
	}
}
