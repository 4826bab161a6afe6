package bot_test

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

const cardsGolden = "testdata/cards.txt"

// TestEveryGoldenAnswerHasACompactCard derives the card of every golden
// answer and checks what a phone shows: at most four lines and 600
// characters, no line ending in "…", no literal "**", a lead that
// answers, feedback on every answer that asks something, and "Read as"
// only where a default decided the answer. The cards are kept in
// testdata/cards.txt (rewritten with -update after review).
func TestEveryGoldenAnswerHasACompactCard(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	var out strings.Builder
	for _, c := range readGolden(t) {
		var a bot.Answer
		for _, q := range c.questions {
			a = env.Ask(t, "card-"+c.name, q)
		}
		card := bot.NewCard(a)
		lines := card.Text()
		total := 0
		for _, l := range lines {
			total += utf8.RuneCountInString(l)
			if strings.HasSuffix(l, "…") || strings.Contains(l, "**") || strings.TrimSpace(l) == "" {
				t.Errorf("%s: card line %q ends in …, holds ** or is empty", c.name, l)
			}
		}
		if card.Lead == "" || len(lines) > bot.CardMaxLines || total > bot.CardMaxChars {
			t.Errorf("%s: card of %d lines, %d characters, lead %q", c.name, len(lines), total, card.Lead)
		}
		if card.Rated != (a.Kind != bot.KindHelp && a.Kind != bot.KindError && a.Kind != bot.KindRateLimited && a.Kind != bot.KindChatter) {
			t.Errorf("%s: a %s card rated=%v", c.name, a.Kind, card.Rated)
		}
		readAs := strings.Contains(strings.Join(lines, "\n"), "Read as:")
		if readAs && !strings.Contains(a.Interpretation, "defaults: ") {
			t.Errorf("%s: the card says how it was read though no default decided it", c.name)
		}
		if a.Kind == bot.KindClarify && len(card.Choices) != len(a.Choices) {
			t.Errorf("%s: a clarify card with %d of %d choices", c.name, len(card.Choices), len(a.Choices))
		}
		out.WriteString("## " + c.name + " [" + string(a.Kind))
		if card.Verdict != "" {
			out.WriteString(", verdict " + card.Verdict)
		}
		out.WriteString("]\n")
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		for i, ch := range card.Choices {
			out.WriteString("  (" + string(rune('1'+i)) + ") " + ch + "\n")
		}
		out.WriteString("\n")
	}
	got := stableVocabulary(out.String())
	if *update {
		if err := os.WriteFile(cardsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cardsGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("cards differ from %s (run with -update after review)\n%s", cardsGolden, firstDifference(got, string(want)))
	}
}

func TestFingerprintFollowsWhatTheAnswerSaysAndRestsOn(t *testing.T) {
	a := bot.Answer{Kind: bot.KindAnswer, Headline: "Dragonfly: 15.5M ops/s.", Sources: bot.Sources{RunIDs: []string{"r1"}}}
	b := a
	b.Body = []string{"different prose, same answer"}
	c := a
	c.Sources.RunIDs = []string{"r2"}
	if bot.Fingerprint(a) != bot.Fingerprint(b) || bot.Fingerprint(a) == bot.Fingerprint(c) || len(bot.Fingerprint(a)) != 12 {
		t.Errorf("fingerprints %s %s %s", bot.Fingerprint(a), bot.Fingerprint(b), bot.Fingerprint(c))
	}
}
