package slack

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestCorrectionsAndCompoundQuestionsWorkInASlackThread drives the real bot
// through the fake Slack: a mention, a correction in its thread ("sorry, I
// meant Valkey"), then two asks in one message, each answered in order, in
// the same thread.
func TestCorrectionsAndCompoundQuestionsWorkInASlackThread(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), env.Bot)
	const thread = "1700000101.000100"
	var fixedCard call
	posts := func() string {
		t.Helper()
		var text string
		for _, c := range fs.waitAnswer() {
			fixedCard = c
			assertPostWithinLimits(t, c)
			if c.Form.Get("thread_ts") != thread {
				t.Errorf("answer posted outside the thread: %v", c.Form)
			}
			text += c.textOf(t)
		}
		return text
	}
	h.event(mentionEvent("Ek1", "C1", "U1", thread, "", "<@UBOT> redis at 8 cores"))
	if first := posts(); !strings.Contains(first, "Redis") {
		t.Fatalf("first answer is not about Redis:\n%s", first)
	}
	h.event(mentionEvent("Ek2", "C1", "U1", "1700000102.000100", thread, "<@UBOT> sorry, I meant Valkey"))
	fixed := posts()
	for _, want := range []string{"Redis → Valkey", "Valkey", "8 cores"} {
		if !strings.Contains(fixed, want) {
			t.Errorf("the correction lacks %q:\n%s", want, fixed)
		}
	}
	h.showEvidence(fixedCard, "U1")
	if !strings.Contains(textOfAll(t, fs.waitEvidence()), "valkey-cluster-8c") {
		t.Errorf("the correction's evidence does not cite Valkey's 8-core runs")
	}
	h.event(mentionEvent("Ek3", "C1", "U1", "1700000103.000100", thread, "<@UBOT> What is pipelining? And how does Valkey scale?"))
	two := posts()
	i, j := strings.Index(two, "1)"), strings.Index(two, "2)")
	if i < 0 || j < 0 || j < i {
		t.Errorf("the compound answer does not answer both asks in order:\n%s", two)
	}
}
