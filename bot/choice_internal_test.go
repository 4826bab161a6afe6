package bot

import (
	"slices"
	"strings"
	"testing"
)

func TestChoiceNumberReadsOnlyAPick(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int
		ok   bool
	}{
		{"2", 2, true}, {" 2. ", 2, true}, {"#3", 3, true}, {"option 1", 1, true}, {"the second one", 2, true},
		{"the 2nd please", 2, true}, {"one", 1, true}, {"the last one", -1, true}, {"Choice two", 2, true},
		{"2 cores", 0, false}, {"valkey at 2 cores", 0, false}, {"1 and 2", 0, false},
		{"what about the second engine", 0, false}, {"", 0, false}, {"10", 0, false}, {"thanks", 0, false},
	} {
		n, ok := choiceNumber(tc.text)
		if n != tc.n || ok != tc.ok {
			t.Errorf("choiceNumber(%q) = %d, %v; want %d, %v", tc.text, n, ok, tc.n, tc.ok)
		}
	}
}

func TestSuggestionsFollowWhatIsTyped(t *testing.T) {
	if got := Suggestions("", 25); len(got) == 0 || len(got) > 25 {
		t.Fatalf("nothing typed: %d suggestions", len(got))
	}
	got := Suggestions("how does val", 25)
	if len(got) == 0 || !containsAll(got, "How does Valkey scale?") {
		t.Errorf("“how does val”: %q", got)
	}
	for _, q := range Suggestions("garn", 5) {
		if !strings.Contains(q, "Garnet") {
			t.Errorf("“garn” suggested %q", q)
		}
	}
	if got := Suggestions("zzz", 25); len(got) != 0 {
		t.Errorf("“zzz” suggested %q", got)
	}
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		if !slices.Contains(list, w) {
			return false
		}
	}
	return true
}
