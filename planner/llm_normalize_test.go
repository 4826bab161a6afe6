package planner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// A model reply is tidied before it becomes a plan: repeated values count
// once, and lists follow the order of the question.
func TestAModelReplyIsNormalisedBeforeItBecomesAPlan(t *testing.T) {
	cov := newFakeCoverage(
		grid(1, "dragonfly", "single", []int{16, 48}, []string{"1:10"}, []int{100}, []int{16}),
		grid(1, "redis", "cluster", []int{16, 48}, []string{"1:10"}, []int{100}, []int{16}),
		grid(1, "redis", "cluster-sat", []int{16, 48}, []string{"1:10"}, []int{100}, []int{16}),
		grid(2, "garnet", "single", []int{16, 48}, []string{"1:10"}, []int{100}, []int{16}),
	)
	for _, tt := range []struct {
		name, question, reply string
		engines               []string
		modes                 []string
		cores                 []int
		never                 []string // in the interpretation or a filter
	}{
		{"a repeated engine and core count is one engine at one core count",
			"the nimble one with the tiny blobs, how did it fare against itself",
			`{"intent":"compare","engines":["dragonfly","dragonfly","dragonfly"],"cores":[16,16]}`,
			[]string{"dragonfly"}, nil, []int{16}, []string{"Dragonfly (single process) vs Dragonfly", "16 and 16", "[16, 16]"}},
		{"a repeated pair is the pair once",
			"the nimble one with the tiny blobs against the big red one, twice over",
			`{"intent":"compare","engines":["dragonfly","redis","dragonfly","redis"],"modes":["single","cluster","cluster"],"cores":[48,48]}`,
			[]string{"dragonfly", "redis"}, []string{"single", "cluster"}, []int{48}, []string{"Dragonfly (single process) vs Redis Cluster (realistic) vs Dragonfly", "48 and 48"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &scriptedCompleter{reply: tt.reply}
			p := planner.New(cov, nil, planner.Options{Completer: c})
			pl, err := p.Plan(t.Context(), tt.question, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pl.Source != "llm" {
				t.Fatalf("the reply was not used (source %s, %s):\n%s", pl.Source, pl.Intent, pl.Text())
			}
			if !slices.Equal(pl.Slots.Engines, tt.engines) {
				t.Errorf("engines %v, want %v", pl.Slots.Engines, tt.engines)
			}
			if tt.modes != nil && !slices.Equal(pl.Slots.Modes, tt.modes) {
				t.Errorf("modes %v, want %v", pl.Slots.Modes, tt.modes)
			}
			if tt.cores != nil && !slices.Equal(pl.Slots.Cores, tt.cores) {
				t.Errorf("cores %v, want %v", pl.Slots.Cores, tt.cores)
			}
			text := pl.Interpretation + "\n" + strings.Join(filtersOf(pl), "\n")
			for _, s := range tt.never {
				if strings.Contains(text, s) {
					t.Errorf("the plan says %q:\n%s", s, text)
				}
			}
		})
	}
}
