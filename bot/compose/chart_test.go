package compose

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

var updateCharts = flag.Bool("update-charts", false, "rewrite testdata/charts/*.json from the current chart spec")

// chartRow builds a measured row the way RowFromCell does.
func chartRow(engine, mode string, session, cores int, ratio string, valueBytes, pipeline, reps int, ops float64) Row {
	return Row{
		Series: analytics.SeriesName(engine, mode),
		RowCell: RowCell{Engine: engine, Mode: mode, Session: session, Cores: cores,
			Ratio: ratio, ValueBytes: valueBytes, Pipeline: pipeline, Reps: reps, OpsPerSec: ops},
		OpsPerCore: ops / float64(cores), Floor: engine == "garnet",
	}
}

// scaleRows are the session-1 medians for Dragonfly, the realistic Redis
// Cluster and its fully driven ceiling, 4–48 cores, 1:10, 100 B, p16.
func scaleRows() []Row {
	var rows []Row
	for i, cores := range []int{4, 8, 16, 24, 48} {
		rows = append(rows,
			chartRow("dragonfly", "single", 1, cores, "1:10", 100, 16, 2,
				[]float64{2042273.345, 3668546.295, 6471163.67, 9047448.81, 15473658.395}[i]),
			chartRow("redis", "cluster", 1, cores, "1:10", 100, 16, 2,
				[]float64{3227767.565, 5027713.545, 4973277.87, 4812971.68, 4578516.24}[i]),
			chartRow("redis", "cluster-sat", 1, cores, "1:10", 100, 16, 1,
				[]float64{5194091.55, 9191907.87, 15787730.96, 22513940.78, 40576639.07}[i]))
	}
	return rows
}

// assertChartMatchesRows checks that every row is exactly one point of the
// series named after it, with the row's value, and nothing else is drawn.
func assertChartMatchesRows(t *testing.T, c *Chart, rows []Row, metric string) {
	t.Helper()
	points := 0
	for _, s := range c.Series {
		points += len(s.Points)
	}
	if points != len(rows) {
		t.Fatalf("chart has %d points, rows %d", points, len(rows))
	}
	for _, r := range rows {
		want, _ := r.Metric(metric)
		found := false
		for _, s := range c.Series {
			if !strings.HasPrefix(s.Name, r.Series) || s.Engine != r.Engine || s.Mode != r.Mode {
				continue
			}
			for _, p := range s.Points {
				if p.Y == want && (c.XCategorical || p.X == float64(r.Cores)) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("row %s %s %dc: value %v is not in the chart", r.Engine, r.Mode, r.Cores, want)
		}
	}
}

func TestChartForScalingDrawsOneLinePerSeriesOverCores(t *testing.T) {
	rows := scaleRows()
	c := chartFor(planner.Plan{Intent: planner.IntentScaling, Slots: planner.Slots{Metric: "ops_per_sec", Knob: "cores"}}, rows)
	if c == nil {
		t.Fatal("chartFor returned nil for a scaling plan")
	}
	assertChartMatchesRows(t, c, rows, "ops_per_sec")
	if c.Kind != ChartLine || c.XCategorical {
		t.Errorf("kind %q categorical %v, want a line over numeric cores", c.Kind, c.XCategorical)
	}
	wantNames := []string{
		"Dragonfly (single process)",
		"Redis Cluster — realistic (one normal client)",
		"Redis Cluster — fully driven ceiling (one client per shard)",
	}
	if len(c.Series) != len(wantNames) {
		t.Fatalf("series %d, want %d", len(c.Series), len(wantNames))
	}
	for i, s := range c.Series {
		if s.Name != wantNames[i] {
			t.Errorf("series %d named %q, want %q", i, s.Name, wantNames[i])
		}
		if s.Ceiling != (s.Mode == "cluster-sat") || s.Floor {
			t.Errorf("series %q: ceiling %v floor %v", s.Name, s.Ceiling, s.Floor)
		}
		var xs []string
		for _, p := range s.Points {
			xs = append(xs, p.XLabel)
		}
		if got := strings.Join(xs, ","); got != "4,8,16,24,48" {
			t.Errorf("series %q x labels %s", s.Name, got)
		}
	}
	if got := c.Series[0].Points[4].Label; got != "15.5M" {
		t.Errorf("Dragonfly 48-core label %q, want 15.5M", got)
	}
	if c.LogY {
		t.Error("values span 19.9× (2.0M to 40.6M): the y axis should stay linear")
	}
	if want := "Throughput over cores — SET:GET 1:10 (read-heavy), 100 B values, pipeline 16"; c.Title != want {
		t.Errorf("title\n got %q\nwant %q", c.Title, want)
	}
	if want := "Median across repetitions; single run per point: Redis fully driven ceiling; session 1 (Dragonfly, Redis)"; c.Subtitle != want {
		t.Errorf("subtitle\n got %q\nwant %q", c.Subtitle, want)
	}
	if c.YLabel != "Throughput (ops/s)" || c.YUnit != "ops/s" || c.XLabel != "Cores" {
		t.Errorf("labels x %q y %q unit %q", c.XLabel, c.YLabel, c.YUnit)
	}
	want := "Line chart of throughput in ops/s (median across repetitions) over 4–48 cores at SET:GET 1:10 (read-heavy), " +
		"100 B values, pipeline 16: Dragonfly (single process) 2.0M–15.5M ops/s; " +
		"Redis Cluster — realistic (one normal client) 3.2M–5.0M ops/s; " +
		"Redis Cluster — fully driven ceiling (one client per shard) 5.2M–40.6M ops/s."
	if c.AltText != want {
		t.Errorf("alt text\n got %q\nwant %q", c.AltText, want)
	}
}

func TestChartForTurnsTheYAxisLogarithmicBeyondTwentyTimes(t *testing.T) {
	keydb := chartRow("keydb", "single", 2, 16, "1:10", 100, 16, 2, 635598.77)
	tests := []struct {
		name string
		rows []Row
		want bool
	}{
		{"values within 20× stay linear", scaleRows(), false},
		{"KeyDB at 636K next to a 40.6M ceiling is logarithmic", append(scaleRows(), keydb), true},
		{"exactly 20× stays linear", []Row{
			chartRow("dragonfly", "single", 1, 4, "1:10", 100, 16, 2, 1e6),
			chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 20e6),
		}, false},
		{"just over 20× is logarithmic", []Row{
			chartRow("dragonfly", "single", 1, 4, "1:10", 100, 16, 2, 1e6),
			chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 20.1e6),
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := chartFor(planner.Plan{Intent: planner.IntentScaling}, tt.rows)
			if c == nil {
				t.Fatal("no chart")
			}
			if c.LogY != tt.want {
				t.Errorf("LogY %v, want %v", c.LogY, tt.want)
			}
		})
	}
}

