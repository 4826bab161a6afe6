package chart

import (
	"image/color"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// theme holds the text styles and spacing of one rendering, scaled with
// the image width so that a larger image keeps the same proportions.
type theme struct {
	scale    float64
	title    text.Style
	subtitle text.Style
	panel    text.Style // a second panel's title
	axis     text.Style
	tick     text.Style
	legend   text.Style
	value    text.Style
	margin   vg.Length
	ink      color.Color // text and axes
	grid     color.Color // horizontal grid lines
}

// newTheme sizes the fonts for a chat preview of a 1000-pixel-wide image
// (scale 1): 25 px title, 20 px ticks and legend, 19 px point values, so
// that Slack's ~360-pixel preview still shows ticks and values of 7 px.
func newTheme(scale float64) theme {
	ink := color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff}
	softInk := color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	pt := func(n float64) vg.Length { return vg.Points(n * scale) }
	style := func(size float64, weight xfont.Weight, clr color.Color) text.Style {
		return text.Style{
			Color:   clr,
			Font:    font.Font{Typeface: "Liberation", Variant: "Sans", Weight: weight, Size: pt(size)},
			XAlign:  draw.XLeft,
			YAlign:  draw.YTop,
			Handler: plot.DefaultTextHandler,
		}
	}
	return theme{
		scale:    scale,
		title:    style(19, xfont.WeightBold, ink),
		subtitle: style(13, xfont.WeightNormal, softInk),
		panel:    style(16, xfont.WeightBold, ink),
		axis:     style(15, xfont.WeightNormal, ink),
		tick:     style(15, xfont.WeightNormal, ink),
		legend:   style(15, xfont.WeightNormal, ink),
		value:    style(14, xfont.WeightBold, ink),
		margin:   pt(12),
		ink:      ink,
		grid:     color.RGBA{R: 0xe3, G: 0xe3, B: 0xe3, A: 0xff},
	}
}

// pt scales a length in points with the theme.
func (t theme) pt(n float64) vg.Length { return vg.Points(n * t.scale) }

// lineHeight is the height of one line of text in sty.
func lineHeight(sty text.Style) vg.Length {
	e := sty.FontExtents()
	return e.Height
}

// unkern keeps a colon readable after an overhanging capital: regular
// Liberation Sans kerns "T:" so tightly that "SET:GET" reads "SET.GET", so
// a hair space (U+200A) goes between them. Bold text needs no help.
func unkern(s string) string {
	for _, c := range "TVWY" {
		s = strings.ReplaceAll(s, string(c)+":", string(c)+"\u200a:")
	}
	return s
}

// wrap breaks s into lines no wider than width in sty, at spaces.
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && sty.Width(next) > width {
			lines = append(lines, line)
			next = word
		}
		line = next
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
