// Package chart renders bot.Chart descriptions as PNG images with
// gonum.org/v1/plot and the Liberation fonts it embeds (no system fonts):
// about 1000×600 pixels, readable at chat size, with axis labels and units,
// a legend, the value written at each point, a log axis when the chart asks
// for one, Garnet drawn as a floor and the fully driven cluster ceiling
// drawn apart from the realistic cluster. The same chart always gives the
// same bytes.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Default image size in pixels. A chart with a latency panel under its
// throughput panel (bot.Chart.Cost) is taller, so each panel keeps most of
// a single chart's height.
const (
	DefaultWidth        = 1000
	DefaultHeight       = 600
	DefaultPanelsHeight = 960
)

// dpi maps points to pixels: at 96 dpi a 1000-pixel image is 750 points wide.
const dpi = 96

// ErrInvalid reports a chart that cannot be drawn (no points, a value
// that is not a number, or a non-positive value on a log axis).
var ErrInvalid = errors.New("chart cannot be drawn")

// Renderer draws charts as PNG images. The zero value draws
// DefaultWidth×DefaultHeight pixels.
type Renderer struct {
	Width, Height int // pixels; zero means the default
}

// Render draws c as a PNG image of the default size.
func Render(c bot.Chart) ([]byte, error) { return Renderer{}.Render(c) }

// Render draws c as a PNG image. It returns an error wrapping ErrInvalid
// for a chart it cannot draw, and never panics.
func (r Renderer) Render(c bot.Chart) (out []byte, err error) {
	if err := validate(c); err != nil {
		return nil, err
	}
	w, h := r.Width, r.Height
	if w <= 0 || h <= 0 {
		w, h = DefaultWidth, DefaultHeight
		if c.Cost != nil {
			h = DefaultPanelsHeight
		}
	}
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("chart: drawing %q: %v", c.Title, v)
		}
	}()
	img := vgimg.NewWith(vgimg.UseWH(pixels(w), pixels(h)), vgimg.UseDPI(dpi),
		vgimg.UseBackgroundColor(color.White))
	canvas := draw.New(img)
	drawChart(canvas, c, newTheme(float64(w)/DefaultWidth))
	var buf bytes.Buffer
	if err := encoder.Encode(&buf, img.Image()); err != nil {
		return nil, fmt.Errorf("chart: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// encoder writes the PNG. A chart is a few flat colours, which the fastest
// compression already packs well: the default level took about half the
// time of drawing a chart for files 4% smaller.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed}

// pixels converts an image size in pixels to a length at dpi.
func pixels(n int) vg.Length { return vg.Length(n) * vg.Inch / dpi }

// validate checks that every value can be placed on the chart's axes,
// its latency panel's included.
func validate(c bot.Chart) error {
	if c.Cost != nil {
		if err := validate(*c.Cost); err != nil {
			return err
		}
	}
	points := 0
	for _, s := range c.Series {
		for _, p := range s.Points {
			points++
			if math.IsNaN(p.Y) || math.IsInf(p.Y, 0) || math.IsNaN(p.X) || math.IsInf(p.X, 0) {
				return fmt.Errorf("chart %q: series %q has a value that is not a number: %w", c.Title, s.Name, ErrInvalid)
			}
			if logAxis(c) && p.Y <= 0 {
				return fmt.Errorf("chart %q: series %q has %v on a log axis: %w", c.Title, s.Name, p.Y, ErrInvalid)
			}
			if p.Y < 0 {
				return fmt.Errorf("chart %q: series %q has a negative value: %w", c.Title, s.Name, ErrInvalid)
			}
		}
	}
	if points == 0 {
		return fmt.Errorf("chart %q: no points: %w", c.Title, ErrInvalid)
	}
	return nil
}
