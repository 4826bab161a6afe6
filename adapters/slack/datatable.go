package slack

import (
	"strconv"
	"strings"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// maxDataTableRows is how many rows one data_table block takes, its
// header included.
const maxDataTableRows = 100

// dataTable lays out measured rows as Slack's data_table block: sortable,
// its figures numeric cells (sorted as numbers, shown the house way).
// Where Slack refuses the block, plainTables turns it into monospace
// text like the other tables.
func (b *builder) dataTable(caption string, rows []bot.Row) {
	header, text := rowsTable(rows)
	for start := 0; start < len(rows); start += maxDataTableRows - 1 {
		t := &slackgo.DataTableBlock{Type: slackgo.MBTDataTable, Caption: caption, PageSize: min(10, len(rows))}
		head := make([]slackgo.DataTableCell, len(header))
		for i, h := range header {
			head[i] = slackgo.NewDataTableRawTextCell(h)
		}
		t.Rows = append(t.Rows, head)
		for i, r := range rows[start:min(len(rows), start+maxDataTableRows-1)] {
			t.Rows = append(t.Rows, dataTableRow(r, text[start+i]))
		}
		b.blocks = append(b.blocks, t)
	}
}

// dataTableRow is one measured row: text cells for the series and
// conditions, numeric cells for cores, pipeline and the medians.
func dataTableRow(r bot.Row, shown []string) []slackgo.DataTableCell {
	num := func(v float64, text string) slackgo.DataTableCell {
		return slackgo.NewDataTableRawNumberCell(v).WithText(text)
	}
	cells := []slackgo.DataTableCell{
		slackgo.NewDataTableRawTextCell(shown[0]), slackgo.NewDataTableRawTextCell(shown[1]),
		num(float64(r.Cores), shown[2]), slackgo.NewDataTableRawTextCell(shown[3]), slackgo.NewDataTableRawTextCell(shown[4]),
		num(float64(r.Pipeline), shown[5]), num(r.OpsPerSec, shown[6]), num(r.P50Ms, shown[7]), num(r.P99Ms, shown[8]),
		num(r.P999Ms, shown[9]), slackgo.NewDataTableRawTextCell(shown[10]),
	}
	for _, s := range shown[11:] {
		cells = append(cells, slackgo.NewDataTableRawTextCell(s))
	}
	return cells
}

// dataTableGrid is a data_table's cells as text, for the monospace
// fallback.
func dataTableGrid(t *slackgo.DataTableBlock) [][]string {
	var grid [][]string
	for _, row := range t.Rows {
		line := make([]string, len(row))
		for i, c := range row {
			switch v := c.(type) {
			case *slackgo.DataTableRawTextCell:
				line[i] = v.Text
			case *slackgo.DataTableRawNumberCell:
				line[i] = v.Text
				if line[i] == "" {
					line[i] = strconv.FormatFloat(v.Value, 'f', -1, 64)
				}
			}
		}
		grid = append(grid, line)
	}
	return grid
}

// rowsCaption names a table of measured rows.
func rowsCaption(what string, rows []bot.Row) string {
	return strings.TrimSpace(what + " — medians across repetitions, " + strconv.Itoa(len(rows)) + " " + plural(len(rows), "row", "rows"))
}
