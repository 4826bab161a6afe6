package slack

import (
	"slices"
	"strings"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chartBlocks draw an answer's chart as Slack's own chart blocks inside
// the card: the chart, then its latency panel (bot.Chart.Cost) under it.
// None when either does not fit: the PNG, which holds both, goes instead.
func chartBlocks(c bot.Chart) []slackgo.Block {
	gain := dataVisualization(c, "oracle_chart")
	if gain == nil {
		return nil
	}
	if c.Cost == nil {
		return []slackgo.Block{gain}
	}
	cost := dataVisualization(*c.Cost, "oracle_chart_cost")
	if cost == nil {
		return nil
	}
	return []slackgo.Block{gain, cost}
}

// dataVisualization draws one chart as Slack's chart block (bar or line)
// with the block ID id; nil when the chart does not fit the block's rules
// (at most 6 series of 20 points, names and categories of 20 characters,
// a point for every category).
func dataVisualization(c bot.Chart, id string) slackgo.Block {
	var cats []string
	var xs []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !slices.Contains(cats, p.XLabel) {
				cats = append(cats, p.XLabel)
				xs = append(xs, p.X)
			}
		}
	}
	order := make([]int, len(cats))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	sorted := make([]string, len(cats))
	for i, j := range order {
		sorted[i] = cats[j]
	}
	var series []slackgo.DataVisualizationDataSeries
	for _, s := range c.Series {
		name := chartSeriesName(s)
		byLabel := map[string]float64{}
		for _, p := range s.Points {
			byLabel[p.XLabel] = p.Y
		}
		var data []slackgo.DataVisualizationDataPoint
		for _, cat := range sorted {
			y, ok := byLabel[cat]
			if !ok {
				return nil // Slack wants every category in every series
			}
			data = append(data, slackgo.NewDataVisualizationDataPoint(cat, y))
		}
		series = append(series, slackgo.NewDataVisualizationDataSeries(name, data...))
	}
	axis := slackgo.NewDataVisualizationAxisConfig(sorted...).WithXLabel(clipLabel(c.XLabel, 50)).WithYLabel(clipLabel(yLabel(c), 50))
	var chart slackgo.DataVisualizationChart = slackgo.NewDataVisualizationLineChart(axis, series...)
	if c.Kind == bot.ChartBar || c.XCategorical {
		chart = slackgo.NewDataVisualizationBarChart(axis, series...)
	}
	if c.LogY && c.Kind != bot.ChartBar {
		return nil // the block has no log axis: the PNG keeps it
	}
	block := slackgo.DataVisualizationBlock{Type: slackgo.MBTDataVisualization, BlockID: id,
		Title: clipLabel(c.Title, 50), Chart: chart}
	if block.Validate() != nil {
		return nil
	}
	return block
}

// chartSeriesName is a series' legend name within 20 characters.
func chartSeriesName(s bot.ChartSeries) string {
	name := s.Name
	if s.Engine != "" {
		name = bot.ShortSeries(s.Engine, s.Mode)
	}
	if utf8.RuneCountInString(name) > 20 {
		name = strings.Replace(name, " Cluster ", " ", 1) // "Redis (realistic)"
	}
	if utf8.RuneCountInString(name) > 20 {
		if i := strings.Index(name, " ("); i > 0 {
			name = name[:i] // "Dragonfly (single process)" → "Dragonfly"
		}
	}
	return clipLabel(name, 20)
}

func yLabel(c bot.Chart) string {
	if c.YUnit != "" && !strings.Contains(c.YLabel, c.YUnit) {
		return c.YLabel + " (" + c.YUnit + ")"
	}
	return c.YLabel
}

// clipLabel keeps a label within n characters at a word boundary; labels
// of the chart block are titles, not content.
func clipLabel(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	out := ""
	for _, w := range strings.Fields(s) {
		next := strings.TrimSpace(out + " " + w)
		if utf8.RuneCountInString(next) > n {
			break
		}
		out = next
	}
	return out
}
