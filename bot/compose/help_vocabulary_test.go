package compose

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// TestHelpListsTheReadersVocabulary: help shows every word the planner's
// lexicon reads, per slot, so a synonym added there is one a user can see.
func TestHelpListsTheReadersVocabulary(t *testing.T) {
	body := strings.Join(composeHelp(planner.Plan{Intent: planner.IntentHelp}).Body, "\n")
	slots := planner.Vocabulary()
	if len(slots) == 0 {
		t.Fatal("the planner lists no vocabulary")
	}
	for _, s := range slots {
		if len(s.Words) == 0 {
			t.Errorf("slot %s lists no words", s.Name)
		}
		if !strings.Contains(body, s.Name+": ") {
			t.Errorf("help does not name the slot %q", s.Name)
		}
		for _, w := range s.Words {
			if !strings.Contains(body, w) {
				t.Errorf("help does not show the %s word %q", s.Name, w)
			}
		}
	}
}
