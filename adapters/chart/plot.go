package chart

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// category is one x value of the chart: where it is drawn and its label.
type category struct {
	x     float64 // the chart's x value
	pos   float64 // where it is drawn: x itself, or its index when categorical
	label string
}

// categories lists the chart's distinct x values in ascending order.
func categories(ch bot.Chart) []category {
	var cats []category
	for _, s := range ch.Series {
		for _, p := range s.Points {
			if !slices.ContainsFunc(cats, func(c category) bool { return c.x == p.X }) {
				cats = append(cats, category{x: p.X, label: p.XLabel})
			}
		}
	}
	slices.SortFunc(cats, func(a, b category) int { return cmp.Compare(a.x, b.x) })
	for i := range cats {
		cats[i].pos = cats[i].x
		if categorical(ch) {
			cats[i].pos = float64(i)
		}
	}
	return cats
}

// categorical reports whether x values are drawn evenly spaced by label.
func categorical(ch bot.Chart) bool { return ch.XCategorical || ch.Kind == bot.ChartBar }

// position is where x is drawn.
func position(cats []category, x float64) float64 {
	for _, c := range cats {
		if c.x == x {
			return c.pos
		}
	}
	return x
}

// newPlot builds the axes, grid, series and value labels of ch.
func newPlot(ch bot.Chart, ls []look, th theme) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil // the canvas is already white
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = th.axis.Font
		ax.Label.TextStyle.Color = th.ink
		ax.Label.Padding = th.pt(4)
		ax.Tick.Label.Font = th.tick.Font
		ax.Tick.Label.Color = th.ink
		ax.LineStyle.Color = th.ink
		ax.LineStyle.Width = th.pt(0.8)
		ax.Tick.LineStyle.Color = th.ink
		ax.Tick.LineStyle.Width = th.pt(0.8)
		ax.Tick.Length = th.pt(5)
		ax.Padding = 0
	}
	p.X.Label.Text = unkern(ch.XLabel)
	p.Y.Label.Text = unkern(ch.YLabel)

	cats := categories(ch)
	var xTicks fixedTicks // none when the only category has no label
	for _, c := range cats {
		if c.label != "" || len(cats) > 1 {
			xTicks = append(xTicks, plot.Tick{Value: c.pos, Label: unkern(c.label)})
		}
	}
	p.X.Tick.Marker = xTicks

	lo, hi := math.Inf(1), 0.0
	for _, s := range ch.Series {
		for _, pt := range s.Points {
			lo, hi = min(lo, pt.Y), max(hi, pt.Y)
		}
	}
	logY := logAxis(ch)
	yt := yTicks{log: logY, format: tickFormat(ch.YUnit)}
	p.Y.Min, p.Y.Max = yt.bounds(lo, hi)
	p.Y.Tick.Marker = yt
	if logY {
		p.Y.Scale = plot.LogScale{}
	}

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal = draw.LineStyle{Color: th.grid, Width: th.pt(0.8)}
	p.Add(grid)

	labels := &valueLabels{th: th}
	if ch.Kind == bot.ChartBar {
		b := &bars{chart: ch, looks: ls, cats: cats, th: th}
		p.Add(b)
		labels.items = b.labels()
		labels.above = true
		p.X.Min, p.X.Max = -0.5, float64(len(cats))-0.5
		if len(cats) == 1 && len(ch.Series) > 1 {
			// One condition, several series: each bar is labelled with its
			// series under it, the condition goes in the axis title.
			var under fixedTicks
			for _, br := range b.layout() {
				under = append(under, plot.Tick{Value: br.center, Label: unkern(barLabel(ch.Series[br.series]))})
			}
			p.X.Tick.Marker = under
			if cats[0].label != "" {
				p.X.Label.Text = unkern(cats[0].label)
			}
		}
	} else {
		var markers []plot.Plotter
		for i, s := range ch.Series {
			xys := make(plotter.XYs, len(s.Points))
			for j, pt := range s.Points {
				xys[j] = plotter.XY{X: position(cats, pt.X), Y: pt.Y}
				labels.items = append(labels.items, labelItem{x: xys[j].X, y: pt.Y, text: pt.Label, color: ls[i].text})
			}
			line := &plotter.Line{XYs: xys, LineStyle: ls[i].line}
			scatter := &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: ls[i].color, Radius: th.pt(4.2), Shape: ls[i].marker}}
			p.Add(line)
			markers = append(markers, scatter)
			labels.lines = append(labels.lines, xys)
		}
		p.Add(markers...)
		labels.radius = th.pt(4.2)
		first, last := cats[0].pos, cats[len(cats)-1].pos
		span := last - first
		if span == 0 {
			span = 1
		}
		p.X.Min = first - 0.06*span
		if !categorical(ch) && first >= 0 && first <= 0.25*last {
			p.X.Min = 0
		}
		p.X.Max = last + 0.06*span
	}
	p.Y.Min, p.Y.Max = yt.bounds(lo, hi)
	p.Add(labels)
	return p
}

// logAxis reports whether the y axis is logarithmic: only for lines. A
// bar's length is its value, which a log axis would misstate.
func logAxis(ch bot.Chart) bool { return ch.LogY && ch.Kind != bot.ChartBar }

// barLabel is a series' short name under its bar: the engine and, for a
// cluster, which one ("Redis real.", "Redis ceil."), "≥" for a floor.
func barLabel(s bot.ChartSeries) string {
	name := legendName(s)
	if s.Engine == "" {
		if i := strings.Index(name, " ("); i > 0 {
			name = name[:i]
		}
		return name
	}
	name = strings.ToUpper(s.Engine[:1]) + s.Engine[1:]
	switch {
	case s.Engine == "keydb":
		name = "KeyDB"
	case s.Engine == "dragonfly":
		name = "Dragonfly"
	}
	switch {
	case s.Ceiling || s.Mode == "cluster-sat":
		name += " ceiling"
	case s.Mode == "cluster":
		name += " realistic"
	case s.Floor:
		name = "≥ " + name
	}
	return name
}

// fixedTicks marks exactly the given values.
type fixedTicks []plot.Tick

// Ticks implements plot.Ticker.
func (t fixedTicks) Ticks(lo, hi float64) []plot.Tick { return t }

// ensure the plotters satisfy gonum's interfaces.
var (
	_ plot.Plotter = (*bars)(nil)
	_ plot.Plotter = (*valueLabels)(nil)
)
