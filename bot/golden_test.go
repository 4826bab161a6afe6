package bot_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

var update = flag.Bool("update", false, "rewrite the golden answers under testdata/answers")

// goldenCase is one file under testdata/answers: the expected kind, one or
// more questions asked in one thread, a separator line, and the full
// Markdown answer to the last question.
type goldenCase struct {
	name      string
	path      string
	kind      bot.Kind
	questions []string
	want      string
}

const goldenSeparator = "=========="

func readGolden(t testing.TB) []goldenCase {
	t.Helper()
	files, err := filepath.Glob("testdata/answers/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, body, _ := strings.Cut(string(raw), goldenSeparator+"\n")
		c := goldenCase{name: strings.TrimSuffix(filepath.Base(f), ".md"), path: f, want: body}
		for _, l := range strings.Split(head, "\n") {
			switch {
			case strings.HasPrefix(l, "kind: "):
				c.kind = bot.Kind(strings.TrimPrefix(l, "kind: "))
			case strings.HasPrefix(l, "Q: "):
				c.questions = append(c.questions, strings.TrimPrefix(l, "Q: "))
			case strings.TrimSpace(l) == "":
			default:
				t.Fatalf("%s: unexpected header line %q", f, l)
			}
		}
		if c.kind == "" || len(c.questions) == 0 {
			t.Fatalf("%s: needs a kind line and at least one Q: line", f)
		}
		cases = append(cases, c)
	}
	return cases
}

func writeGolden(t *testing.T, c goldenCase, md string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("kind: " + string(c.kind) + "\n")
	for _, q := range c.questions {
		b.WriteString("Q: " + q + "\n")
	}
	b.WriteString(goldenSeparator + "\n")
	b.WriteString(md)
	if err := os.WriteFile(c.path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var anyDigit = regexp.MustCompile(`[0-9]`)

// vocabularyLine is help's list of the words the reader reads: it grows
// with every synonym added to the planner's lexicon, so golden files hold
// a stand-in for it, and TestHelpListsTheReadersVocabulary (bot/compose)
// checks the list itself. It ends at a newline, or at the escaped one of
// a JSON string.
var vocabularyLine = regexp.MustCompile(`Words I read — [^\n\\"]*`)

// stableVocabulary replaces help's vocabulary list by its stand-in.
func stableVocabulary(s string) string {
	return vocabularyLine.ReplaceAllString(s, "Words I read — (the reader's lexicon, per slot).")
}

// TestGoldenAnswers asks every golden question through the real bot and
// checks the kind, the truth of every number (the tracer) and the exact
// Markdown. Run with -update to rewrite the Markdown after reviewing it.
func TestGoldenAnswers(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	tr := newTracer(env.Store.Runs(), env.Knowledge)
	cases := readGolden(t)
	if len(cases) < 60 {
		t.Errorf("%d golden answers; want at least 60", len(cases))
	}
	kinds := map[bot.Kind]int{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a bot.Answer
			for _, q := range c.questions {
				a = env.Ask(t, "golden-"+c.name, q)
			}
			md := bot.Markdown(a)
			kinds[a.Kind]++
			if a.Kind != c.kind {
				t.Errorf("kind %s, want %s", a.Kind, c.kind)
			}
			for _, p := range tr.trace(a, md, c.questions) {
				t.Errorf("%s", p)
			}
			checkKindRules(t, a, md)
			checkReplyLayer(t, a, md)
			got := stableVocabulary(md)
			if *update {
				writeGolden(t, c, got)
				return
			}
			if got != c.want {
				t.Errorf("answer differs from %s (run with -update after review)\n%s", c.path, firstDifference(got, c.want))
			}
		})
	}
	for _, k := range []bot.Kind{bot.KindAnswer, bot.KindClaim, bot.KindNoData, bot.KindDefinition, bot.KindOutOfScope, bot.KindHelp, bot.KindClarify} {
		if kinds[k] == 0 {
			t.Errorf("no golden answer of kind %s", k)
		}
	}
}

