package cli

import (
	"strings"
	"unicode/utf8"
)

// AlignTables pads the cells of every Markdown pipe table in md so that
// columns line up in a fixed-width terminal. The result is still valid
// Markdown; text outside tables is left exactly as it was. Right-aligned
// columns (a "---:" separator) are padded on the left. A table whose
// aligned lines would be wider than width (when width > 0) is laid out as
// one line per row instead, because a wrapped grid is unreadable.
func AlignTables(md string, width int) string {
	lines := strings.Split(md, "\n")
	var out []string
	for i := 0; i < len(lines); {
		if !isTableLine(lines[i]) {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && isTableLine(lines[j]) {
			j++
		}
		out = append(out, layoutBlock(lines[i:j], width)...)
		i = j
	}
	return strings.Join(out, "\n")
}

func isTableLine(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) >= 2 && t[0] == '|' && t[len(t)-1] == '|'
}

// layoutBlock lays out one run of table lines: aligned when it fits width,
// one line per row when it does not. A block without a separator row in
// second place is not a table and is returned unchanged.
func layoutBlock(block []string, width int) []string {
	if len(block) < 2 {
		return block
	}
	rows := make([][]string, len(block))
	for i, l := range block {
		rows[i] = splitRow(l)
	}
	if !isSeparator(rows[1]) {
		return block
	}
	aligned := alignRows(rows)
	if width > 0 && widest(aligned) > width {
		return rowLines(rows)
	}
	return aligned
}

// alignRows pads the cells of a table (header, separator, body rows) into
// aligned columns.
func alignRows(rows [][]string) []string {
	ncol := 0
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	right := make([]bool, ncol)
	for c, cell := range rows[1] {
		right[c] = strings.HasSuffix(cell, ":") && !strings.HasPrefix(cell, ":")
	}
	width := make([]int, ncol)
	for i, r := range rows {
		if i == 1 {
			continue
		}
		for c, cell := range r {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	for c := range width {
		width[c] = max(width[c], 3)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for c := range ncol {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			b.WriteString(" ")
			switch {
			case i == 1 && right[c]:
				b.WriteString(strings.Repeat("-", width[c]-1) + ":")
			case i == 1:
				b.WriteString(strings.Repeat("-", width[c]))
			case right[c]:
				b.WriteString(pad(cell, width[c], true))
			default:
				b.WriteString(pad(cell, width[c], false))
			}
			b.WriteString(" |")
		}
		out[i] = b.String()
	}
	return out
}

func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// rowLines is a table too wide for the terminal as one line per body row:
// "**Dragonfly (single process)** — Cores 48 · Throughput 15.5M ops/s".
// Every cell is kept, labelled by its column; empty cells are left out.
func rowLines(rows [][]string) []string {
	header := rows[0]
	out := make([]string, 0, len(rows)-2)
	for _, r := range rows[2:] {
		if len(r) == 0 {
			continue
		}
		var cells []string
		for c := 1; c < len(r); c++ {
			if r[c] == "" {
				continue
			}
			label := ""
			if c < len(header) {
				label = header[c] + " "
			}
			cells = append(cells, label+r[c])
		}
		line := "**" + r[0] + "**"
		if r[0] == "" {
			line = "—"
		}
		if len(cells) > 0 {
			line += " — " + strings.Join(cells, " · ")
		}
		out = append(out, "- "+line)
	}
	return out
}

// splitRow splits "| a | b \| c |" into its trimmed cells, keeping escaped
// pipes inside cells.
func splitRow(line string) []string {
	t := strings.TrimSpace(line)
	t = t[1 : len(t)-1]
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case t[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(t[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		c = strings.Trim(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return len(cells) > 0
}

func pad(s string, w int, right bool) string {
	n := w - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
