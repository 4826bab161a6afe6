package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the example charts under docs/ from bot/compose/testdata/charts")

// loadChart reads one of the bot's golden chart specs.
func loadChart(tb testing.TB, name string) bot.Chart {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "bot", "compose", "testdata", "charts", name))
	if err != nil {
		tb.Fatal(err)
	}
	var c bot.Chart
	if err := json.Unmarshal(raw, &c); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return c
}

// decode checks the bytes are a PNG of the expected size and returns it.
func decode(tb testing.TB, b []byte, w, h int) *image.RGBA {
	tb.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		tb.Fatalf("not a PNG: %v", err)
	}
	if got := img.Bounds().Size(); got.X != w || got.Y != h {
		tb.Fatalf("image is %dx%d, want %dx%d", got.X, got.Y, w, h)
	}
	// One conversion, so the checks below read bytes rather than calling
	// At (an interface value per pixel) hundreds of thousands of times.
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}

// near reports whether the image holds a pixel within a small distance
// of want (anti-aliasing blends edges, so solid areas are what match).
func near(img *image.RGBA, want color.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		d := absDiff(img.Pix[i], want.R) + absDiff(img.Pix[i+1], want.G) + absDiff(img.Pix[i+2], want.B)
		if d < 12 {
			n++
		}
	}
	return n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// distinctColors counts the colours used by at least minPixels pixels.
func distinctColors(img *image.RGBA, minPixels int) int {
	counts := map[color.RGBA]int{}
	for i := 0; i+3 < len(img.Pix); i += 4 {
		counts[color.RGBA{R: img.Pix[i], G: img.Pix[i+1], B: img.Pix[i+2], A: img.Pix[i+3]}]++
	}
	n := 0
	for _, c := range counts {
		if c >= minPixels {
			n++
		}
	}
	return n
}

