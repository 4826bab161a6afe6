package chart

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// drawChart lays the chart out on c: title and subtitle at the top, the
// legend at the bottom (it never covers data), the plot in between.
func drawChart(c draw.Canvas, ch bot.Chart, th theme) {
	area := draw.Crop(c, th.margin, -th.margin, th.margin, -th.margin)
	width := area.Max.X - area.Min.X
	y := area.Max.Y
	for _, line := range wrap(th.title, ch.Title, width) {
		area.FillText(th.title, vg.Point{X: area.Min.X, Y: y}, line)
		y -= lineHeight(th.title)
	}
	if ch.Subtitle != "" {
		y -= th.pt(3)
		for _, line := range wrap(th.subtitle, unkern(ch.Subtitle), width) {
			area.FillText(th.subtitle, vg.Point{X: area.Min.X, Y: y}, line)
			y -= lineHeight(th.subtitle)
		}
	}
	ls := looks(ch.Series, th)
	legend := drawLegend(area, ch, ls, th)
	plotArea := area
	plotArea.Max.Y = y - th.pt(8)
	plotArea.Min.Y = area.Min.Y + legend + th.pt(10)
	if ch.Cost == nil {
		newPlot(ch, ls, th).Draw(plotArea)
		return
	}
	// The latency panel under the throughput panel, the same series in
	// the same looks (one legend for both), each with its own axis: one
	// above the other keeps the full width for a phone's preview.
	cost := *ch.Cost
	split := plotArea.Min.Y + (plotArea.Max.Y-plotArea.Min.Y)*costShare
	gain := plotArea
	gain.Min.Y = split + th.pt(10)
	newPlot(ch, ls, th).Draw(gain)
	y = split - th.pt(4)
	for _, line := range wrap(th.panel, unkern(cost.Title), width) {
		area.FillText(th.panel, vg.Point{X: area.Min.X, Y: y}, line)
		y -= lineHeight(th.panel)
	}
	lower := plotArea
	lower.Max.Y = y - th.pt(6)
	newPlot(cost, ls, th).Draw(lower)
}

// costShare is the part of the plot area the latency panel takes, its
// title included.
const costShare = 0.46

// legendName is a series' name as the legend shows it: floors start
// with "≥".
func legendName(s bot.ChartSeries) string {
	if s.Floor {
		return "≥ " + s.Name
	}
	return s.Name
}

// drawLegend draws one entry per series along the bottom of area, in as
// many aligned columns as fit, and returns the height it used.
func drawLegend(area draw.Canvas, ch bot.Chart, ls []look, th theme) vg.Length {
	thumb, gap, spacing := th.pt(34), th.pt(6), th.pt(24)
	names := make([]string, len(ch.Series))
	widths := make([]vg.Length, len(ch.Series))
	for i, s := range ch.Series {
		names[i] = unkern(legendName(s))
		widths[i] = thumb + gap + th.legend.Width(names[i])
	}
	cols := legendColumns(widths, spacing, area.Max.X-area.Min.X)
	rows := (len(names) + len(cols) - 1) / len(cols)
	rowHeight := lineHeight(th.legend) + th.pt(5)
	height := rowHeight * vg.Length(rows)
	sty := th.legend
	sty.YAlign = draw.YCenter
	for i, name := range names {
		r, col := i/len(cols), i%len(cols)
		x := area.Min.X
		for _, w := range cols[:col] {
			x += w + spacing
		}
		y := area.Min.Y + height - rowHeight*vg.Length(r) - rowHeight/2
		drawThumbnail(&area, ch.Kind, ls[i], th, vg.Rectangle{
			Min: vg.Point{X: x, Y: y - rowHeight/2}, Max: vg.Point{X: x + thumb, Y: y + rowHeight/2}})
		area.FillText(sty, vg.Point{X: x + thumb + gap, Y: y}, name)
	}
	return height
}

// legendColumns returns the widths of the most columns (entries placed
// row by row) that fit in width; at least one.
func legendColumns(widths []vg.Length, spacing, width vg.Length) []vg.Length {
	for n := len(widths); n > 1; n-- {
		cols := make([]vg.Length, n)
		for i, w := range widths {
			cols[i%n] = max(cols[i%n], w)
		}
		total := spacing * vg.Length(n-1)
		for _, w := range cols {
			total += w
		}
		if total <= width {
			return cols
		}
	}
	return []vg.Length{width}
}

// drawThumbnail draws a series' sample into r: a line with its marker, or
// a bar swatch.
func drawThumbnail(c *draw.Canvas, kind bot.ChartKind, l look, th theme, r vg.Rectangle) {
	mid := vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
	if kind == bot.ChartBar {
		s := th.pt(6.5)
		drawBar(c, l, th, vg.Rectangle{Min: vg.Point{X: mid.X - s*1.4, Y: mid.Y - s}, Max: vg.Point{X: mid.X + s*1.4, Y: mid.Y + s}})
		return
	}
	c.StrokeLine2(l.line, r.Min.X, mid.Y, r.Max.X, mid.Y)
	l.marker.DrawGlyph(c, draw.GlyphStyle{Color: l.color, Radius: th.pt(4.2), Shape: l.marker}, mid)
}