func TestChartForDrawsGarnetAsAFloor(t *testing.T) {
	rows := []Row{
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 15473658.395),
		chartRow("garnet", "single", 2, 48, "1:10", 100, 16, 2, 21356216.815),
	}
	c := chartFor(planner.Plan{Intent: planner.IntentCompare}, rows)
	if c == nil {
		t.Fatal("no chart")
	}
	assertChartMatchesRows(t, c, rows, "ops_per_sec")
	if c.Kind != ChartBar || !c.XCategorical {
		t.Errorf("kind %q categorical %v, want bars", c.Kind, c.XCategorical)
	}
	g := c.Series[1]
	if !g.Floor || g.Ceiling || c.Series[0].Floor {
		t.Errorf("floor flags: dragonfly %v garnet %v", c.Series[0].Floor, g.Floor)
	}
	if g.Points[0].Label != "≥21.4M" {
		t.Errorf("Garnet label %q, want ≥21.4M", g.Points[0].Label)
	}
	if want := "Throughput — 48 cores, SET:GET 1:10 (read-heavy), 100 B values, pipeline 16"; c.Title != want {
		t.Errorf("title %q, want %q", c.Title, want)
	}
	wantSub := "Median across repetitions; Garnet: at least these values (client-limited); " +
		"session 1 (Dragonfly) and session 2 (Garnet) are separate capture sessions"
	if c.Subtitle != wantSub {
		t.Errorf("subtitle\n got %q\nwant %q", c.Subtitle, wantSub)
	}
	wantAlt := "Bar chart of throughput in ops/s (median across repetitions) at 48 cores, SET:GET 1:10 (read-heavy), " +
		"100 B values, pipeline 16: Dragonfly (single process) 15.5M ops/s; " +
		"Garnet (single process, client-limited floor) at least 21.4M ops/s."
	if c.AltText != wantAlt {
		t.Errorf("alt text\n got %q\nwant %q", c.AltText, wantAlt)
	}
}

