package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// look is how one series is drawn: the engine gives the colour, the mode
// the marker (circle: single process, square: realistic cluster, triangle:
// fully driven ceiling), and a floor is hollow and dotted, a ceiling
// dashed (bars: hollow, or tinted and hatched).
type look struct {
	color  color.RGBA
	text   color.RGBA // darker, for values written on white
	marker marker
	line   draw.LineStyle
	floor  bool
	ceil   bool
}

// engineColor is the colour of an engine (mostly Okabe–Ito, safe for
// colour blindness): Dragonfly blue, Redis vermilion, Valkey green, KeyDB
// pink, Garnet purple.
func engineColor(engine string) (color.RGBA, bool) {
	switch engine {
	case "dragonfly":
		return color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}, true
	case "redis":
		return color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}, true
	case "valkey":
		return color.RGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}, true
	case "keydb":
		return color.RGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}, true
	case "garnet":
		return color.RGBA{R: 0x6b, G: 0x4c, B: 0x9a, A: 0xff}, true
	}
	return color.RGBA{}, false
}

// fallbackColor colours the i-th series of an engine engineColor does
// not know: sky blue, grey, black, in turn.
func fallbackColor(i int) color.RGBA {
	switch i % 3 {
	case 0:
		return color.RGBA{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}
	case 1:
		return color.RGBA{R: 0x6a, G: 0x6a, B: 0x6a, A: 0xff}
	}
	return color.RGBA{A: 0xff}
}

// looks assigns a look to each series. Series sharing an engine and mode
// (split by a condition) get a shifted shade and the next marker shape.
func looks(series []bot.ChartSeries, th theme) []look {
	out := make([]look, len(series))
	var seen []string
	unknown := 0
	for i, s := range series {
		clr, ok := engineColor(s.Engine)
		if !ok {
			clr = fallbackColor(unknown)
			unknown++
		}
		repeat := 0
		key := s.Engine + "/" + s.Mode
		for _, k := range seen {
			if k == key {
				repeat++
			}
		}
		seen = append(seen, key)
		shape := shapeCircle
		switch s.Mode {
		case "cluster":
			shape = shapeSquare
		case "cluster-sat":
			shape = shapeTriangle
		}
		if repeat > 0 {
			shape = (shape + repeat) % shapeCount
			if repeat%2 == 1 {
				clr = mix(clr, color.RGBA{A: 0xff}, 0.4)
			} else {
				clr = mix(clr, color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}, 0.35)
			}
		}
		l := look{
			color:  clr,
			text:   mix(clr, color.RGBA{A: 0xff}, 0.3),
			marker: marker{shape: shape, hollow: s.Floor, stroke: th.pt(1.8)},
			line:   draw.LineStyle{Color: clr, Width: th.pt(2.2)},
			floor:  s.Floor,
			ceil:   s.Ceiling,
		}
		switch {
		case s.Floor:
			l.line.Dashes = []vg.Length{th.pt(2), th.pt(3)}
		case s.Ceiling:
			l.line.Dashes = []vg.Length{th.pt(8), th.pt(4)}
		}
		out[i] = l
	}
	return out
}

// mix blends a towards b by f (0: a, 1: b).
func mix(a, b color.RGBA, f float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
	return color.RGBA{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B), A: 0xff}
}

// Marker shapes.
const (
	shapeCircle = iota
	shapeSquare
	shapeTriangle
	shapeDiamond
	shapeCount
)

// marker draws a point: filled with a thin white rim, or hollow (white
// inside, a thick coloured outline) for floors.
type marker struct {
	shape  int
	hollow bool
	stroke vg.Length
}

// DrawGlyph implements draw.GlyphDrawer.
func (m marker) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	path := m.path(sty.Radius, pt)
	white := color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	if m.hollow {
		c.SetColor(white)
		c.Fill(path)
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: m.stroke})
		c.Stroke(path)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: white, Width: m.stroke / 2})
	c.Stroke(path)
}

// path outlines the marker's shape around pt.
func (m marker) path(r vg.Length, pt vg.Point) vg.Path {
	var p vg.Path
	poly := func(pts ...vg.Point) {
		p.Move(pts[0])
		for _, q := range pts[1:] {
			p.Line(q)
		}
		p.Close()
	}
	switch m.shape {
	case shapeSquare:
		s := r * 0.88
		poly(vg.Point{X: pt.X - s, Y: pt.Y - s}, vg.Point{X: pt.X + s, Y: pt.Y - s},
			vg.Point{X: pt.X + s, Y: pt.Y + s}, vg.Point{X: pt.X - s, Y: pt.Y + s})
	case shapeTriangle:
		s := r * 1.25
		h := s * vg.Length(math.Sqrt(3)/2)
		poly(vg.Point{X: pt.X, Y: pt.Y + s}, vg.Point{X: pt.X + h, Y: pt.Y - s/2},
			vg.Point{X: pt.X - h, Y: pt.Y - s/2})
	case shapeDiamond:
		s := r * 1.2
		poly(vg.Point{X: pt.X, Y: pt.Y + s}, vg.Point{X: pt.X + s, Y: pt.Y},
			vg.Point{X: pt.X, Y: pt.Y - s}, vg.Point{X: pt.X - s, Y: pt.Y})
	default:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
		p.Close()
	}
	return p
}
