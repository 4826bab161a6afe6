package planner

import "testing"

// The unbound detector skips a family whose gate the question fails; the
// gate must never skip a family whose phrases are in the question.
func TestUnboundGatesNeverHideAPhrase(t *testing.T) {
	l := newUnboundLexicon()
	texts := []string{"Mixed Reads And Writes", "UNPIPELINED", "Non-Pipelined at 50/50", "P99.9 Latency", "KB/s", "Bulk Loads"}
	texts = append(texts, corpusQuestions(t)...)
	for _, text := range texts {
		lower, ascii := asciiLower(text)
		for i, f := range l.families {
			if ascii && !l.gates[i].admits(lower) && f.phrases.MatchString(text) {
				t.Errorf("the gate of %s skips %q, which its phrases match", f.phrases, text)
			}
		}
	}
}
