package knowledge

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The private client-experiment rows that the benchmark's author kept out of
// the published data must never surface anywhere in the knowledge base.
func TestNothingMentionsThePrivateClientExperiment(t *testing.T) {
	err := fs.WalkDir(embedded, "data", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(embedded, path)
		if err != nil {
			return err
		}
		low := strings.ToLower(string(b))
		for _, banned := range []string{"goredis", "go-redis", "private client", "private experiment", "private async"} {
			if strings.Contains(low, banned) {
				t.Errorf("%s mentions %q", path, banned)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var (
	quoted   = regexp.MustCompile(`"[^"]*"|“[^”]*”|https?://\S+|` + "`[^`]*`")
	wordOnly = regexp.MustCompile(`[a-z]+[a-z0-9]*`)
)

// prose reduces text to its words, dropping quoted slogans, code, URLs
// and numbers, which may carry over from the sources.
func prose(s string) []string {
	return wordOnly.FindAllString(strings.ToLower(quoted.ReplaceAllString(s, " ")), -1)
}

// TestEntriesAreWrittenInTheProjectsOwnWords fails when any entry shares a
// run of 12 words with the facts sheet it was written from: facts, figures,
// names and quoted slogans carry over, sentences do not.
func TestEntriesAreWrittenInTheProjectsOwnWords(t *testing.T) {
	const run = 12
	// testdata/facts.md is a copy of the facts sheet the entries were
	// written from, kept in the repository so this runs on any clone.
	src, err := os.ReadFile("testdata/facts.md")
	if err != nil {
		t.Fatal(err)
	}
	words := prose(string(src))
	seen := map[string]bool{}
	for i := 0; i+run <= len(words); i++ {
		seen[strings.Join(words[i:i+run], " ")] = true
	}
	b := loadBase(t)
	for _, e := range b.Entries() {
		w := prose(e.Text)
		for i := 0; i+run <= len(w); i++ {
			if s := strings.Join(w[i:i+run], " "); seen[s] {
				t.Errorf("%s repeats the facts sheet word for word: %q", e.ID, s)
				break
			}
		}
	}
}
