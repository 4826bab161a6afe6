package cli

import (
	"strings"
	"unicode/utf8"
)

// AlignTables pads the cells of every Markdown pipe table in md so that
// columns line up in a fixed-width terminal. The result is still valid
// Markdown; text outside tables is left exactly as it was. Right-aligned
// columns (a "---:" separator) are padded on the left.
func AlignTables(md string) string {
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
		out = append(out, alignBlock(lines[i:j])...)
		i = j
	}
	return strings.Join(out, "\n")
}

func isTableLine(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) >= 2 && t[0] == '|' && t[len(t)-1] == '|'
}

// alignBlock aligns one run of table lines. A block without a separator
// row in second place is not a table and is returned unchanged.
func alignBlock(block []string) []string {
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
