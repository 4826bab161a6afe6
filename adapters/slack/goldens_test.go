package slack

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// figureRE finds the figures and identifiers a reader must be able to find
// somewhere in the answer: numbers, run IDs.
var figureRE = regexp.MustCompile(`run-s\d[\w-]+|\d[\d.,]*[0-9]|\d`)

// TestEveryGoldenAnswerPassesSlacksRules posts every golden answer through
// the adapter to the fake Slack, which refuses what Slack refuses, with
// native tables and again in a workspace that refuses them. The reply is at
// most four lines and 600 visible characters, a claim's starts with its
// verdict, tables are native unless refused, and every figure of the whole
// answer reaches Slack.
func TestEveryGoldenAnswerPassesSlacksRules(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	answers := map[string]bot.Answer{}
	for name, qs := range bottest.GoldenQuestions(t, filepath.Join("..", "..", "bot", "testdata", "answers")) {
		for _, q := range qs {
			answers[name] = env.Ask(t, "slack-golden-"+name, q)
		}
	}
	for _, noTables := range []bool{false, true} {
		fs := newFakeSlack(t)
		fs.noTables = noTables
		h := newHarness(t, fs, newMemStore(), newFakeBot())
		for name, a := range answers {
			t.Run(name, func(t *testing.T) {
				before := len(fs.allCalls())
				p := place{channel: "C" + name, user: "U1", conversation: name}
				if err := h.a.deliver(t.Context(), p, a); err != nil {
					t.Fatalf("deliver: %v", err)
				}
				calls := fs.allCalls()[before:]
				var accepted []call
				for _, c := range calls {
					switch {
					case strings.HasSuffix(c.Method, "(refused)"):
						if !noTables {
							t.Errorf("Slack refused a post: %s %s", c.Method, c.Form.Get("blocks"))
						}
					case c.Method == "chat.postMessage" || c.Method == "chat.postEphemeral":
						accepted = append(accepted, c)
					}
				}
				if len(accepted) == 0 {
					t.Fatal("nothing posted")
				}
				checkSlackReply(t, a, accepted[0])
				all := textOfAll(t, accepted)
				hasCode := strings.Contains(all, "```")
				if !noTables && hasCode {
					t.Errorf("a table went as a code block although Slack takes native tables")
				}
				if noTables && a.Table != nil && len(a.Table.Rows) > 0 && !hasCode {
					t.Errorf("Slack refused the native table and no monospace table followed")
				}
				plain := unescape(strings.NewReplacer("*", "", "_", "", "`", "").Replace(all))
				for _, fig := range figureRE.FindAllString(compose.EvidenceMarkdown(a), -1) {
					if !strings.Contains(plain, fig) {
						t.Errorf("%q of the whole answer never reached Slack", fig)
					}
				}
			})
		}
	}
}

// checkSlackReply checks the reply message: four lines at most (its
// section and the details line), 600 visible characters, the verdict
// first for a claim.
func checkSlackReply(t *testing.T, a bot.Answer, c call) {
	t.Helper()
	var lines []string
	for _, b := range c.blocksOf(t) {
		switch b["type"] {
		case "section":
			txt, _ := b["text"].(map[string]any)
			s, _ := txt["text"].(string)
			lines = append(lines, strings.Split(s, "\n")...)
		case "context":
			for _, e := range b["elements"].([]any) {
				s, _ := e.(map[string]any)["text"].(string)
				if !strings.Contains(s, "asked:*") {
					lines = append(lines, s)
				}
			}
		}
	}
	visible := 0
	for _, l := range lines {
		visible += len([]rune(unescape(strings.NewReplacer("*", "", "_", "", "`", "").Replace(l))))
	}
	if len(lines) > compose.MaxReplyLines || visible > compose.MaxReplyVisible {
		t.Errorf("the reply has %d lines and %d visible characters:\n%s", len(lines), visible, strings.Join(lines, "\n"))
	}
	if a.Kind == bot.KindClaim && a.Claim != nil && a.Claim.Verdict != "" {
		v := strings.TrimSuffix(a.Claim.Verdict, ".")
		if !strings.HasPrefix(lines[0], "*"+v) && !strings.HasPrefix(lines[0], "*Verdict") {
			t.Errorf("a claim's reply starts with its verdict %q: %q", v, lines[0])
		}
	}
}
