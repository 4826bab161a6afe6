package discord

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

var figureRE = regexp.MustCompile(`run-s\d[\w-]+|\d[\d.,]*[0-9]|\d`)

// TestEveryGoldenAnswerPassesDiscordsRules posts every golden answer
// through the adapter to the fake Discord, which refuses what Discord
// refuses. The reply is at most four lines and 600 visible characters, a
// claim's starts with its verdict, no code line is wider than 60, and every
// figure of the whole answer reaches Discord.
func TestEveryGoldenAnswerPassesDiscordsRules(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	a, fd := restOnly(t, env.Bot, nil)
	for name, qs := range bottest.GoldenQuestions(t, filepath.Join("..", "..", "bot", "testdata", "answers")) {
		var ans bot.Answer
		for _, q := range qs {
			ans = env.Ask(t, "discord-golden-"+name, q)
		}
		t.Run(name, func(t *testing.T) {
			before := len(fd.requests())
			if err := a.postAnswer(t.Context(), "C"+name, ans, "", nil); err != nil {
				t.Fatalf("Discord refused the answer: %v", err)
			}
			var posts []*request
			for _, r := range fd.requests()[before:] {
				if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/messages") {
					if r.Status != http.StatusOK {
						t.Errorf("Discord refused a message: %d", r.Status)
					}
					posts = append(posts, r)
				}
			}
			if len(posts) == 0 {
				t.Fatal("nothing posted")
			}
			reply := embedsOf(t, posts[0])[0]
			desc, _ := reply["description"].(string)
			lines := strings.Split(desc, "\n")
			if ft, ok := reply["footer"].(map[string]any); ok {
				lines = append(lines, ft["text"].(string))
			}
			visible := 0
			for _, l := range lines {
				visible += compose.Visible(l)
			}
			if len(lines) > compose.MaxReplyLines || visible > compose.MaxReplyVisible {
				t.Errorf("the reply has %d lines and %d visible characters:\n%s", len(lines), visible, strings.Join(lines, "\n"))
			}
			if ans.Kind == bot.KindClaim && ans.Claim != nil && ans.Claim.Verdict != "" {
				v := strings.TrimSuffix(ans.Claim.Verdict, ".")
				if !strings.HasPrefix(lines[0], "**"+v) && !strings.HasPrefix(lines[0], "**Verdict") {
					t.Errorf("a claim's reply starts with its verdict %q: %q", v, lines[0])
				}
			}
			all := allEmbedText(t, posts)
			inCode := false
			for _, l := range strings.Split(all, "\n") {
				if strings.HasPrefix(l, "```") {
					inCode = !inCode
					continue
				}
				if inCode && len([]rune(l)) > maxCodeWidth {
					t.Errorf("a code line %d wide (max %d): %q", len([]rune(l)), maxCodeWidth, l)
				}
			}
			plain := strings.NewReplacer("*", "", "_", "", "`", "").Replace(all)
			for _, fig := range figureRE.FindAllString(compose.EvidenceMarkdown(ans), -1) {
				if !strings.Contains(plain, fig) {
					t.Errorf("%q of the whole answer never reached Discord", fig)
				}
			}
		})
	}
}

// allEmbedText is the text of every embed of the requests: titles,
// descriptions, fields, footers.
func allEmbedText(t *testing.T, rs []*request) string {
	var b strings.Builder
	for _, r := range rs {
		for _, e := range embedsOf(t, r) {
			for _, k := range []string{"title", "description"} {
				if s, ok := e[k].(string); ok {
					b.WriteString(s + "\n")
				}
			}
			fields, _ := e["fields"].([]any)
			for _, f := range fields {
				fm := f.(map[string]any)
				b.WriteString(fm["name"].(string) + "\n" + fm["value"].(string) + "\n")
			}
			if ft, ok := e["footer"].(map[string]any); ok {
				b.WriteString(ft["text"].(string) + "\n")
			}
		}
	}
	return b.String()
}
