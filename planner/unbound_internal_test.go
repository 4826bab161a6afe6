package planner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The unbound detector skips a family whose gate the question fails; the
// gate must never skip a family whose phrases are in the question.
func TestUnboundGatesNeverHideAPhrase(t *testing.T) {
	l := newUnboundLexicon()
	texts := []string{"Mixed Reads And Writes", "UNPIPELINED", "Non-Pipelined at 50/50", "P99.9 Latency", "KB/s", "Bulk Loads"}
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.txt"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if q, _, ok := strings.Cut(line, " => "); ok {
				texts = append(texts, q)
			}
		}
	}
	for _, text := range texts {
		lower, ascii := asciiLower(text)
		for i, f := range l.families {
			if ascii && !l.gates[i].admits(lower) && f.phrases.MatchString(text) {
				t.Errorf("the gate of %s skips %q, which its phrases match", f.phrases, text)
			}
		}
	}
}
