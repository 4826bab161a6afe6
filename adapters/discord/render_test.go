package discord

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// TestEmbedsGolden shows exactly what the bot posts (the message JSON) for a
// claim answer, a no_data answer and help.
func TestEmbedsGolden(t *testing.T) {
	cases := []struct {
		name string
		a    bot.Answer
	}{
		{"claim", claimAnswer()},
		{"no_data", noDataAnswer()},
		{"help", helpAnswer()},
	}
	got := map[string][]*discordgo.MessageSend{}
	for _, c := range cases {
		for _, m := range renderAnswer(c.a, false) {
			checkLimits(t, c.name, m.Embeds)
			got[c.name] = append(got[c.name], &discordgo.MessageSend{Content: m.Content, Embeds: m.Embeds, AllowedMentions: noMentions()})
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep filters readable: && rather than \u0026\u0026
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	path := filepath.Join("testdata", "embeds.golden.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(b) != string(want) {
		t.Errorf("embeds differ from %s (run go test -update and review the diff):\n%s", path, b)
	}
}

// checkLimits fails when a message breaks one of Discord's embed limits.
func checkLimits(t testing.TB, what string, embeds []*discordgo.MessageEmbed) {
	t.Helper()
	if len(embeds) == 0 || len(embeds) > maxEmbeds {
		t.Errorf("%s: %d embeds, want 1 to %d", what, len(embeds), maxEmbeds)
	}
	total := 0
	for i, e := range embeds {
		where := fmt.Sprintf("%s embed %d", what, i+1)
		if textLen(e.Title) > maxTitle {
			t.Errorf("%s: title of %d", where, textLen(e.Title))
		}
		if textLen(e.Description) > maxDescription {
			t.Errorf("%s: description of %d", where, textLen(e.Description))
		}
		if len(e.Fields) > maxFields {
			t.Errorf("%s: %d fields", where, len(e.Fields))
		}
		for _, f := range e.Fields {
			if textLen(f.Name) > maxFieldName || textLen(f.Value) > maxFieldValue || f.Name == "" || f.Value == "" {
				t.Errorf("%s: field %q of %d/%d", where, f.Name, textLen(f.Name), textLen(f.Value))
			}
		}
		if e.Description == "" && len(e.Fields) == 0 && e.Title == "" {
			t.Errorf("%s: empty embed", where)
		}
		if strings.Count(e.Description, fence)%2 != 0 {
			t.Errorf("%s: a code block is left open in the description", where)
		}
		total += embedChars(e)
	}
	if total > maxEmbedChars {
		t.Errorf("%s: %d characters in the message's embeds, limit %d", what, total, maxEmbedChars)
	}
}

// hugeAnswer is an answer far beyond one message: long body, a 150-row
// table, many caveats, hundreds of run IDs and long filters.
func hugeAnswer() bot.Answer {
	a := claimAnswer()
	a.Body = nil
	for i := range 30 {
		a.Body = append(a.Body, fmt.Sprintf("Paragraph %02d: ", i)+strings.Repeat("Dragonfly’s throughput at 48 cores — measured — ", 9))
	}
	a.Table = &bot.Table{Columns: []string{"Series", "Cores", "Pipeline", "ops/s (median)", "p99 ms"}}
	for i := range 150 {
		a.Table.Rows = append(a.Table.Rows, []string{fmt.Sprintf("Series number %03d", i), "48", "16", "15,473,658", "2.423"})
	}
	a.Caveats = nil
	for i := range 30 {
		a.Caveats = append(a.Caveats, fmt.Sprintf("Caveat %02d: ", i)+strings.Repeat("latency is measured at the client. ", 6))
	}
	a.Sources.RunIDs = nil
	for i := range 400 {
		a.Sources.RunIDs = append(a.Sources.RunIDs, fmt.Sprintf("run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep%d", i))
	}
	a.Sources.Filters = []string{strings.Repeat(`engine == "dragonfly" && cores == 48 || `, 40) + "false"}
	return a
}

func TestRenderingStaysWithinDiscordsLimits(t *testing.T) {
	tests := []struct {
		name  string
		a     bot.Answer
		chart bool
	}{
		{"a huge answer", hugeAnswer(), false},
		{"a huge answer with a chart", hugeAnswer(), true},
		{"an answer with only a headline", bot.Answer{Kind: bot.KindOutOfScope, Headline: "I only know these five engines."}, false},
		{"an empty answer", bot.Answer{}, false},
		{"a headline longer than a description", bot.Answer{Kind: bot.KindAnswer, Headline: strings.Repeat("word ", 1000)}, false},
		{"a field line with no spaces", bot.Answer{Kind: bot.KindAnswer, Caveats: []string{strings.Repeat("x", 3000)}}, false},
		{"emoji counted as two units", bot.Answer{Kind: bot.KindAnswer, Body: []string{strings.Repeat("📈", 3000)}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := renderAnswer(tt.a, tt.chart)
			for i, m := range msgs {
				checkLimits(t, fmt.Sprintf("message %d", i+1), m.Embeds)
			}
			img := msgs[0].Embeds[0].Image
			if tt.chart != (img != nil && img.URL == "attachment://chart.png") {
				t.Errorf("chart image %v with chart=%v", img, tt.chart)
			}
		})
	}
}

func TestTheTableIsAnAlignedCodeBlock(t *testing.T) {
	got := codeTable(bot.Table{
		Columns: []string{"Series", "ops/s"},
		Rows:    [][]string{{"Dragonfly (single process)", "15.5M"}, {"Redis Cluster — realistic", "4.6M"}},
	})
	want := "```\n" +
		"Series                      ops/s\n" +
		"--------------------------  -----\n" +
		"Dragonfly (single process)  15.5M\n" +
		"Redis Cluster — realistic   4.6M\n" +
		"```"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRunIDsListTheFirstEightThenACount(t *testing.T) {
	ids := make([]string, 11)
	for i := range ids {
		ids[i] = fmt.Sprintf("run-%d", i)
	}
	got := runIDList(ids)
	if !strings.HasSuffix(got, "`run-7`\nand 3 more") || strings.Contains(got, "run-8") {
		t.Errorf("got %q", got)
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"short text stays whole", "a\nb", 10, []string{"a\nb"}},
		{"lines are kept whole when they fit", "aaaa\nbbbb\ncccc", 9, []string{"aaaa\nbbbb", "cccc"}},
		{"a long line breaks after a space", "aaaa bbbb cccc", 10, []string{"aaaa bbbb ", "cccc"}},
		{"a word longer than the limit is cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"a code block cut in two is closed and reopened", "```\n111\n222\n333\n```", 13,
			[]string{"```\n111\n```", "```\n222\n```", "```\n333\n```"}},
		{"text after a code block is not fenced", "```\n1\n```\nplain text", 12, []string{"```\n1\n```", "plain text"}},
		{"units are UTF-16", "📈📈📈", 4, []string{"📈📈", "📈"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitText(tt.in, tt.max)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("splitText(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
			for _, p := range got {
				if textLen(p) > tt.max {
					t.Errorf("piece %q is %d units, over %d", p, textLen(p), tt.max)
				}
			}
		})
	}
}

func BenchmarkRenderAnswer(b *testing.B) {
	for _, c := range []struct {
		name string
		a    bot.Answer
	}{{"claim", claimAnswer()}, {"huge", hugeAnswer()}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				renderAnswer(c.a, true)
			}
		})
	}
}
