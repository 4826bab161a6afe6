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
// native blocks and again in a workspace that refuses them. Each answer is
// one message before anyone clicks: its card, at most four lines and 600
// visible characters, no line ending in "…", no literal "**", a claim's
// starting with its verdict, with Show evidence and Slack's feedback
// buttons. Clicking Show evidence then brings every figure of the whole
// answer, with native tables unless refused.
func TestEveryGoldenAnswerPassesSlacksRules(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	answers := map[string]bot.Answer{}
	for name, qs := range bottest.GoldenQuestions(t, filepath.Join("..", "..", "bot", "testdata", "answers")) {
		for _, q := range qs {
			answers[name] = env.Ask(t, "slack-golden-"+name, q)
		}
	}
	for _, ws := range []workspace{{}, {noTables: true}, {noMarkdown: true}} {
		noTables := ws.noTables
		fs := newFakeSlack(t)
		fs.noTables, fs.noMarkdown = ws.noTables, ws.noMarkdown
		h := newHarness(t, fs, newMemStore(), newFakeBot())
		for name, a := range answers {
			t.Run(name, func(t *testing.T) {
				accepted := func(calls []call) []call {
					var out []call
					for _, c := range calls {
						switch {
						case strings.HasSuffix(c.Method, "(refused)"):
							if ws == (workspace{}) {
								t.Errorf("Slack refused a post: %s %s", c.Method, c.Form.Get("blocks"))
							}
						case c.Method == "chat.postMessage" || c.Method == "chat.postEphemeral":
							out = append(out, c)
						}
					}
					return out
				}
				before := len(fs.allCalls())
				p := place{channel: "C" + name, user: "U1", conversation: name}
				if err := h.a.deliver(t.Context(), p, a); err != nil {
					t.Fatalf("deliver: %v", err)
				}
				posted := accepted(fs.allCalls()[before:])
				if len(posted) == 0 {
					t.Fatal("nothing posted")
				}
				if private(a) {
					return // help and notices go to the asker alone, whole
				}
				if len(posted) != 1 {
					t.Fatalf("%d messages before Show evidence was clicked, want one", len(posted))
				}
				card := posted[0]
				if body := cardBody(t, card); bot.NewCard(a).Lead != "" && body != map[bool]string{true: "section", false: "markdown"}[ws.noMarkdown] {
					t.Errorf("the card's body went as a %q block in a workspace %+v", body, ws)
				}
				checkSlackReply(t, a, card)
				checkCardControls(t, a, card)
				if !bot.NewCard(a).Evidence {
					return
				}
				before = len(fs.allCalls())
				at := place{channel: p.channel, user: "U2", thread: card.TS}
				if err := h.a.showEvidence(t.Context(), at, bot.NewCard(a).ID, p.channel+"/"+card.TS); err != nil {
					t.Fatalf("show evidence: %v", err)
				}
				evidence := accepted(fs.allCalls()[before:])
				for _, c := range evidence {
					if c.Form.Get("thread_ts") != card.TS {
						t.Errorf("evidence posted outside the card's thread: %v", c.Form)
					}
				}
				all := textOfAll(t, append([]call{card}, evidence...))
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
				before = len(fs.allCalls())
				if err := h.a.showEvidence(t.Context(), at, bot.NewCard(a).ID, p.channel+"/"+card.TS); err != nil {
					t.Fatal(err)
				}
				if again := accepted(fs.allCalls()[before:]); len(again) != 0 {
					t.Errorf("a second click posted the evidence again (%d messages)", len(again))
				}
			})
		}
	}
}

// checkCardControls checks a card's controls: Show evidence when there is
// evidence, Slack's feedback buttons on every answer.
func checkCardControls(t *testing.T, a bot.Answer, c call) {
	t.Helper()
	card := bot.NewCard(a)
	evidence, feedback := false, false
	for _, b := range c.blocksOf(t) {
		switch b["type"] {
		case "actions":
			for _, e := range b["elements"].([]any) {
				if e.(map[string]any)["action_id"] == evidenceAction {
					evidence = true
				}
			}
		case "context_actions":
			for _, e := range b["elements"].([]any) {
				if e.(map[string]any)["type"] == "feedback_buttons" {
					feedback = true
				}
			}
		}
	}
	if evidence != card.Evidence || feedback != card.Rated || !card.Rated && a.Kind != bot.KindChatter {
		t.Errorf("a %s card with Show evidence %v (want %v) and feedback %v", a.Kind, evidence, card.Evidence, feedback)
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
		case "markdown":
			// Each paragraph is a line; read as mrkdwn (bold *x*) so one
			// check holds for both bodies.
			s, _ := b["text"].(string)
			for _, para := range strings.Split(s, "\n\n") {
				lines = append(lines, markdownAsMrkdwn(para))
			}
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
	if len(lines) > bot.CardMaxLines || visible > bot.CardMaxChars {
		t.Errorf("the reply has %d lines and %d visible characters:\n%s", len(lines), visible, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if strings.HasSuffix(l, "…") || strings.HasSuffix(l, "…*") || strings.Contains(l, "**") {
			t.Errorf("a reply line cut with … or holding a literal **: %q", l)
		}
	}
	if a.Kind == bot.KindClaim && a.Claim != nil && a.Claim.Verdict != "" {
		v := strings.TrimSuffix(a.Claim.Verdict, ".")
		word := bot.NewCard(a).Verdict
		if !strings.HasPrefix(lines[0], "*"+v) && (word == "" || !strings.HasPrefix(strings.ToLower(lines[0]), "*"+word)) {
			t.Errorf("a claim's reply starts with its verdict %q: %q", v, lines[0])
		}
	}
}

// markdownAsMrkdwn reads a paragraph of a markdown block as the same text
// in mrkdwn: **bold** becomes *bold*, backslash escapes are undone and the
// characters mrkdwn escapes are escaped. A "**" left over is one Markdown
// would show literally.
func markdownAsMrkdwn(md string) string {
	var b strings.Builder
	rs := []rune(md)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && i+1 < len(rs):
			i++
			b.WriteString(escape(string(rs[i])))
		case rs[i] == '*' && i+1 < len(rs) && rs[i+1] == '*':
			i++
			b.WriteString("*")
		default:
			b.WriteString(escape(string(rs[i])))
		}
	}
	return b.String()
}

// cardBody is the type of the block that holds a card's lead: "markdown"
// or "section".
func cardBody(t *testing.T, c call) string {
	t.Helper()
	for _, b := range c.blocksOf(t) {
		if b["type"] == "markdown" || b["type"] == "section" {
			return b["type"].(string)
		}
	}
	return ""
}