// pipelineRows are Dragonfly's and the realistic Redis Cluster's rows at
// pipeline 1 and 16, 48 cores, each with its p99.
func pipelineRows() []Row {
	rows := []Row{
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 1, 2, 4.1e6),
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 15473658.395),
		chartRow("redis", "cluster", 1, 48, "1:10", 100, 1, 2, 1.2e6),
		chartRow("redis", "cluster", 1, 48, "1:10", 100, 16, 2, 4578516.24),
	}
	for i, p99 := range []float64{0.547, 2.423, 0.4, 18.431} {
		rows[i].P99Ms = p99
	}
	return rows
}

func TestChartForEffectOfPipelineGroupsBarsByDepth(t *testing.T) {
	rows := pipelineRows()
	c := chartFor(planner.Plan{Intent: planner.IntentEffect, Slots: planner.Slots{Knob: "pipeline"}}, rows)
	if c == nil {
		t.Fatal("no chart")
	}
	if c.Kind != ChartBar || !c.XCategorical || c.XLabel != "Pipeline depth" {
		t.Errorf("kind %q categorical %v x label %q", c.Kind, c.XCategorical, c.XLabel)
	}
	if len(c.Series) != 2 || len(c.Series[0].Points) != 2 {
		t.Fatalf("series %+v", c.Series)
	}
	if got := c.Series[0].Points[0].XLabel + "," + c.Series[0].Points[1].XLabel; got != "1,16" {
		t.Errorf("x labels %s, want 1,16", got)
	}
	if want := "Throughput by pipeline depth — 48 cores, SET:GET 1:10 (read-heavy), 100 B values"; c.Title != want {
		t.Errorf("title %q, want %q", c.Title, want)
	}
}

// TestAnEffectOnThroughputCarriesItsLatencyCost checks the second panel
// of an effect chart: the p99 of the very cells the throughput panel
// draws, point for point, on a linear axis; none where it is not a
// throughput effect or a cell has no p99.
func TestAnEffectOnThroughputCarriesItsLatencyCost(t *testing.T) {
	rows := pipelineRows()
	effect := func(metric string) planner.Plan {
		return planner.Plan{Intent: planner.IntentEffect, Slots: planner.Slots{Knob: "pipeline", Metric: metric}}
	}
	t.Run("the cost panel holds each cell's p99 under the same series and depths", func(t *testing.T) {
		c := chartFor(effect("ops_per_sec"), rows)
		if c == nil || c.Cost == nil {
			t.Fatalf("chart %+v", c)
		}
		cost := c.Cost
		assertChartMatchesRows(t, cost, rows, "p99_ms")
		for i, s := range cost.Series {
			if s.Name != c.Series[i].Name || s.Floor {
				t.Errorf("cost series %q (floor %v) beside %q", s.Name, s.Floor, c.Series[i].Name)
			}
			for j, pt := range s.Points {
				if pt.XLabel != c.Series[i].Points[j].XLabel {
					t.Errorf("%s: cost at %q beside throughput at %q", s.Name, pt.XLabel, c.Series[i].Points[j].XLabel)
				}
			}
		}
		if cost.LogY || cost.Kind != ChartBar || cost.YLabel != "p99 latency (ms)" || cost.Title != "p99 latency by pipeline depth — the same cells" {
			t.Errorf("cost panel %q %q log %v kind %s", cost.Title, cost.YLabel, cost.LogY, cost.Kind)
		}
		if !strings.Contains(c.AltText, "Below it, the same cells' latency: bar chart of p99 latency in ms") {
			t.Errorf("alt text does not describe the cost: %q", c.AltText)
		}
	})
	t.Run("an effect on latency has no second panel", func(t *testing.T) {
		if c := chartFor(effect("p99_ms"), rows); c == nil || c.Cost != nil {
			t.Errorf("chart %+v", c)
		}
	})
	t.Run("a cell without a p99 leaves the cost out rather than draw a gap", func(t *testing.T) {
		gap := append([]Row(nil), rows...)
		gap[2].P99Ms = 0
		if c := chartFor(effect("ops_per_sec"), gap); c == nil || c.Cost != nil {
			t.Errorf("chart %+v", c)
		}
	})
	t.Run("a comparison has no cost panel", func(t *testing.T) {
		if c := chartFor(planner.Plan{Intent: planner.IntentCompare}, rows); c == nil || c.Cost != nil {
			t.Errorf("chart %+v", c)
		}
	})
}