func TestRenderDrawsEachExampleAsAReadablePNG(t *testing.T) {
	// The bot's golden chart specs (built from real query results) and the
	// example images kept under docs/.
	examples := []struct{ spec, doc string }{
		{"scale-dragonfly-redis.json", "scale-example.png"},
		{"scale-keydb-garnet-redis.json", "chart-log-scale-example.png"},
		{"compare-48-cores.json", "chart-compare-example.png"},
		{"effect-ratio-dragonfly-garnet.json", "chart-workload-example.png"},
	}
	for _, ex := range examples {
		name, doc := ex.spec, ex.doc
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each renders its own chart: seconds each under the race detector
			c := loadChart(t, name)
			b, err := Render(c)
			if err != nil {
				t.Fatal(err)
			}
			height := DefaultHeight
			if c.Cost != nil {
				height = DefaultPanelsHeight
			}
			img := decode(t, b, DefaultWidth, height)
			if n := distinctColors(img, 40); n < 6 {
				t.Errorf("only %d colours cover 40+ pixels: the image looks blank", n)
			}
			if n := near(img, color.RGBA{R: 0xff, G: 0xff, B: 0xff}); n < DefaultWidth*height/2 {
				t.Errorf("only %d white pixels: the background is not white", n)
			}
			for _, s := range c.Series {
				want, _ := engineColor(s.Engine)
				if n := near(img, want); n < 30 {
					t.Errorf("series %q: only %d pixels in its colour %v", s.Name, n, want)
				}
			}
			again, err := Render(c)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, again) {
				t.Error("rendering the same chart twice gave different bytes")
			}
			if *updateDocs {
				if err := os.WriteFile(filepath.Join("..", "..", "docs", doc), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestRenderHonoursTheRequestedSize(t *testing.T) {
	t.Parallel()
	c := loadChart(t, "scale-dragonfly-redis.json")
	b, err := Renderer{Width: 1600, Height: 960}.Render(c)
	if err != nil {
		t.Fatal(err)
	}
	decode(t, b, 1600, 960)
}

func TestRenderDrawsTheCeilingApartFromTheRealisticCluster(t *testing.T) {
	c := loadChart(t, "scale-dragonfly-redis.json")
	ls := looks(c.Series, newTheme(1))
	realistic, ceiling := ls[1], ls[2]
	if c.Series[1].Mode != "cluster" || c.Series[2].Mode != "cluster-sat" {
		t.Fatalf("fixture order changed: %q, %q", c.Series[1].Name, c.Series[2].Name)
	}
	if len(realistic.line.Dashes) != 0 || len(ceiling.line.Dashes) == 0 {
		t.Errorf("dashes: realistic %v, ceiling %v; want solid and dashed", realistic.line.Dashes, ceiling.line.Dashes)
	}
	if realistic.marker.shape == ceiling.marker.shape {
		t.Errorf("realistic and ceiling share marker shape %d", realistic.marker.shape)
	}
}

func TestRenderDrawsGarnetAsAHollowFloorWithGreaterOrEqualInTheLegend(t *testing.T) {
	c := loadChart(t, "scale-keydb-garnet-redis.json")
	ls := looks(c.Series, newTheme(1))
	for i, s := range c.Series {
		if s.Engine != "garnet" {
			if ls[i].marker.hollow || strings.HasPrefix(legendName(s), "≥") {
				t.Errorf("%q drawn as a floor", s.Name)
			}
			continue
		}
		if !ls[i].marker.hollow || !ls[i].floor {
			t.Errorf("Garnet marker hollow %v floor %v", ls[i].marker.hollow, ls[i].floor)
		}
		if got := legendName(s); got != "≥ Garnet (single process, client-limited floor)" {
			t.Errorf("legend name %q", got)
		}
	}
}

func TestRenderSpreadsCategoricalXEvenly(t *testing.T) {
	c := loadChart(t, "effect-ratio-dragonfly-garnet.json")
	cats := categories(c)
	var got []string
	for i, cat := range cats {
		if cat.pos != float64(i) {
			t.Errorf("category %q at %v, want %d", cat.label, cat.pos, i)
		}
		got = append(got, cat.label)
	}
	if want := "SET:GET 1:10|SET:GET 1:1|MGET×10|MSET×10"; strings.Join(got, "|") != want {
		t.Errorf("categories %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestRenderRefusesChartsItCannotDraw(t *testing.T) {
	point := func(y float64) []bot.ChartSeries {
		return []bot.ChartSeries{{Name: "Dragonfly (single process)", Engine: "dragonfly", Points: []bot.ChartPoint{{X: 48, Y: y}}}}
	}
	tests := []struct {
		name  string
		chart bot.Chart
	}{
		{"a chart without points", bot.Chart{Title: "empty"}},
		{"a value that is not a number", bot.Chart{Series: point(math.NaN())}},
		{"zero on a log axis", bot.Chart{LogY: true, Series: point(0)}},
		{"a negative value", bot.Chart{Series: point(-1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(tt.chart)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("err %v, want ErrInvalid", err)
			}
		})
	}
}

func TestYTicksUseTheAnswersNumberStyle(t *testing.T) {
	lin := yTicks{format: tickFormat("ops/s")}
	lo, hi := lin.bounds(2.04e6, 40.58e6)
	if lo != 0 || hi < 40.58e6*1.05 || hi > 50e6 {
		t.Errorf("linear bounds %v..%v", lo, hi)
	}
	var labels []string
	for _, tk := range lin.Ticks(lo, hi) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "0 10M 20M 30M 40M 50M" {
		t.Errorf("linear ticks %q", got)
	}
	logt := yTicks{log: true, format: tickFormat("ops/s")}
	lo, hi = logt.bounds(412877, 40.58e6)
	if lo != 200e3 || hi != 100e6 {
		t.Errorf("log bounds %v..%v, want 200K..100M", lo, hi)
	}
	labels = labels[:0]
	for _, tk := range logt.Ticks(lo, hi) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "200K 500K 1M 2M 5M 10M 20M 50M 100M" {
		t.Errorf("log ticks %q", got)
	}
	if got := tickFormat("ms")(2.5); got != "2.5" {
		t.Errorf("ms tick %q", got)
	}
}

func BenchmarkRenderScaleChart(b *testing.B) {
	c := loadChart(b, "scale-dragonfly-redis.json")
	for b.Loop() {
		if _, err := Render(c); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRenderDrawsUnusualButValidCharts(t *testing.T) {
	pts := func(ys ...float64) []bot.ChartPoint {
		var out []bot.ChartPoint
		for i, y := range ys {
			x := 4 << i
			out = append(out, bot.ChartPoint{X: float64(x), XLabel: strconv.Itoa(x), Y: y, Label: strconv.FormatFloat(y, 'g', 3, 64)})
		}
		return out
	}
	long := strings.Repeat("a very long title that has to wrap over several lines ", 4)
	tests := []struct {
		name  string
		chart bot.Chart
	}{
		{"a single bar", bot.Chart{Kind: bot.ChartBar, Series: []bot.ChartSeries{{Name: "Dragonfly", Engine: "dragonfly", Points: pts(15e6)}}}},
		{"engines without a colour of their own", bot.Chart{Kind: bot.ChartLine, Series: []bot.ChartSeries{
			{Name: "a", Engine: "memcached", Points: pts(1, 2, 3)}, {Name: "b", Engine: "etcd", Points: pts(3, 2, 1)},
			{Name: "c", Engine: "tikv", Points: pts(2, 2, 2)}, {Name: "d", Engine: "mongo", Points: pts(0, 1, 0)}}}},
		{"a latency on a log axis", bot.Chart{Kind: bot.ChartLine, LogY: true, YUnit: "ms", YLabel: "p99 latency (ms)",
			Series: []bot.ChartSeries{{Name: "Redis", Engine: "redis", Mode: "cluster", Points: pts(0.2, 2.4, 35)}}}},
		{"one series split in three shades", bot.Chart{Kind: bot.ChartLine, Series: []bot.ChartSeries{
			{Name: "Dragonfly · p1", Engine: "dragonfly", Mode: "single", Points: pts(1e6, 2e6)},
			{Name: "Dragonfly · p16", Engine: "dragonfly", Mode: "single", Points: pts(2e6, 4e6)},
			{Name: "Dragonfly · p64", Engine: "dragonfly", Mode: "single", Points: pts(3e6, 6e6)}}}},
		{"a long title and subtitle", bot.Chart{Title: long, Subtitle: long, Kind: bot.ChartBar,
			Series: []bot.ChartSeries{{Name: long, Engine: "garnet", Floor: true, Points: pts(1, 2)}}}},
		{"all values zero", bot.Chart{Kind: bot.ChartBar, Series: []bot.ChartSeries{{Name: "x", Points: pts(0, 0)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := Render(tt.chart)
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, b, DefaultWidth, DefaultHeight)
			if n := distinctColors(img, 40); n < 3 {
				t.Errorf("only %d colours cover 40+ pixels", n)
			}
		})
	}
}

// TestAChartWithItsLatencyCostDrawsBothPanels renders the workload effect
// with its p99 panel: the image is the taller default, each series'
// colour is drawn in both halves, and a cost panel that cannot be drawn
// makes the whole chart an error rather than half a picture.
func TestAChartWithItsLatencyCostDrawsBothPanels(t *testing.T) {
	t.Parallel()
	c := loadChart(t, "effect-ratio-dragonfly-garnet.json")
	if c.Cost == nil {
		t.Fatal("the golden effect chart has no cost panel")
	}
	b, err := Render(c)
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, b, DefaultWidth, DefaultPanelsHeight)
	top, bottom := *img, *img
	top.Pix = img.Pix[:len(img.Pix)/2]
	bottom.Pix = img.Pix[len(img.Pix)/2:]
	for _, s := range c.Series {
		want, _ := engineColor(s.Engine)
		if nt, nb := near(&top, want), near(&bottom, want); nt < 30 || nb < 30 {
			t.Errorf("series %q: %d pixels of its colour above, %d below", s.Name, nt, nb)
		}
	}
	broken := c
	cost := *c.Cost
	cost.Series = append([]bot.ChartSeries(nil), cost.Series...)
	cost.Series[0].Points = []bot.ChartPoint{{X: 0, XLabel: "x", Y: math.NaN()}}
	broken.Cost = &cost
	if _, err := Render(broken); !errors.Is(err, ErrInvalid) {
		t.Errorf("a cost panel with NaN rendered: %v", err)
	}
}
