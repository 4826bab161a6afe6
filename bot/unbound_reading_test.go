package bot_test

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// Without a model, an answer whose plan applied a default over words that
// named another setting says so on its first line, before its number.
func TestTheFirstLineNamesSettingWordsADefaultReplaced(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, q := range []string{
		"which engine should I use for a leaderboard with heavy writes on a 16 core box",
		"session store with heavy writing on 48 cores",
		"valkey with more writes than reads",
		"dragonfly bulk reads",
		"valkey with huge values at 16 cores",
		"garnet with small items",
		"redis one command at a time at 8 cores",
		"dragonfly with a deep pipeline at 48 cores",
	} {
		t.Run(q, func(t *testing.T) {
			pl, err := env.Planner.Plan(t.Context(), q, nil)
			if err != nil {
				t.Fatal(err)
			}
			a := env.Ask(t, "", q)
			if len(pl.Unbound) == 0 {
				if strings.Contains(a.Headline, "the question mentioned") {
					t.Errorf("no unbound words, yet the first line says so: %s", a.Headline)
				}
				return // the reader bound the words: nothing to state
			}
			first := compose.Split(a).Reply.Lines[0]
			for _, w := range pl.Unbound {
				if !strings.HasPrefix(a.Headline, "Read as ") || !strings.Contains(first, "the question mentioned "+w) {
					t.Errorf("the first line does not state the default applied instead of %q:\n%s", w, first)
				}
			}
			if _, rest, _ := strings.Cut(first, pl.UnboundReading+". "); len(strings.Trim(rest, "*… ")) < 20 {
				t.Errorf("the statement crowds the answer out of the reply's first line:\n%s", first)
			}
		})
	}
}
