package bot_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestGoldenJSON checks the `ask --json` form of every golden answer whose
// file name starts with "kind-" (the plan kinds of issue 19) against
// testdata/json/NAME.json, encoded exactly as `ask --json` encodes it. Run
// with -update to rewrite after review.
func TestGoldenJSON(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	n := 0
	for _, c := range readGolden(t) {
		if !strings.HasPrefix(c.name, "kind-") {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) {
			var a bot.Answer
			for _, q := range c.questions {
				a = env.Ask(t, "json-"+c.name, q)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(bot.JSON(a)); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "json", c.name+".json")
			got := stableVocabulary(buf.String())
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("JSON differs from %s (run with -update after review)\n%s", path, firstDifference(got, string(want)))
			}
		})
	}
	if n < 10 {
		t.Errorf("%d kind- golden answers; want one per new kind at least", n)
	}
}
