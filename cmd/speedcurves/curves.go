package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// opInfo is how an operation of BenchmarkCurves is shown: its label and
// which chart it is drawn in (0: queries, 1: import, open and ask).
type opInfo struct {
	label string
	panel int
}

// knownOps are BenchmarkCurves' operations in the order they are listed;
// another name is listed after them, under its own name, in the second
// chart.
var knownOps = []struct {
	name string
	opInfo
}{
	{"selective", opInfo{"one cell (selective)", 0}},
	{"scan-1.6pct", opInfo{"1.6% of runs (scan)", 0}},
	{"non-indexed", opInfo{"non-indexed fields", 0}},
	{"scan-100pct", opInfo{"every run (scan)", 0}},
	{"aggregate-50pct", opInfo{"50% of runs, medians", 0}},
	{"import", opInfo{"import the CSV", 1}},
	{"open", opInfo{"open, match nothing", 1}},
	{"ask", opInfo{"ask a question", 1}},
}

func infoOf(op string) opInfo {
	if i := rankOf(op); i < len(knownOps) {
		return knownOps[i].opInfo
	}
	return opInfo{op, 1}
}

// rankOf is an operation's place in knownOps; others come after.
func rankOf(op string) int {
	for i, k := range knownOps {
		if k.name == op {
			return i
		}
	}
	return len(knownOps)
}

// figures are one operation's metrics at one size, each the median of the
// lines that reported it (a run with -count gives several).
type figures map[string]float64

type point struct {
	op   string
	runs int
}

// curves is what BenchmarkCurves printed.
type curves struct {
	sizes []int    // ascending
	ops   []string // knownOps order, then others as first seen
	at    map[point]figures
}

// benchName is a BenchmarkCurves result's name: the size, the operation,
// and the GOMAXPROCS suffix go test adds.
var benchName = regexp.MustCompile(`^BenchmarkCurves/runs=([0-9]+)/([A-Za-z0-9.%_-]+?)(-[0-9]+)?$`)

