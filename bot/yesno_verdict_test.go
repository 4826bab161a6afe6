package bot_test

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestYesNoAnswersStartWithTheWordAsked checks that a yes/no question is
// answered yes or no first, a tie included: "is A faster than B?" with
// the two within 5% is "No — about the same", and its card is level;
// "are they about the same?" with the two within 5% is "Yes".
func TestYesNoAnswersStartWithTheWordAsked(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	tests := []struct {
		question, lead, plain, verdict string
	}{
		{"is redis faster than valkey at 4 cores?", "No — about the same, within 5%: at 4 cores", "No, about the same: ", "about the same"},
		{"is redis slower than valkey at 4 cores?", "No — about the same, within 5%: at 4 cores", "No, about the same: ", "about the same"},
		{"is valkey faster than keydb?", "Yes — ", "Yes: ", "yes"},
		{"is dragonfly faster than redis?", "Partly — ", "Partly: ", "partly"},
		// Asked whether they are level, a tie is the yes.
		{"are redis and valkey about the same at 16 cores?", "Yes — about the same, within 5%: ", "Yes, about the same: ", "about the same"},
		{"is dragonfly about the same as redis at 48 cores?", "No — at 48 cores", "No: ", "no"},
	}
	for _, tc := range tests {
		t.Run(tc.question+" opens with "+strings.TrimSpace(tc.lead), func(t *testing.T) {
			a := env.Ask(t, "", tc.question)
			if !strings.HasPrefix(a.Headline, tc.lead) {
				t.Errorf("headline %q, want it to start %q", a.Headline, tc.lead)
			}
			if !strings.HasPrefix(a.PlainWords, tc.plain) {
				t.Errorf("plain words %q, want them to start %q", a.PlainWords, tc.plain)
			}
			if got := bot.NewCard(a).Verdict; got != tc.verdict {
				t.Errorf("card verdict %q, want %q", got, tc.verdict)
			}
		})
	}
}
