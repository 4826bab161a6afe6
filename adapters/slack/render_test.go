package slack

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func TestRenderMatchesGoldenBlockKit(t *testing.T) {
	tests := []struct {
		name   string
		answer bot.Answer
		where  shown
	}{
		{"claim", claimAnswer(), shown{Asker: "U0ASKER", Question: "Is Dragonfly 25x faster than Redis?"}},
		{"no_data", noDataAnswer(), shown{}},
		{"help", helpAnswer(), shown{Command: "/oracle"}},
	}
	for _, tt := range tests {
		t.Run("the "+tt.name+" answer renders as its golden Block Kit JSON", func(t *testing.T) {
			msgs := render(tt.answer, tt.where)
			assertWithinLimits(t, msgs)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(msgs); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			path := filepath.Join("testdata", tt.name+".blocks.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering (go test -update rewrites it); got:\n%s", path, got)
			}
		})
	}
}

func TestRenderShowsTheFactsOfAnAnswer(t *testing.T) {
	msgs := render(claimAnswer(), shown{Asker: "U0ASKER", Question: "Is Dragonfly <!channel> 25x faster?"})
	all := allText(msgs)
	for _, want := range []string{
		"<@U0ASKER> asked:* Is Dragonfly &lt;!channel&gt; 25x faster?", // the question, inert
		"15.5M", "40.6M", "Redis Cluster — fully driven ceiling (one client per shard)",
		"*The claim — Dragonfly's statement, not measured here:* “25x more QPS than Redis”",
		"*one single-threaded Redis process*", // Markdown bold became mrkdwn bold
		"*Their source:* <https://www.dragonflydb.io/docs/getting-started/benchmark>",
		"`engine == \"dragonfly\" &amp;&amp; mode == \"single\"", // filter verbatim, escaped
		"run-s1-20260901-083406-redis-cluster-sat-48c-p16-1-10-d100-rep1",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("rendering lacks %q", want)
		}
	}
	if strings.Contains(all, "<!channel>") {
		t.Error("a question's <!channel> reached Slack unescaped")
	}
	if len(msgs) < 3 {
		t.Fatalf("want the reply, the evidence and its sources as messages, got %d", len(msgs))
	}
	if !strings.Contains(allText(msgs[len(msgs)-1:]), "*Sources*") || strings.Contains(allText(msgs[:1]), "*Sources*") || strings.Contains(allText(msgs[:1]), "15.5M") {
		t.Error("the table and the sources belong in the threaded messages, not the reply")
	}
}

func TestRenderAlwaysProducesAMessage(t *testing.T) {
	msgs := render(bot.Answer{Kind: bot.KindOutOfScope}, shown{})
	assertWithinLimits(t, msgs)
	if len(msgs) != 1 {
		t.Fatalf("%d messages for an empty answer", len(msgs))
	}
}

func TestRenderShowsNearestRowsWhenTheAnswerHasNoTable(t *testing.T) {
	a := noDataAnswer()
	a.Table = nil
	all := allText(render(a, shown{}))
	for _, want := range []string{"*Nearest measured rows*", "Differs in", "5.0M", "35.199", "single run", "pipeline 16, not 64"} {
		if !strings.Contains(all, want) {
			t.Errorf("nearest rows lack %q:\n%s", want, all)
		}
	}
}

func TestRenderListsEightRunIDsThenSaysHowManyMore(t *testing.T) {
	a := claimAnswer()
	a.Sources.RunIDs = nil
	for i := range 20 {
		a.Sources.RunIDs = append(a.Sources.RunIDs, "run-"+string(rune('a'+i)))
	}
	all := allText(render(a, shown{}))
	if !strings.Contains(all, "20 runs: `run-a`") || !strings.Contains(all, "`run-h` and 12 more") || strings.Contains(all, "`run-i`") {
		t.Errorf("run IDs not shown as the first 8 and N more:\n%s", all)
	}
}

func TestRenderSplitsAnOversizeAnswerWithinLimitsWithoutLosingContent(t *testing.T) {
	a := hugeAnswer()
	msgs := render(a, shown{Question: "everything?"})
	assertWithinLimits(t, msgs)
	if len(msgs) < 3 {
		t.Fatalf("want the oversize answer split across several messages, got %d", len(msgs))
	}
	all := allText(msgs)
	for _, r := range a.Table.Rows {
		if !strings.Contains(all, r[0]) {
			t.Fatalf("table row %q lost in splitting", r[0])
		}
	}
	for _, p := range a.Body {
		for _, word := range strings.Fields(p)[:3] {
			if !strings.Contains(all, word) {
				t.Fatalf("body text %q lost in splitting", word)
			}
		}
	}
	if !strings.Contains(all, "paragraph-79 end.") {
		t.Error("the last paragraph's end was cut")
	}
}

// hugeAnswer is far beyond one Slack message: 80 long paragraphs and a
// 600-row table.
func hugeAnswer() bot.Answer {
	a := claimAnswer()
	a.Body = nil
	for i := range 80 {
		a.Body = append(a.Body, "paragraph-"+strconv.Itoa(i)+" "+strings.Repeat("measured medians with conditions ", 40)+"paragraph-"+strconv.Itoa(i)+" end.")
	}
	a.Table = &bot.Table{Columns: []string{"Series", "Cores", "Median ops/s"}}
	for i := range 600 {
		a.Table.Rows = append(a.Table.Rows, []string{"series-row-" + strconv.Itoa(i), strconv.Itoa(i % 48), "1.0M"})
	}
	return a
}

// assertWithinLimits checks every message against Block Kit's limits.
func assertWithinLimits(t testing.TB, msgs []message) {
	t.Helper()
	for i, m := range msgs {
		if m.Text == "" {
			t.Errorf("message %d has no fallback text", i)
		}
		if len(m.Blocks) == 0 || len(m.Blocks) > maxBlocks {
			t.Errorf("message %d has %d blocks", i, len(m.Blocks))
		}
		for j, b := range m.Blocks {
			switch v := b.(type) {
			case *slackgo.SectionBlock:
				if n := utf8.RuneCountInString(v.Text.Text); n > maxSectionText {
					t.Errorf("message %d block %d: section of %d characters", i, j, n)
				}
				if strings.Count(v.Text.Text, "```")%2 != 0 {
					t.Errorf("message %d block %d: unbalanced code fence", i, j)
				}
			case *slackgo.ContextBlock:
				if n := len(v.ContextElements.Elements); n > maxContextElems {
					t.Errorf("message %d block %d: context with %d elements", i, j, n)
				}
				for _, e := range v.ContextElements.Elements {
					if n := utf8.RuneCountInString(e.(*slackgo.TextBlockObject).Text); n > maxSectionText {
						t.Errorf("message %d block %d: context text of %d characters", i, j, n)
					}
				}
			}
		}
	}
}

// allText concatenates every text in the messages' blocks.
func allText(msgs []message) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, bl := range m.Blocks {
			switch v := bl.(type) {
			case *slackgo.SectionBlock:
				b.WriteString(v.Text.Text + "\n")
			case *slackgo.ContextBlock:
				for _, e := range v.ContextElements.Elements {
					b.WriteString(e.(*slackgo.TextBlockObject).Text + "\n")
				}
			case *slackgo.TableBlock:
				for _, row := range v.Rows {
					for _, c := range row {
						b.WriteString(c.(*slackgo.TableRawTextCell).Text + " | ")
					}
					b.WriteString("\n")
				}
			case *slackgo.DataTableBlock:
				for _, row := range dataTableGrid(v) {
					b.WriteString(strings.Join(row, " | ") + "\n")
				}
			}
		}
	}
	return b.String()
}
