package slack

import (
	"strings"
	"unicode"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"
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

// Slack's table block limits.
const (
	maxTableColumns = 20
	maxTableRows    = 100 // the header row included
)

// table lays out a grid as Slack's native table block (a header row, then
// up to 99 rows per table; a longer grid continues in further tables,
// header repeated). Numbers are right-aligned. A grid wider than a table
// allows goes monospace.
func (b *builder) table(header []string, rows [][]string) {
	if len(header) == 0 && len(rows) == 0 {
		return
	}
	if len(header) > maxTableColumns {
		b.code(alignRows(header, rows))
		return
	}
	settings := make([]slackgo.ColumnSetting, len(header))
	for c := range header {
		settings[c] = slackgo.ColumnSetting{Align: slackgo.ColumnAlignmentLeft, IsWrapped: true}
		if numericColumn(rows, c) {
			settings[c].Align = slackgo.ColumnAlignmentRight
		}
	}
	for start := 0; start < len(rows) || start == 0; start += maxTableRows - 1 {
		t := slackgo.NewTableBlock("").WithColumnSettings(settings...)
		t.AddRow(tableCells(header, len(header))...)
		for _, r := range rows[start:min(len(rows), start+maxTableRows-1)] {
			t.AddRow(tableCells(r, len(header))...)
		}
		b.blocks = append(b.blocks, t)
		if len(rows) == 0 {
			break
		}
	}
}

func tableCells(r []string, n int) []slackgo.TableCell {
	cells := make([]slackgo.TableCell, n)
	for c := range n {
		cells[c] = slackgo.NewTableRawTextCell(cellAt(r, c))
	}
	return cells
}

func numericColumn(rows [][]string, c int) bool {
	any := false
	for _, r := range rows {
		cell := cellAt(r, c)
		if cell != "" && !looksNumeric(cell) {
			return false
		}
		any = any || cell != ""
	}
	return any
}

// hasTable reports whether a message carries a native table.
func hasTable(blocks []slackgo.Block) bool {
	for _, b := range blocks {
		switch b.(type) {
		case *slackgo.TableBlock, *slackgo.DataTableBlock:
			return true
		}
	}
	return false
}

// plainMessages is a message with a native table as the messages that
// carry it as monospace text instead (nil without a table).
func plainMessages(m message) []message {
	if !hasTable(m.Blocks) {
		return nil
	}
	var out []message
	for _, page := range paginate(plainTables(m.Blocks)) {
		out = append(out, message{Text: m.Text, Blocks: page})
	}
	return out
}

// plainTables is blocks with every native table as monospace text, for
// a workspace where Slack refuses table blocks.
func plainTables(blocks []slackgo.Block) []slackgo.Block {
	var b builder
	for _, bl := range blocks {
		if dt, ok := bl.(*slackgo.DataTableBlock); ok {
			if grid := dataTableGrid(dt); len(grid) > 0 {
				b.code(alignRows(grid[0], grid[1:]))
			}
			continue
		}
		t, ok := bl.(*slackgo.TableBlock)
		if !ok {
			b.blocks = append(b.blocks, bl)
			continue
		}
		var grid [][]string
		for _, row := range t.Rows {
			line := make([]string, len(row))
			for i, c := range row {
				if rt, ok := c.(*slackgo.TableRawTextCell); ok {
					line[i] = rt.Text
				}
			}
			grid = append(grid, line)
		}
		if len(grid) > 0 {
			b.code(alignRows(grid[0], grid[1:]))
		}
	}
	return b.blocks
}