// checkKindRules checks what every answer of a kind must (not) contain.
func checkKindRules(t *testing.T, a bot.Answer, md string) {
	t.Helper()
	switch a.Kind {
	case bot.KindAnswer:
		if len(a.Sources.RunIDs) == 0 && len(a.Sources.Entries) == 0 {
			t.Errorf("a numeric answer cites neither runs nor a measured table")
		}
		if len(a.Rows) > 0 && (len(a.Sources.Filters) == 0 || !strings.Contains(md, "median") && !strings.Contains(md, "single run")) {
			t.Errorf("an answer from runs must show its filters and say median or single run")
		}
		if a.PlainWords == "" {
			t.Errorf("no plain-words line")
		}
	case bot.KindClaim:
		if a.Claim == nil || a.Claim.URL == "" || !strings.Contains(md, "not measured here") || !strings.Contains(md, "ground truth") {
			t.Errorf("a claim must be labelled with its source and set against the measurements")
		}
	case bot.KindNoData:
		if !strings.Contains(strings.ToLower(md), "never measured") && !strings.Contains(md, "No measured run") {
			t.Errorf("no_data must say what was never measured")
		}
		if len(a.Rows) != 0 {
			t.Errorf("no_data carries rows: %d", len(a.Rows))
		}
	case bot.KindOutOfScope:
		if anyDigit.MatchString(md) {
			t.Errorf("out_of_scope must contain no digits:\n%s", md)
		}
		if len(a.Body) > 1 {
			t.Errorf("out_of_scope is one short paragraph, got %d", len(a.Body))
		}
	case bot.KindDefinition:
		cited := false
		for _, e := range a.Sources.Entries {
			if strings.HasPrefix(e.ID, "term:") || strings.HasPrefix(e.ID, "engine:") {
				cited = true
			}
		}
		if !cited || strings.Contains(a.Headline, "(term:") || strings.Contains(a.Headline, "(engine:") {
			t.Errorf("a definition cites its knowledge entry (term:… or engine:…) and keeps its id out of the headline")
		}
		if len(a.Rows) > 0 && (len(a.Sources.Filters) == 0 || len(a.Sources.RunIDs) == 0 || !strings.Contains(md, "median")) {
			t.Errorf("a definition's measured headline must show its filters, run IDs and say median")
		}
	}
	if a.Kind == bot.KindClarify && a.Interpretation != "" && strings.HasPrefix(a.Interpretation, "Not understood") {
		t.Errorf("a not-understood answer shows the reason as text, not as a reading of the question")
	}
}

// checkReplyLayer checks the two layers of an answer: a reply of at most
// four lines and 600 visible characters whose first line answers (a
// claim's verdict first), and nothing of the whole answer missing from
// reply + evidence.
func checkReplyLayer(t *testing.T, a bot.Answer, md string) {
	t.Helper()
	l := bot.Split(a)
	reply := compose.ReplyMarkdown(l.Reply, "in the thread")
	lines := strings.Split(strings.TrimSuffix(reply, "\n"), "\n")
	if len(lines) > compose.MaxReplyLines || compose.Visible(reply) > compose.MaxReplyVisible {
		t.Errorf("reply has %d lines and %d visible characters; want ≤ %d and ≤ %d:\n%s", len(lines), compose.Visible(reply), compose.MaxReplyLines, compose.MaxReplyVisible, reply)
	}
	if strings.TrimSpace(lines[0]) == "" {
		t.Errorf("the reply's first line is empty")
	}
	if a.Kind == bot.KindClaim && a.Claim != nil && a.Claim.Verdict != "" {
		verdict := strings.TrimSuffix(a.Claim.Verdict, ".")
		if !strings.HasPrefix(lines[0], "**"+verdict) && !strings.HasPrefix(lines[0], "**Verdict") {
			t.Errorf("a claim's reply starts with its verdict %q, got %q", verdict, lines[0])
		}
	}
	for _, line := range strings.Split(compose.EvidenceMarkdown(a), "\n") {
		if !strings.Contains(md, line) {
			t.Errorf("the whole answer lost a line: %q", line)
		}
	}
}

// TestHelpExamplesAreAnsweredNotRefused runs every example the help answer
// and the "not understood" answer offer through the bot.
func TestHelpExamplesAreAnsweredNotRefused(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	help := env.Ask(t, "", "help")
	if help.Kind != bot.KindHelp || len(help.Examples) == 0 {
		t.Fatalf("help answer = %+v", help)
	}
	clarify := env.Ask(t, "", "the nimble one with the tiny blobs, how did it fare")
	if clarify.Kind != bot.KindClarify || len(clarify.Examples) == 0 {
		t.Fatalf("not-understood answer = %+v", clarify)
	}
	for _, q := range append(help.Examples, clarify.Examples...) {
		t.Run(q, func(t *testing.T) {
			a := env.Ask(t, "", q)
			switch a.Kind {
			case bot.KindAnswer, bot.KindClaim, bot.KindDefinition:
			default:
				t.Errorf("example %q got kind %s: %s", q, a.Kind, a.Headline)
			}
		})
	}
}

// firstDifference shows the first line where got and want part, with a
// little context.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d\n--- got\n%s\n--- want\n%s", i+1, gl, wl)
		}
	}
	return ""
}
