package chart

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// bars draws grouped bars: one group per category, one bar per series
// that has a value there, every bar the same width.
type bars struct {
	chart bot.Chart
	looks []look
	cats  []category
	th    theme
}

// groupWidth is the share of a category's slot its bars fill.
const groupWidth = 0.8

// bar is one drawn bar in data units.
type bar struct {
	series int
	point  bot.ChartPoint
	center float64
	width  float64
}

// layout places every bar.
func (b *bars) layout() []bar {
	present := make([][]int, len(b.cats))
	most := 1
	for ci, cat := range b.cats {
		for si, s := range b.chart.Series {
			for _, p := range s.Points {
				if p.X == cat.x {
					present[ci] = append(present[ci], si)
				}
			}
		}
		most = max(most, len(present[ci]))
	}
	width := groupWidth / float64(most)
	var out []bar
	for ci, cat := range b.cats {
		k := len(present[ci])
		for j, si := range present[ci] {
			for _, p := range b.chart.Series[si].Points {
				if p.X == cat.x {
					out = append(out, bar{series: si, point: p, width: width,
						center: cat.pos + (float64(j)-float64(k-1)/2)*width})
				}
			}
		}
	}
	return out
}

// labels are the values written above the bars.
func (b *bars) labels() []labelItem {
	var out []labelItem
	for _, br := range b.layout() {
		out = append(out, labelItem{x: br.center, y: br.point.Y, text: br.point.Label,
			color: b.looks[br.series].text, width: br.width * barFill})
	}
	return out
}

// barFill is the share of its slot a bar fills, leaving a gap between bars.
const barFill = 0.86

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	base := trY(p.Y.Min)
	for _, br := range b.layout() {
		half := br.width * barFill / 2
		drawBar(&c, b.looks[br.series], b.th, vg.Rectangle{
			Min: vg.Point{X: trX(br.center - half), Y: base},
			Max: vg.Point{X: trX(br.center + half), Y: trY(br.point.Y)},
		})
	}
}

// drawBar fills r in a series' look: solid; hollow with a dashed outline
// for a floor; tinted and hatched for a ceiling.
func drawBar(c *draw.Canvas, l look, th theme, r vg.Rectangle) {
	outline := r.Path()
	switch {
	case l.floor:
		c.SetColor(color.White)
		c.Fill(outline)
		c.SetLineStyle(draw.LineStyle{Color: l.color, Width: th.pt(2), Dashes: []vg.Length{th.pt(5), th.pt(3)}})
		c.Stroke(outline)
	case l.ceil:
		c.SetColor(mix(l.color, color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}, 0.7))
		c.Fill(outline)
		c.StrokeLines(draw.LineStyle{Color: l.color, Width: th.pt(1.1)}, hatch(r, th.pt(6))...)
		c.SetLineStyle(draw.LineStyle{Color: l.color, Width: th.pt(1.5)})
		c.Stroke(outline)
	default:
		c.SetColor(l.color)
		c.Fill(outline)
	}
}

// hatch returns 45° lines every gap across r, clipped to r.
func hatch(r vg.Rectangle, gap vg.Length) [][]vg.Point {
	var lines [][]vg.Point
	// Lines y = x + k for k from the bottom-right to the top-left corner.
	for k := r.Min.Y - r.Max.X + gap/2; k < r.Max.Y-r.Min.X; k += gap {
		lo := max(r.Min.X, r.Min.Y-k)
		hi := min(r.Max.X, r.Max.Y-k)
		if lo < hi {
			lines = append(lines, []vg.Point{{X: lo, Y: lo + k}, {X: hi, Y: hi + k}})
		}
	}
	return lines
}
