package slack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// alignRows lays out a header and rows as monospace lines: columns padded
// to their widest cell, numbers right-aligned, a rule under the header.
func alignRows(header []string, rows [][]string) []string {
	cols := len(header)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	width := make([]int, cols)
	numeric := make([]bool, cols)
	for c := range cols {
		numeric[c] = len(rows) > 0
	}
	measure := func(r []string, isHeader bool) {
		for c := range cols {
			cell := cellAt(r, c)
			width[c] = max(width[c], utf8.RuneCountInString(cell))
			if !isHeader && cell != "" && !looksNumeric(cell) {
				numeric[c] = false
			}
		}
	}
	measure(header, true)
	for _, r := range rows {
		measure(r, false)
	}
	line := func(r []string) string {
		var b strings.Builder
		for c := range cols {
			if c > 0 {
				b.WriteString("  ")
			}
			cell := cellAt(r, c)
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			if numeric[c] {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := make([]string, 0, len(rows)+2)
	if len(header) > 0 {
		out = append(out, line(header))
		total := 0
		for _, w := range width {
			total += w
		}
		out = append(out, strings.Repeat("─", total+2*(cols-1)))
	}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}

func cellAt(r []string, c int) string {
	if c < len(r) {
		return r[c]
	}
	return ""
}

// looksNumeric reports whether a cell reads as a figure ("15.5M", "≥21.4M",
// "0.883", "48", "3.4×"), which tables right-align.
func looksNumeric(s string) bool {
	s = strings.TrimLeft(s, "≥~<>=+-$ ")
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}
