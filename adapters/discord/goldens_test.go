package discord

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

var figureRE = regexp.MustCompile(`run-s\d[\w-]+|\d[\d.,]*[0-9]|\d`)

// TestEveryGoldenAnswerPassesDiscordsRules posts every golden answer
// through the adapter to the fake Discord, which refuses what Discord
// refuses (components included). Each answer is one message before anyone
// clicks: its card, at most four lines and 600 visible characters, no line
// ending in "…", no literal "**" left open, a claim's starting with its
// verdict, with Show evidence and 👍/👎. Clicking Show evidence brings every
// figure of the whole answer, no code line wider than 60; a second click
// brings nothing.
func TestEveryGoldenAnswerPassesDiscordsRules(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	a, fd := restOnly(t, env.Bot, nil)
	for name, qs := range bottest.GoldenQuestions(t, filepath.Join("..", "..", "bot", "testdata", "answers")) {
		var ans bot.Answer
		for _, q := range qs {
			ans = env.Ask(t, "discord-golden-"+name, q)
		}
		t.Run(name, func(t *testing.T) {
			posted := func(before int) []*request {
				var posts []*request
				for _, r := range fd.requests()[before:] {
					if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/messages") {
						if r.Status != http.StatusOK {
							t.Errorf("Discord refused a message: %d %v", r.Status, r.JSON)
						}
						posts = append(posts, r)
					}
				}
				return posts
			}
			before := len(fd.requests())
			if err := a.postAnswer(t.Context(), nil, "C"+name, bot.Message{Text: qs[len(qs)-1]}, ans, "", nil); err != nil {
				t.Fatalf("Discord refused the answer: %v", err)
			}
			posts := posted(before)
			if len(posts) == 0 {
				t.Fatal("nothing posted")
			}
			if private(ans) && ans.Kind != bot.KindChatter {
				return // help and notices go whole to the asker
			}
			if len(posts) != 1 {
				t.Fatalf("%d messages before Show evidence, want one", len(posts))
			}
			reply := embedsOf(t, posts[0])[0]
			desc, _ := reply["description"].(string)
			lines := strings.Split(desc, "\n")
			visible := 0
			for _, l := range lines {
				visible += compose.Visible(strings.ReplaceAll(l, "\\", ""))
				if strings.HasSuffix(l, "…") || strings.HasSuffix(l, "…**") || strings.Count(l, "**")%2 != 0 {
					t.Errorf("a reply line cut with … or with ** left open: %q", l)
				}
			}
			if len(lines) > bot.CardMaxLines || visible > bot.CardMaxChars {
				t.Errorf("the reply has %d lines and %d visible characters:\n%s", len(lines), visible, strings.Join(lines, "\n"))
			}
			if ans.Kind == bot.KindClaim && ans.Claim != nil && ans.Claim.Verdict != "" {
				v := strings.TrimSuffix(ans.Claim.Verdict, ".")
				word := bot.NewCard(ans).Verdict
				if !strings.HasPrefix(lines[0], "**"+v) && (word == "" || !strings.HasPrefix(strings.ToLower(lines[0]), "**"+word)) {
					t.Errorf("a claim's reply starts with its verdict %q: %q", v, lines[0])
				}
			}
			card := bot.NewCard(ans)
			buttons := buttonsOf(posts[0])
			if _, ok := buttons[votePrefix+"up:"+card.ID]; ok != card.Rated {
				t.Errorf("a %s card with feedback %v", ans.Kind, ok)
			}
			if _, ok := buttons[evidencePrefix+card.ID]; ok != card.Evidence {
				t.Fatalf("a %s card with Show evidence %v, want %v", ans.Kind, ok, card.Evidence)
			}
			if !card.Evidence {
				return
			}
			click := &discordgo.Interaction{ID: "i-" + name, AppID: "800", Token: "tok-" + name, Type: discordgo.InteractionMessageComponent,
				ChannelID: "C" + name, Message: &discordgo.Message{ID: "m-" + name},
				Data: discordgo.MessageComponentInteractionData{CustomID: evidencePrefix + card.ID, ComponentType: discordgo.ButtonComponent}}
			before = len(fd.requests())
			a.onComponent(t.Context(), click)
			evidence := posted(before)
			all := allEmbedText(t, append(posts, evidence...))
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
			plain := strings.NewReplacer("*", "", "_", "", "`", "", "\\", "").Replace(all)
			for _, fig := range figureRE.FindAllString(compose.EvidenceMarkdown(ans), -1) {
				if !strings.Contains(plain, fig) {
					t.Errorf("%q of the whole answer never reached Discord", fig)
				}
			}
			click.ID = "i2-" + name
			before = len(fd.requests())
			a.onComponent(t.Context(), click)
			if again := posted(before); len(again) != 0 {
				t.Errorf("a second click posted the evidence again (%d messages)", len(again))
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
