package planner

import (
	"reflect"
	"testing"
)

// The unbound detector skips a family whose gate the question fails; the
// gate must never skip a family whose phrases are in the question, and
// the family's word set finds what its regexp finds.
func TestUnboundGatesNeverHideAPhrase(t *testing.T) {
	l := newUnboundLexicon()
	texts := []string{"Mixed Reads And Writes", "UNPIPELINED", "Non-Pipelined at 50/50", "P99.9 Latency", "KB/s", "Bulk Loads"}
	texts = append(texts, corpusQuestions(t)...)
	words := 0
	for _, ws := range l.words {
		if ws != nil {
			words++
		}
	}
	if words < len(l.families)/2 {
		t.Errorf("only %d of %d families match without the regexp", words, len(l.families))
	}
	for _, text := range texts {
		lower, ascii := asciiLower(text)
		for i, f := range l.families {
			if ascii && !l.gates[i].admits(lower) && f.phrases.MatchString(text) {
				t.Errorf("the gate of %s skips %q, which its phrases match", f.phrases, text)
			}
			if ws := l.words[i]; ascii && ws != nil {
				if got, want := ws.findAll(lower, -1, false), f.phrases.FindAllStringIndex(text, -1); !reflect.DeepEqual(got, want) {
					t.Errorf("the words of %s find %v in %q, the regexp %v", f.phrases, got, text, want)
				}
			}
		}
	}
}
