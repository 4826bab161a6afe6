package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// labelItem is one value written on the chart.
type labelItem struct {
	x, y  float64 // data position of the point or the bar's top centre
	text  string
	color color.Color
	width float64 // bars: the bar's width in data units
}

// valueLabels writes the value of every point: centred above each bar,
// or, for lines, at whichever spot around the point covers the fewest
// lines, markers and other labels.
type valueLabels struct {
	items  []labelItem
	lines  []plotter.XYs // line series to keep clear of
	radius vg.Length     // marker radius
	above  bool
	th     theme
}

// Plot implements plot.Plotter.
func (v *valueLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if v.above {
		for _, it := range v.items {
			sty := v.th.value
			sty.Color, sty.XAlign, sty.YAlign = it.color, draw.XCenter, draw.YBottom
			room := trX(it.x+it.width/2) - trX(it.x-it.width/2)
			for sty.Width(it.text) > room && sty.Font.Size > v.th.pt(7) {
				sty.Font.Size -= v.th.pt(0.5)
			}
			c.FillText(sty, vg.Point{X: trX(it.x), Y: trY(it.y) + v.th.pt(3)}, it.text)
		}
		return
	}

	var segs [][2]vg.Point
	for _, xys := range v.lines {
		for i := 1; i < len(xys); i++ {
			segs = append(segs, [2]vg.Point{
				{X: trX(xys[i-1].X), Y: trY(xys[i-1].Y)},
				{X: trX(xys[i].X), Y: trY(xys[i].Y)},
			})
		}
	}
	var markers []vg.Rectangle
	for _, it := range v.items {
		pt := vg.Point{X: trX(it.x), Y: trY(it.y)}
		r := v.radius + v.th.pt(1)
		markers = append(markers, vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}})
	}

	sty := v.th.value
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	h := sty.Height("0")
	pad := v.th.pt(1.5)
	var placed []vg.Rectangle
	for k, it := range v.items {
		pt := vg.Point{X: trX(it.x), Y: trY(it.y)}
		w := sty.Width(it.text)
		best, bestScore := vg.Rectangle{}, 0.0
		for i, at := range v.candidates(pt, w, h) {
			box := vg.Rectangle{Min: at, Max: vg.Point{X: at.X + w, Y: at.Y + h}}
			padded := grow(box, pad)
			score := float64(i) * 0.5
			if !inside(padded, c.Rectangle) {
				score += 1e6
			}
			for _, q := range placed {
				score += 100 * float64(overlap(padded, q))
			}
			own := rectDistance(box, pt)
			for j, m := range markers {
				score += 30 * float64(overlap(padded, m))
				// A label nearer another point than its own reads as that point's.
				if j != k {
					if other := rectDistance(box, center(m)); other < own+v.th.pt(3) {
						score += 40 * float64(own+v.th.pt(3)-other)
					}
				}
			}
			for _, s := range segs {
				score += 8 * float64(clipLength(s[0], s[1], padded))
			}
			if i == 0 || score < bestScore {
				best, bestScore = box, score
			}
		}
		placed = append(placed, grow(best, pad))
		c.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8})
		c.Fill(grow(best, pad/2).Path())
		s := sty
		s.Color = it.color
		c.FillText(s, best.Min, it.text)
	}
}

// candidates are the lower-left corners of the spots a w×h label may take
// around pt, in order of preference: above-left first (throughput mostly
// rises with cores, so the line arrives from below-left and leaves up-right),
// then the other sides, then the same spots further out.
func (v *valueLabels) candidates(pt vg.Point, w, h vg.Length) []vg.Point {
	r := v.radius
	var out []vg.Point
	for _, d := range []vg.Length{v.th.pt(2), v.th.pt(2) + h} {
		out = append(out,
			vg.Point{X: pt.X - w - d, Y: pt.Y + r*0.6 + d/2},     // above-left
			vg.Point{X: pt.X - w/2, Y: pt.Y + r + d},             // above
			vg.Point{X: pt.X + d, Y: pt.Y + r*0.6 + d/2},         // above-right
			vg.Point{X: pt.X - r - d - w, Y: pt.Y - h/2},         // left
			vg.Point{X: pt.X + r + d, Y: pt.Y - h/2},             // right
			vg.Point{X: pt.X + d, Y: pt.Y - r*0.6 - d/2 - h},     // below-right
			vg.Point{X: pt.X - w/2, Y: pt.Y - r - d - h},         // below
			vg.Point{X: pt.X - w - d, Y: pt.Y - r*0.6 - d/2 - h}, // below-left
		)
	}
	return out
}

// rectDistance is how far p lies from r (0 inside).
func rectDistance(r vg.Rectangle, p vg.Point) vg.Length {
	dx := max(r.Min.X-p.X, 0, p.X-r.Max.X)
	dy := max(r.Min.Y-p.Y, 0, p.Y-r.Max.Y)
	return vg.Length(math.Hypot(float64(dx), float64(dy)))
}

// center is the middle of r.
func center(r vg.Rectangle) vg.Point {
	return vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
}

// grow enlarges r by d on every side.
func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

// inside reports whether r lies within bounds.
func inside(r, bounds vg.Rectangle) bool {
	return r.Min.X >= bounds.Min.X && r.Min.Y >= bounds.Min.Y && r.Max.X <= bounds.Max.X && r.Max.Y <= bounds.Max.Y
}

// overlap is the area two rectangles share.
func overlap(a, b vg.Rectangle) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// clipLength is how much of the segment p→q lies inside r (Liang–Barsky).
func clipLength(p, q vg.Point, r vg.Rectangle) vg.Length {
	dx, dy := q.X-p.X, q.Y-p.Y
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]vg.Length{
		{-dx, p.X - r.Min.X}, {dx, r.Max.X - p.X},
		{-dy, p.Y - r.Min.Y}, {dy, r.Max.Y - p.Y},
	} {
		pe, qe := float64(e[0]), float64(e[1])
		if pe == 0 {
			if qe < 0 {
				return 0
			}
			continue
		}
		t := qe / pe
		if pe < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return 0
		}
	}
	return vg.Length(t1-t0) * vg.Length(distance(p, q))
}

// distance is the length of p→q.
func distance(p, q vg.Point) float64 {
	dx, dy := float64(q.X-p.X), float64(q.Y-p.Y)
	return math.Hypot(dx, dy)
}