// readCurves reads go test -bench output, keeping BenchmarkCurves' lines.
func readCurves(r io.Reader) (curves, error) {
	seen := map[point]map[string][]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		m := benchName.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		runs, err := strconv.Atoi(m[1])
		if err != nil || runs <= 0 {
			return curves{}, fmt.Errorf("line %d: %s: %q is not a number of runs", line, f[0], m[1])
		}
		if len(f) < 4 || len(f)%2 != 0 {
			return curves{}, fmt.Errorf("line %d: %s: not an iteration count and value-unit pairs", line, f[0])
		}
		p := point{m[2], runs}
		if seen[p] == nil {
			seen[p] = map[string][]float64{}
		}
		for i := 2; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return curves{}, fmt.Errorf("line %d: %s: %q is not a number", line, f[0], f[i])
			}
			seen[p][f[i+1]] = append(seen[p][f[i+1]], v)
		}
	}
	if err := sc.Err(); err != nil {
		return curves{}, err
	}
	if len(seen) == 0 {
		return curves{}, errors.New("no BenchmarkCurves results in the input (go test ./analytics -run X -bench Curves -benchtime 5x)")
	}
	c := curves{at: map[point]figures{}}
	for p, metrics := range seen {
		fs := figures{}
		for unit, vs := range metrics {
			slices.Sort(vs)
			fs[unit] = vs[len(vs)/2]
		}
		c.at[p] = fs
		if !slices.Contains(c.sizes, p.runs) {
			c.sizes = append(c.sizes, p.runs)
		}
		if !slices.Contains(c.ops, p.op) {
			c.ops = append(c.ops, p.op)
		}
	}
	slices.Sort(c.sizes)
	slices.SortFunc(c.ops, func(a, b string) int {
		if ra, rb := rankOf(a), rankOf(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return c, nil
}

// runsLabel writes a size for a reader: 10k, 1M.
func runsLabel(n int) string {
	switch {
	case n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n%1_000 == 0:
		return strconv.Itoa(n/1_000) + "k"
	}
	return strconv.Itoa(n)
}

// colourSlots name the chart package's engine colours, used here only to
// give each operation its own colour (its sqlite3 line is the same colour,
// darker, dashed, with another marker).
var colourSlots = []string{"dragonfly", "redis", "valkey", "keydb", "garnet"}

// panelHeight is each chart's height in pixels: taller than a chat chart,
// for a legend of up to ten lines.
const panelHeight = 760

// drawCurves draws the two charts, one above the other, in one PNG.
func drawCurves(c curves) ([]byte, error) {
	titles := [2]string{"Queries as whole processes: CPU time against the store's size",
		"Import, open and ask as whole processes"}
	subtitles := [2]string{"Synthetic runs; median CPU time (user+system) of the repetitions, each run in turn with sqlite3's " +
		"(typed columns, an index on the cell columns; its aggregate takes means, memdb-oracle's medians). Solid: memdb-oracle; dashed: sqlite3.",
		"The same runs and repetitions. sqlite3's import builds its table, the index and ANALYZE; " +
			"its open and ask are one SELECT each. Solid: memdb-oracle; dashed: sqlite3."}
	var imgs []image.Image
	for panel := range 2 {
		ch := bot.Chart{Kind: bot.ChartLine, Title: titles[panel], Subtitle: subtitles[panel], LogY: true, XCategorical: true,
			XLabel: "runs in the store", YLabel: "CPU time per process (ms, log scale)", YUnit: "ms"}
		slot := 0
		for _, op := range c.ops {
			info := infoOf(op)
			if info.panel != panel {
				continue
			}
			engine := colourSlots[slot%len(colourSlots)]
			slot++
			ours := bot.ChartSeries{Name: "memdb-oracle: " + info.label, Engine: engine}
			base := bot.ChartSeries{Name: "sqlite3: " + info.label, Engine: engine, Ceiling: true}
			for i, n := range c.sizes {
				fs, ok := c.at[point{op, n}]
				if !ok {
					continue
				}
				if v, ok := fs["cpu-ms"]; ok && v > 0 {
					ours.Points = append(ours.Points, bot.ChartPoint{X: float64(i), XLabel: runsLabel(n), Y: v, Label: msLabel(v)})
				}
				if v, ok := fs["sqlite3-cpu-ms"]; ok && v > 0 {
					base.Points = append(base.Points, bot.ChartPoint{X: float64(i), XLabel: runsLabel(n), Y: v})
				}
			}
			for _, s := range []bot.ChartSeries{ours, base} {
				if len(s.Points) > 0 {
					ch.Series = append(ch.Series, s)
				}
			}
		}
		if len(ch.Series) == 0 {
			continue
		}
		b, err := chart.Renderer{Width: chart.DefaultWidth, Height: panelHeight}.Render(ch)
		if err != nil {
			return nil, err
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		imgs = append(imgs, img)
	}
	if len(imgs) == 0 {
		return nil, errors.New("no CPU times to draw")
	}
	return stack(imgs)
}

// stack draws images one above the other.
func stack(imgs []image.Image) ([]byte, error) {
	w, h := 0, 0
	for _, img := range imgs {
		w, h = max(w, img.Bounds().Dx()), h+img.Bounds().Dy()
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	y := 0
	for _, img := range imgs {
		r := img.Bounds()
		draw.Draw(out, image.Rect(0, y, r.Dx(), y+r.Dy()), img, r.Min, draw.Src)
		y += r.Dy()
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// msLabel writes a CPU time at a point: 3 significant digits.
func msLabel(v float64) string {
	switch {
	case v >= 1000:
		return strconv.FormatFloat(v/1000, 'f', 1, 64) + " s"
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// baselines are the other sides BenchmarkCurves may time: their metric
// prefixes and names in the table.
var baselines = []struct{ prefix, name string }{{"sqlite3-", "sqlite3"}, {"duckdb-", "DuckDB"}, {"before-", "before"}}

// writeTable prints the figures as a Markdown table, one row per size and
// operation: memdb-oracle's median CPU time, its spread and peak RSS, then
// for each baseline timed its median CPU time and spread and the median
// of the pairwise ratios.
func writeTable(w io.Writer, c curves) error {
	var cols []int // baselines present
	for i, bl := range baselines {
		for _, fs := range c.at {
			if _, ok := fs[bl.prefix+"cpu-ms"]; ok {
				cols = append(cols, i)
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("| runs | operation | memdb-oracle CPU ms (max/min) | peak RSS MiB |")
	rule := "\n|---:|---|---:|---:|"
	for _, i := range cols {
		fmt.Fprintf(&b, " %s CPU ms (max/min) | × %s |", baselines[i].name, baselines[i].name)
		rule += "---:|---:|"
	}
	b.WriteString(rule + "\n")
	num := func(fs figures, unit string, f string) string {
		v, ok := fs[unit]
		if !ok {
			return "–"
		}
		return fmt.Sprintf(f, v)
	}
	for _, n := range c.sizes {
		for _, op := range c.ops {
			fs, ok := c.at[point{op, n}]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s (%s) | %s |", runsLabel(n), infoOf(op).label,
				num(fs, "cpu-ms", "%.1f"), num(fs, "cpu-max/min", "%.2f"), num(fs, "rss-MiB", "%.0f"))
			for _, i := range cols {
				p := baselines[i].prefix
				fmt.Fprintf(&b, " %s (%s) | %s |", num(fs, p+"cpu-ms", "%.1f"), num(fs, p+"cpu-max/min", "%.2f"),
					num(fs, "x-"+strings.TrimSuffix(p, "-"), "%.2f"))
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