func TestChartForNamesAConditionThatDiffersBetweenRowsOffTheXAxis(t *testing.T) {
	rows := []Row{
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 1, 2, 4.1e6),
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 15.4e6),
		chartRow("dragonfly", "single", 1, 4, "1:10", 100, 1, 2, 0.6e6),
		chartRow("dragonfly", "single", 1, 4, "1:10", 100, 16, 2, 2.0e6),
	}
	c := chartFor(planner.Plan{Intent: planner.IntentEffect, Slots: planner.Slots{Knob: "pipeline"}}, rows)
	if c == nil {
		t.Fatal("no chart")
	}
	var names []string
	for _, s := range c.Series {
		names = append(names, s.Name)
	}
	want := "Dragonfly (single process) · 48 cores|Dragonfly (single process) · 4 cores"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("series %q, want %q", got, want)
	}
	if strings.Contains(c.Title, "cores") {
		t.Errorf("title %q states cores although they differ", c.Title)
	}
}

func TestChartForComparePutsKeyDBsSixteenCoresInItsOwnGroup(t *testing.T) {
	rows := []Row{
		chartRow("dragonfly", "single", 1, 48, "1:10", 100, 16, 2, 15473658.395),
		chartRow("garnet", "single", 2, 48, "1:10", 100, 16, 2, 21356216.815),
		chartRow("keydb", "single", 2, 16, "1:10", 100, 16, 2, 635598.77),
	}
	c := chartFor(planner.Plan{Intent: planner.IntentCompare}, rows)
	if c == nil {
		t.Fatal("no chart")
	}
	if c.Kind != ChartBar || c.XLabel != "Cores" || !c.LogY {
		t.Errorf("kind %q x %q logY %v", c.Kind, c.XLabel, c.LogY)
	}
	if got := c.Series[2].Points[0].XLabel; got != "16 cores" {
		t.Errorf("KeyDB x label %q", got)
	}
	if strings.Contains(c.Title, "48 cores") {
		t.Errorf("title %q claims 48 cores for every bar", c.Title)
	}
}

func TestChartForReturnsNilWhenAChartWouldNotHelp(t *testing.T) {
	tooMany := scaleRows()
	for _, e := range []string{"valkey", "garnet", "keydb"} {
		for _, ratio := range []string{"1:1", "mget10"} {
			tooMany = append(tooMany, chartRow(e, "single", 2, 16, ratio, 100, 16, 2, 1e6))
		}
	}
	tests := []struct {
		name string
		plan planner.Plan
		rows []Row
	}{
		{"a lookup plan", planner.Plan{Intent: planner.IntentLookup}, scaleRows()},
		{"one number", planner.Plan{Intent: planner.IntentCompare}, scaleRows()[:1]},
		{"no rows", planner.Plan{Intent: planner.IntentScaling}, nil},
		{"a hit-rate metric", planner.Plan{Intent: planner.IntentScaling, Slots: planner.Slots{Metric: "hit_rate"}}, scaleRows()},
		{"more series than a reader can follow", planner.Plan{Intent: planner.IntentScaling}, tooMany},
		{"two values at one x", planner.Plan{Intent: planner.IntentScaling}, append(scaleRows(), scaleRows()[0])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c := chartFor(tt.plan, tt.rows); c != nil {
				t.Errorf("got a chart titled %q, want none", c.Title)
			}
		})
	}
}

func TestChartForLatencyUsesMillisecondsWithUpToThreeDecimals(t *testing.T) {
	rows := scaleRows()[:3]
	for i := range rows {
		rows[i].P99Ms = []float64{2.423, 1.5, 12}[i]
	}
	c := chartFor(planner.Plan{Intent: planner.IntentCompare, Slots: planner.Slots{Metric: "p99_ms"}}, rows)
	if c == nil {
		t.Fatal("no chart")
	}
	if c.YLabel != "p99 latency (ms)" {
		t.Errorf("y label %q", c.YLabel)
	}
	var labels []string
	for _, s := range c.Series {
		labels = append(labels, s.Points[0].Label)
	}
	if got := strings.Join(labels, " "); got != "2.423 1.5 12" {
		t.Errorf("labels %q", got)
	}
	if !strings.Contains(c.AltText, "Dragonfly (single process) 2.423 ms;") {
		t.Errorf("alt text %q", c.AltText)
	}

	garnet := chartRow("garnet", "single", 2, 48, "1:10", 100, 16, 2, 21356216.815)
	garnet.P99Ms = 3.1
	c = chartFor(planner.Plan{Intent: planner.IntentCompare, Slots: planner.Slots{Metric: "p99_ms"}}, append(rows, garnet))
	if g := c.Series[3]; g.Floor || g.Points[0].Label != "3.1" {
		t.Errorf("Garnet's latency drawn as a floor (%v, %q): the floor is about throughput", g.Floor, g.Points[0].Label)
	}
}

