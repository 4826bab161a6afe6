package bottest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GoldenQuestions reads the bot's golden cases under dir (bot/testdata/
// answers as seen from the caller): for each file, its questions, asked in
// one thread; the last one's answer is the golden one.
func GoldenQuestions(t testing.TB, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) < 60 {
		t.Fatalf("golden answers under %s: %d files, %v", dir, len(files), err)
	}
	out := map[string][]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(raw), "==========\n")
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		for _, l := range strings.Split(head, "\n") {
			if q, ok := strings.CutPrefix(l, "Q: "); ok {
				out[name] = append(out[name], q)
			}
		}
	}
	return out
}
