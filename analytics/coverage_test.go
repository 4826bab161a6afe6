package analytics_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

func TestCoverageListsTheKnobValuesOfEachSeries(t *testing.T) {
	s := analyticstest.OpenStore(t)
	var got []string
	runs, cells := 0, 0
	for _, c := range s.Coverage() {
		got = append(got, fmt.Sprintf("s%d %s %s cores=%v ratios=%v values=%v pipelines=%v runs=%d cells=%d",
			c.Session, c.Engine, c.Mode, c.Cores, c.Ratios, c.ValueBytes, c.Pipelines, c.Runs, c.Cells))
		runs += c.Runs
		cells += c.Cells
	}
	want := []string{
		"s1 dragonfly single cores=[4 8 16 24 48] ratios=[1:10 1:1 mget10 mset10] values=[100 1024] pipelines=[1 16] runs=160 cells=80",
		"s1 redis cluster cores=[4 8 16 24 48] ratios=[1:10 1:1] values=[100 1024] pipelines=[1 16] runs=80 cells=40",
		"s1 redis cluster-sat cores=[4 8 16 24 48] ratios=[1:10 1:1] values=[100 1024] pipelines=[16] runs=15 cells=15",
		"s1 valkey cluster cores=[4 8 16 24 48] ratios=[1:10 1:1] values=[100 1024] pipelines=[1 16] runs=80 cells=40",
		"s1 valkey cluster-sat cores=[4 8 16 24 48] ratios=[1:10 1:1] values=[100 1024] pipelines=[16] runs=15 cells=15",
		"s2 keydb single cores=[4 8 16] ratios=[1:10 1:1 mget10 mset10] values=[100] pipelines=[1 16] runs=48 cells=24",
		"s2 garnet single cores=[4 8 16 24 48] ratios=[1:10 1:1 mget10 mset10] values=[100] pipelines=[1 16] runs=80 cells=40",
	}
	if !slices.Equal(got, want) {
		t.Errorf("coverage:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if runs != 478 || cells != 254 {
		t.Errorf("coverage totals %d runs, %d cells; want 478, 254", runs, cells)
	}
}

func TestExistsAnswersForExactAndOpenCombinations(t *testing.T) {
	s := analyticstest.OpenStore(t)
	tests := []struct {
		name string
		key  analytics.CellKey
		want bool
	}{
		{"a measured cell exists", analytics.CellKey{Session: 1, Engine: "dragonfly", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16}, true},
		{"Redis single-process was never measured", analytics.CellKey{Session: 1, Engine: "redis", Mode: "single", Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 16}, false},
		{"KeyDB never ran at 48 cores", analytics.CellKey{Session: 2, Engine: "keydb", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16}, false},
		{"pipeline 64 was never measured", analytics.CellKey{Engine: "dragonfly", Pipeline: 64}, false},
		{"an open knob matches any measured value", analytics.CellKey{Engine: "garnet", Cores: 24}, true},
		{"cluster-sat never ran without pipelining", analytics.CellKey{Engine: "redis", Mode: "cluster-sat", Pipeline: 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Exists(tt.key); got != tt.want {
				t.Errorf("Exists(%+v) = %v", tt.key, got)
			}
		})
	}
}

func TestNearestPrefersCellsDifferingInOneKnob(t *testing.T) {
	s := analyticstest.OpenStore(t)
	describe := func(ns []analytics.Neighbor) string {
		var out []string
		for _, n := range ns {
			out = append(out, fmt.Sprintf("%s %s %dc %s %dB p%d [%s]", n.Engine, n.Mode, n.Cores, n.Ratio,
				n.ValueBytes, n.Pipeline, strings.Join(n.Differs, ",")))
		}
		return strings.Join(out, "\n")
	}
	tests := []struct {
		name string
		key  analytics.CellKey
		n    int
		want []string
	}{
		{
			name: "Redis single 8c pipeline 64 gets Redis cluster p16 cells at 8 cores",
			key:  analytics.CellKey{Session: 1, Engine: "redis", Mode: "single", Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 64},
			n:    3,
			want: []string{
				"redis cluster 8c 1:10 100B p16 [mode,pipeline]",
				"redis cluster-sat 8c 1:10 100B p16 [mode,pipeline]",
				"redis cluster 8c 1:1 100B p16 [mode,ratio,pipeline]",
			},
		},
		{
			name: "KeyDB at 48 cores gets the same series at other core counts first",
			key:  analytics.CellKey{Session: 2, Engine: "keydb", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16},
			n:    2,
			want: []string{
				"keydb single 16c 1:10 100B p16 [cores]",
				"keydb single 8c 1:10 100B p16 [cores]",
			},
		},
		{
			name: "an exact match comes first with nothing differing",
			key:  analytics.CellKey{Session: 1, Engine: "dragonfly", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16},
			n:    2,
			want: []string{
				"dragonfly single 48c 1:10 100B p16 []",
				"dragonfly single 48c 1:1 100B p16 [ratio]",
			},
		},
		{
			name: "another engine comes only after every cell of the asked engine",
			key:  analytics.CellKey{Session: 2, Engine: "keydb", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16},
			n:    25,
			want: nil, // checked below
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Nearest(tt.key, tt.n)
			if tt.want != nil {
				if d := describe(got); d != strings.Join(tt.want, "\n") {
					t.Errorf("nearest:\n%s\nwant:\n%s", d, strings.Join(tt.want, "\n"))
				}
				return
			}
			for i, n := range got {
				if (i < 24) == slices.Contains(n.Differs, "engine") {
					t.Errorf("neighbour %d: %s", i, describe([]analytics.Neighbor{n}))
				}
			}
		})
	}
	if got := s.Nearest(analytics.CellKey{Engine: "redis"}, 0); got != nil {
		t.Errorf("Nearest(…, 0) = %v, want nil", got)
	}
}