func TestChartForDigestComparesTheHeadlineRows(t *testing.T) {
	rows := scaleRows()[12:] // the three 48-core rows
	c := ChartForDigest(rows)
	if c == nil {
		t.Fatal("no chart")
	}
	assertChartMatchesRows(t, c, rows, "ops_per_sec")
	if c.Kind != ChartBar || len(c.Series) != 3 || !c.Series[2].Ceiling {
		t.Errorf("kind %q series %d", c.Kind, len(c.Series))
	}
	if ChartForDigest(rows[:1]) != nil {
		t.Error("one row should give no chart")
	}
}

// TestChartForRealQueries builds charts from real query results (among
// them "How does Dragonfly scale compared with Redis?") and keeps them as
// golden files, which the PNG renderer's tests draw.
func TestChartForRealQueries(t *testing.T) {
	store := analyticstest.OpenStore(t)
	const p16 = `ratio == "1:10" && value_bytes == 100 && pipeline == 16`
	tests := []struct {
		name   string
		golden string
		filter string
		plan   planner.Plan
		cells  int
		logY   bool
		alt    []string
	}{
		{
			name:   "Dragonfly vs the realistic Redis Cluster vs its ceiling over 4–48 cores",
			golden: "scale-dragonfly-redis.json",
			filter: `engine in ["dragonfly", "redis"] && cores >= 4 && cores <= 48 && ` + p16,
			plan:   planner.Plan{Intent: planner.IntentScaling, Slots: planner.Slots{Metric: "ops_per_sec", Knob: "cores"}},
			cells:  15,
			alt: []string{"Dragonfly (single process) 2.0M–15.5M ops/s", "realistic (one normal client) 3.2M–5.0M ops/s",
				"fully driven ceiling (one client per shard) 5.2M–40.6M ops/s"},
		},
		{
			name:   "KeyDB and Garnet beside Redis span more than 20× and go logarithmic",
			golden: "scale-keydb-garnet-redis.json",
			filter: `engine in ["keydb", "garnet", "redis"] && ` + p16,
			plan:   planner.Plan{Intent: planner.IntentScaling},
			cells:  18,
			logY:   true,
			alt:    []string{"KeyDB (single process) 413K–636K ops/s", "at least 4.1M–21.4M ops/s"},
		},
		{
			name:   "every series at 48 cores (KeyDB at its 16) as bars",
			golden: "compare-48-cores.json",
			filter: `(cores == 48 || engine == "keydb" && cores == 16) && ` + p16,
			plan:   planner.Plan{Intent: planner.IntentCompare},
			cells:  7,
			logY:   true,
			alt:    []string{"Bar chart", "by cores (16 cores, 48 cores)"},
		},
		{
			name:   "the workload's effect on Dragonfly and Garnet at 48 cores",
			golden: "effect-ratio-dragonfly-garnet.json",
			filter: `engine in ["dragonfly", "garnet"] && cores == 48 && value_bytes == 100 && pipeline == 16`,
			plan:   planner.Plan{Intent: planner.IntentEffect, Slots: planner.Slots{Knob: "ratio"}},
			cells:  8,
			alt:    []string{"by workload (SET:GET 1:10, SET:GET 1:1, MGET×10, MSET×10)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := store.Query(t.Context(), tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var rows []Row
			for _, cell := range res.Cells {
				rows = append(rows, RowFromCell(cell))
			}
			if len(rows) != tt.cells {
				t.Fatalf("query gave %d cells, want %d", len(rows), tt.cells)
			}
			c := chartFor(tt.plan, rows)
			if c == nil {
				t.Fatal("no chart")
			}
			assertChartMatchesRows(t, c, rows, "ops_per_sec")
			if c.LogY != tt.logY {
				t.Errorf("LogY %v, want %v", c.LogY, tt.logY)
			}
			for _, want := range tt.alt {
				if !strings.Contains(c.AltText, want) {
					t.Errorf("alt text lacks %q:\n%s", want, c.AltText)
				}
			}
			checkChartGolden(t, tt.golden, c)
		})
	}
}

// checkChartGolden compares the chart with testdata/charts/name, or
// rewrites it under -update-charts.
func checkChartGolden(t *testing.T, name string, c *Chart) {
	t.Helper()
	got, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "charts", name)
	if *updateCharts {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestChartFor ./bot -update-charts)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the chart built now (rerun with -update-charts and review the diff):\n%s", path, got)
	}
}
