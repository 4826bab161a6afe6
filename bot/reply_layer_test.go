package bot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// handwrittenQuestions are the planner corpus's hand-written questions
// (planner/testdata/corpus/handwritten-*.txt, "question => labels").
func handwrittenQuestions(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "planner", "testdata", "corpus", "handwritten-*.txt"))
	if len(files) == 0 {
		t.Skip("no hand-written corpus yet")
	}
	var qs []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if q, _, ok := strings.Cut(l, " => "); ok && !strings.HasPrefix(l, "#") {
				qs = append(qs, strings.TrimSpace(q))
			}
		}
	}
	return qs
}

// TestTheReplyOfEveryHandwrittenQuestionFitsAChatReply asks every
// hand-written corpus question and checks its reply layer: at most four
// lines and 600 visible characters, a claim's verdict first, and nothing
// of the whole answer lost between reply and evidence.
func TestTheReplyOfEveryHandwrittenQuestionFitsAChatReply(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, q := range handwrittenQuestions(t) {
		a := env.Ask(t, "", q)
		if a.Kind == bot.KindError {
			continue // errors are the planner's business, not the layout's
		}
		t.Run(q, func(t *testing.T) {
			checkReplyLayer(t, a, bot.Markdown(a))
			if l := bot.Split(a); len(l.Reply.Lines) == 0 || compose.Visible(l.Reply.Lines[0]) == 0 {
				t.Errorf("no first line")
			}
		})
	}
}
