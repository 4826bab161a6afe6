package cli

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestAlignTables(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "columns of a ragged table line up",
			in: "Headline.\n\n" +
				"| Series | Cores | Throughput |\n" +
				"|---|---|---:|\n" +
				"| Dragonfly (single process) | 48 | 15.5M ops/s |\n" +
				"| Redis Cluster — realistic (one normal client) | 48 | 4.6M ops/s |\n" +
				"\nSources: x",
			want: "Headline.\n\n" +
				"| Series                                        | Cores |  Throughput |\n" +
				"| --------------------------------------------- | ----- | ----------: |\n" +
				"| Dragonfly (single process)                    | 48    | 15.5M ops/s |\n" +
				"| Redis Cluster — realistic (one normal client) | 48    |  4.6M ops/s |\n" +
				"\nSources: x",
		},
		{
			name: "escaped pipes stay inside their cell",
			in:   "| a | b |\n|-|-|\n| x \\| y | z |",
			want: "| a      | b   |\n| ------ | --- |\n| x \\| y | z   |",
		},
		{
			name: "short rows are padded with empty cells",
			in:   "| a | b |\n|---|---|\n| x |",
			want: "| a   | b   |\n| --- | --- |\n| x   |     |",
		},
		{
			name: "pipe lines without a separator row are left alone",
			in:   "| not | a table |\n| really |",
			want: "| not | a table |\n| really |",
		},
		{
			name: "text without tables is unchanged",
			in:   "plain **Markdown**\n- item | with pipe\n",
			want: "plain **Markdown**\n- item | with pipe\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AlignTables(tt.in, 0); got != tt.want {
				t.Errorf("AlignTables:\n got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTextAlignsTheAnswerTable(t *testing.T) {
	a := bot.Answer{
		Kind:     bot.KindAnswer,
		Headline: "Dragonfly leads.",
		Table: &bot.Table{
			Columns: []string{"Series", "Throughput"},
			Rows:    [][]string{{"Dragonfly (single process)", "15.5M ops/s"}, {"KeyDB (single process)", "1.2M ops/s"}},
		},
	}
	got := Text(a, DefaultWidth)
	want := "| Series                     | Throughput  |\n" +
		"| -------------------------- | ----------- |\n" +
		"| Dragonfly (single process) | 15.5M ops/s |\n" +
		"| KeyDB (single process)     | 1.2M ops/s  |"
	if !strings.Contains(got, want) {
		t.Errorf("Text(a) has no aligned table:\n%s\nwant it to contain:\n%s", got, want)
	}
	if !strings.HasPrefix(got, "**Dragonfly leads.**") {
		t.Errorf("Text(a) does not start with the Markdown headline:\n%s", got)
	}
}

func TestAlignTablesFitsTheTerminalWidth(t *testing.T) {
	table := "Before.\n\n" +
		"| Series | Cores | Throughput |\n" +
		"|---|---:|---:|\n" +
		"| Dragonfly (single process) | 48 | 15.5M ops/s |\n" +
		"| Redis Cluster — ceiling | | 9.1M ops/s |\n" +
		"\nAfter."
	tests := []struct {
		name  string
		width int
		want  string
	}{
		{
			name:  "a table that fits stays a grid",
			width: 60,
			want: "Before.\n\n" +
				"| Series                     | Cores |  Throughput |\n" +
				"| -------------------------- | ----: | ----------: |\n" +
				"| Dragonfly (single process) |    48 | 15.5M ops/s |\n" +
				"| Redis Cluster — ceiling    |       |  9.1M ops/s |\n" +
				"\nAfter.",
		},
		{
			name:  "a table wider than the terminal becomes one line per row, no cell lost",
			width: 40,
			want: "Before.\n\n" +
				"- **Dragonfly (single process)** — Cores 48 · Throughput 15.5M ops/s\n" +
				"- **Redis Cluster — ceiling** — Throughput 9.1M ops/s\n" +
				"\nAfter.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AlignTables(table, tt.width); got != tt.want {
				t.Errorf("AlignTables(width %d):\n got:\n%s\nwant:\n%s", tt.width, got, tt.want)
			}
		})
	}
}
