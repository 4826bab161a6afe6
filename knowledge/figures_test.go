package knowledge

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// TestFindingFiguresEqualWhatTheRunsGive pins the headline figures the
// project repeats everywhere; they are computed from the runs at load, so a
// change in the data (or in the computation) shows up here.
func TestFindingFiguresEqualWhatTheRunsGive(t *testing.T) {
	b := loadBase(t)
	for _, tc := range []struct {
		name, id, figure, want string
	}{
		{"Dragonfly is 3.4× the realistic Redis cluster at 48 cores", "finding:headline-48c", "df_vs_realistic", "3.4×"},
		{"Dragonfly reaches 38% of the fully driven ceiling", "finding:headline-48c", "df_share_of_ceiling", "38%"},
		{"the ceiling is 2.6× Dragonfly", "finding:headline-48c", "ceiling_vs_df", "2.6×"},
		{"Dragonfly passes the realistic Redis cluster at 16 cores", "finding:overtake-16c", "crossover_redis", "16 cores"},
		{"Dragonfly passes the realistic Valkey cluster at 16 cores", "finding:overtake-16c", "crossover_valkey", "16 cores"},
		{"with 1 KB values the crossover moves to 24 cores", "finding:overtake-16c", "crossover_1k", "24 cores"},
		{"the Redis ceiling-to-realistic gap at 48 cores is 8.86×", "finding:cross-workload-48c", "gap_redis_48", "8.86×"},
		{"KeyDB gains 12% from 8 to 16 cores", "finding:keydb-wall", "gain_8_to_16", "+12%"},
		{"KeyDB gains 38% from 4 to 8 cores", "finding:keydb-wall", "gain_4_to_8", "+38%"},
		{"pipelining multiplies Dragonfly's throughput by 5.59", "finding:pipelining-effect", "df_gain", "5.59×"},
		{"Redis needs 13.1% more memory per key than Dragonfly", "finding:memory-bytes-per-key", "redis_more", "13.1%"},
		{"Dragonfly uses 11.6% less memory than Redis", "finding:memory-bytes-per-key", "df_less_than_redis", "11.6%"},
		{"Garnet's floor is 1.38× Dragonfly (cross-session)", "finding:garnet-client-limited", "garnet_vs_df", "1.38×"},
		{"MGET of 10 keys at 48 cores is about 23.7M keys/s", "finding:multi-key-crossslot", "mget_keys", "23.7M keys/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := b.Finding(tc.id)
			if !ok {
				t.Fatalf("no finding %s", tc.id)
			}
			fig, ok := f.Figure(tc.figure)
			if !ok {
				t.Fatalf("%s has no figure %q", tc.id, tc.figure)
			}
			if fig.Text != tc.want {
				t.Errorf("%s %s = %s (%v), want %s", tc.id, tc.figure, fig.Text, fig.Value, tc.want)
			}
			if !strings.Contains(f.Statement+strings.Join(f.Points, " "), fig.Text) {
				t.Errorf("%s does not state its figure %s", tc.id, fig.Text)
			}
		})
	}
}

func TestMeasuresStateFloorsAndRoundTheProjectsWay(t *testing.T) {
	b := loadBase(t)
	for _, tc := range []struct {
		name, id, measure, want string
	}{
		{"Garnet at 48 cores is at least 21.4M, client-limited", "finding:garnet-client-limited", "g48", "at least 21.4M ops/s (client-limited)"},
		{"KeyDB at 16 cores is 636K", "finding:keydb-wall", "k16", "636K ops/s"},
		{"Dragonfly at 48 cores is 15.5M", "finding:headline-48c", "df", "15.5M ops/s"},
		{"the realistic Redis cluster at 48 cores is 4.6M", "finding:headline-48c", "redis_real", "4.6M ops/s"},
		{"the ceiling at 48 cores is 40.6M", "finding:headline-48c", "redis_ceiling", "40.6M ops/s"},
		{"Dragonfly's pipelined p99 at 48 cores is 2.423 ms", "finding:latency-48c", "df_p99", "2.423 ms"},
		{"Dragonfly stores 146.1 bytes per key", "finding:memory-bytes-per-key", "dragonfly", "146.1 bytes/key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := b.Finding(tc.id)
			m, ok := f.Measure(tc.measure)
			if !ok {
				t.Fatalf("%s has no measure %q", tc.id, tc.measure)
			}
			if got := formatMeasure(&m, false); got != tc.want {
				t.Errorf("%s %s = %q, want %q", tc.id, tc.measure, got, tc.want)
			}
		})
	}
	f, _ := b.Finding("finding:headline-48c")
	m, _ := f.Measure("df")
	if got, want := formatMeasure(&m, true), "15,473,658.395 ops/s"; got != want {
		t.Errorf("exact Dragonfly headline = %q, want %q", got, want)
	}
	if got := MeasureConditions(m); got != "session 1, Dragonfly (single process), 48 cores, SET:GET 1:10, 100 B values, pipeline 16, median of 2 reps" {
		t.Errorf("conditions = %q", got)
	}
	if len(m.RunIDs()) != 2 {
		t.Errorf("run ids = %v, want the two repetitions", m.RunIDs())
	}
}

// TestEveryComputedFigureMatchesTheGoldenFile lists every measure and
// figure of every claim, finding and note with its exact value; a drift
// between the data and the knowledge base shows up as a diff. Run with
// -update to rewrite testdata/figures.golden after reviewing the change.
func TestEveryComputedFigureMatchesTheGoldenFile(t *testing.T) {
	b := loadBase(t)
	var sb strings.Builder
	dump := func(id string, ms []Measure, fs []Figure) {
		for _, m := range ms {
			fmt.Fprintf(&sb, "%s %s = %s | %s\n", id, m.Name, formatMeasure(&m, true), MeasureConditions(m))
		}
		for _, f := range fs {
			fmt.Fprintf(&sb, "%s %s = %s\n", id, f.Name, f.Text)
		}
	}
	for _, c := range b.claims {
		dump(c.ID, c.Measures, c.Figures)
	}
	for _, f := range b.findings {
		dump(f.ID, f.Measures, f.Figures)
	}
	for _, n := range b.notes {
		dump(n.ID, n.Measures, n.Figures)
	}
	golden := "testdata/figures.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := sb.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("figures drifted from %s at line %d:\n got: %s\nwant: %s", golden, i+1, g, w)
			}
		}
	}
}
