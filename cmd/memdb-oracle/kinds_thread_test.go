package main

import (
	"strings"
	"testing"
)

// TestAskThreadCorrectsAndAnswersTwoAsksAcrossInvocations runs `ask
// --thread` three times in one data directory: a question, a correction of
// its engine, then two asks in one message.
func TestAskThreadCorrectsAndAnswersTwoAsksAcrossInvocations(t *testing.T) {
	dir := t.TempDir()
	first := askJSON(t, dir, "--thread", "k1", "redis at 8 cores")
	if len(first.Rows) == 0 || first.Rows[0].Engine != "redis" {
		t.Fatalf("first answer rows: %+v", first.Rows)
	}
	fixed := askJSON(t, dir, "--thread", "k1", "sorry, I meant Valkey")
	if len(fixed.Rows) == 0 {
		t.Fatalf("the correction has no rows:\n%s", fixed.Text)
	}
	for _, r := range fixed.Rows {
		if r.Engine != "valkey" || r.Cores != 8 {
			t.Errorf("corrected row %s at %d cores, want Valkey at 8", r.Engine, r.Cores)
		}
	}
	if !strings.Contains(fixed.Text, "Redis → Valkey") {
		t.Errorf("the correction does not say what changed:\n%s", fixed.Text)
	}
	two := askJSON(t, dir, "--thread", "k1", "What is pipelining? And how does Valkey scale?")
	i, j := strings.Index(two.Text, "1)"), strings.Index(two.Text, "2)")
	if i < 0 || j < i {
		t.Errorf("the compound answer does not answer both asks in order:\n%s", two.Text)
	}
}
