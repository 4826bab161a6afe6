package cli

import "testing"

func TestStyleMarkdownTurnsMarksIntoTerminalStyles(t *testing.T) {
	tests := []struct {
		name, md, color, plain string
	}{
		{"strong is bold", "**Dragonfly: 3.7M ops/s.**", "\x1b[1mDragonfly: 3.7M ops/s.\x1b[22m", "Dragonfly: 3.7M ops/s."},
		{"a reading line is dim", "_Read as: Dragonfly, 8 cores_", "\x1b[2mRead as: Dragonfly, 8 cores\x1b[22m", "Read as: Dragonfly, 8 cores"},
		{"a filter keeps its underscores and quotes", "- Filter: `value_bytes == 100 && note == \"_x_\"`",
			"• Filter: \x1b[36mvalue_bytes == 100 && note == \"_x_\"\x1b[39m", "• Filter: value_bytes == 100 && note == \"_x_\""},
		{"snake_case in prose is not emphasis", "the field value_bytes and p99_ms", "the field value_bytes and p99_ms", "the field value_bytes and p99_ms"},
		{"bold inside a list item", "- **Dragonfly (single process)** — ops/s 2.8M", "• \x1b[1mDragonfly (single process)\x1b[22m — ops/s 2.8M", "• Dragonfly (single process) — ops/s 2.8M"},
		{"a single asterisk stays", "**3 × 4 * 2 = 24**", "\x1b[1m3 × 4 * 2 = 24\x1b[22m", "3 × 4 * 2 = 24"},
		{"bold around a filter", "**95 runs where `engine == \"redis\"` (55 cells).**",
			"\x1b[1m95 runs where \x1b[36mengine == \"redis\"\x1b[39m (55 cells).\x1b[22m", "95 runs where engine == \"redis\" (55 cells)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StyleMarkdown(tt.md, true); got != tt.color {
				t.Errorf("color:\n got %q\nwant %q", got, tt.color)
			}
			if got := StyleMarkdown(tt.md, false); got != tt.plain {
				t.Errorf("plain:\n got %q\nwant %q", got, tt.plain)
			}
		})
	}
}
