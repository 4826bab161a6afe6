package chart

import (
	"testing"

	"gonum.org/v1/plot"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// TestBarsStandOnALinearAxisLabelledBySeries draws a p99 comparison at
// one condition that asks for a log axis: bars keep a linear axis (a
// bar's length is its value), and each bar is labelled by its series
// under it, the condition in the axis title.
func TestBarsStandOnALinearAxisLabelledBySeries(t *testing.T) {
	c := bot.Chart{Kind: bot.ChartBar, XCategorical: true, Title: "p99 latency at 48 cores", XLabel: "Cores", YLabel: "p99 latency (ms)",
		YUnit: "ms", LogY: true, Series: []bot.ChartSeries{
			{Name: "Dragonfly (single process)", Engine: "dragonfly", Mode: "single", Points: []bot.ChartPoint{{X: 48, XLabel: "48 cores", Y: 2.4, Label: "2.4"}}},
			{Name: "Redis Cluster — realistic (one normal client)", Engine: "redis", Mode: "cluster", Points: []bot.ChartPoint{{X: 48, XLabel: "48 cores", Y: 138, Label: "138"}}},
			{Name: "Redis Cluster — fully driven ceiling (one client per shard)", Engine: "redis", Mode: "cluster-sat", Ceiling: true, Points: []bot.ChartPoint{{X: 48, XLabel: "48 cores", Y: 1.5, Label: "1.5"}}},
		}}
	p := newPlot(c, looks(c.Series, newTheme(1)), newTheme(1))
	if _, log := p.Y.Scale.(plot.LogScale); log {
		t.Error("bars on a log axis")
	}
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		labels = append(labels, tk.Label)
	}
	want := []string{"Dragonfly", "Redis realistic", "Redis ceiling"}
	if len(labels) != len(want) {
		t.Fatalf("bar labels %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("bar %d labelled %q, want %q", i, labels[i], want[i])
		}
	}
	if p.X.Label.Text != "48 cores" {
		t.Errorf("axis title %q, want the condition", p.X.Label.Text)
	}
	if _, err := Render(c); err != nil {
		t.Fatal(err)
	}
}
