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

// A long reading (settings left out, words named back) gives way to the
// figure: the first line still holds the measured number it leads to.
func TestALongReadingLeavesTheFigureInTheFirstLine(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, q := range []string{
		"dragonfly --proactor_threads=8 --lock_on_hashtags, --hz=100, --maxmemory=32gb, mget10 at --pipeline=16: ops/s?",
		"jaki silnik przy valkey -c 20 -t 4 --key-maximum=5000000 at 8 cores, p99?",
	} {
		t.Run(q, func(t *testing.T) {
			a := env.Ask(t, "", q)
			first := compose.Split(a).Reply.Lines[0]
			if !strings.Contains(a.Headline, ". ") {
				t.Fatalf("no reading before the answer: %s", a.Headline)
			}
			answer := a.Headline[strings.LastIndex(a.Headline, ". ")+2:]
			figure := strings.Fields(answer)
			var number string
			for _, w := range figure {
				if strings.ContainsAny(w, "0123456789") && (strings.HasSuffix(w, "M") || strings.HasSuffix(w, "K") || strings.Contains(w, ".")) {
					number = w
					break
				}
			}
			if number == "" || !strings.Contains(first, number) {
				t.Errorf("the first line lost the figure %q of %q:\n%s", number, answer, first)
			}
		})
	}
}
