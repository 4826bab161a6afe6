package planner_test

import (
	"cmp"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// fakeCoverage is a Coverage over a hand-written set of measured cells, so
// tests can show that decisions follow the coverage and nothing else.
type fakeCoverage struct {
	cells []analytics.CellKey
}

// grid lists every combination of the given knob values for one series.
func grid(session int, engine, mode string, cores []int, ratios []string, values, pipes []int) []analytics.CellKey {
	var out []analytics.CellKey
	for _, c := range cores {
		for _, r := range ratios {
			for _, v := range values {
				for _, p := range pipes {
					out = append(out, analytics.CellKey{Session: session, Engine: engine, Mode: mode, Cores: c, Ratio: r, ValueBytes: v, Pipeline: p})
				}
			}
		}
	}
	return out
}

func newFakeCoverage(grids ...[]analytics.CellKey) *fakeCoverage {
	f := &fakeCoverage{}
	for _, g := range grids {
		f.cells = append(f.cells, g...)
	}
	return f
}

func (f *fakeCoverage) Coverage() []analytics.SeriesCoverage {
	var out []analytics.SeriesCoverage
	for _, c := range f.cells {
		i := slices.IndexFunc(out, func(s analytics.SeriesCoverage) bool {
			return s.Session == c.Session && s.Engine == c.Engine && s.Mode == c.Mode
		})
		if i < 0 {
			out = append(out, analytics.SeriesCoverage{Session: c.Session, Engine: c.Engine, Mode: c.Mode})
			i = len(out) - 1
		}
		s := &out[i]
		if !slices.Contains(s.Cores, c.Cores) {
			s.Cores = append(s.Cores, c.Cores)
			slices.Sort(s.Cores)
		}
		if !slices.Contains(s.Ratios, c.Ratio) {
			s.Ratios = append(s.Ratios, c.Ratio)
		}
		if !slices.Contains(s.ValueBytes, c.ValueBytes) {
			s.ValueBytes = append(s.ValueBytes, c.ValueBytes)
			slices.Sort(s.ValueBytes)
		}
		if !slices.Contains(s.Pipelines, c.Pipeline) {
			s.Pipelines = append(s.Pipelines, c.Pipeline)
			slices.Sort(s.Pipelines)
		}
		s.Cells++
		s.Runs += 2
	}
	return out
}

func matches(k, c analytics.CellKey) int {
	d := 0
	if k.Session != 0 && k.Session != c.Session {
		d++
	}
	if k.Engine != "" && k.Engine != c.Engine {
		d += 10
	}
	if k.Mode != "" && k.Mode != c.Mode {
		d++
	}
	if k.Cores != 0 && k.Cores != c.Cores {
		d++
	}
	if k.Ratio != "" && k.Ratio != c.Ratio {
		d++
	}
	if k.ValueBytes != 0 && k.ValueBytes != c.ValueBytes {
		d++
	}
	if k.Pipeline != 0 && k.Pipeline != c.Pipeline {
		d++
	}
	return d
}

func (f *fakeCoverage) Exists(k analytics.CellKey) bool {
	return slices.ContainsFunc(f.cells, func(c analytics.CellKey) bool { return matches(k, c) == 0 })
}

func (f *fakeCoverage) Nearest(k analytics.CellKey, n int) []analytics.Neighbor {
	cells := slices.Clone(f.cells)
	slices.SortStableFunc(cells, func(a, b analytics.CellKey) int { return cmp.Compare(matches(k, a), matches(k, b)) })
	var out []analytics.Neighbor
	for _, c := range cells[:min(n, len(cells))] {
		out = append(out, analytics.Neighbor{Cell: analytics.Cell{CellKey: c, Reps: 2}})
	}
	return out
}

// fakeKnowledge is a knowledge base with a few terms and claims.
type fakeKnowledge struct {
	terms  []knowledge.Term
	claims []knowledge.Claim
}

func newFakeKnowledge() *fakeKnowledge {
	return &fakeKnowledge{
		terms: []knowledge.Term{
			{ID: "term:pipelining", Name: "Pipeline depth", Aliases: []string{"pipelining", "pipeline"}},
			{ID: "term:numa", Name: "NUMA", Aliases: []string{"numa node"}},
		},
		claims: []knowledge.Claim{
			{ID: "claim:dragonfly-25x", Title: "25x", Engines: []string{"dragonfly", "redis"}, Topics: []string{"throughput"}},
			{ID: "claim:dragonfly-memory", Title: "memory", Engines: []string{"dragonfly", "redis"}, Topics: []string{"memory"}},
		},
	}
}

func (k *fakeKnowledge) Define(text string) (knowledge.Term, bool) {
	text = strings.ToLower(strings.Trim(text, " ?"))
	for _, t := range k.terms {
		if strings.EqualFold(t.Name, text) || slices.Contains(t.Aliases, text) {
			return t, true
		}
	}
	return knowledge.Term{}, false
}

func (k *fakeKnowledge) Terms() []knowledge.Term { return k.terms }

func (k *fakeKnowledge) Claim(id string) (knowledge.Claim, bool) {
	i := slices.IndexFunc(k.claims, func(c knowledge.Claim) bool { return c.ID == id })
	if i < 0 {
		return knowledge.Claim{}, false
	}
	return k.claims[i], true
}

func (k *fakeKnowledge) Claims(engine, topic string) []knowledge.Claim { return k.claims }

// smallCoverage is a toy dataset unlike the real one: KeyDB reaches 48
// cores, Dragonfly has pipeline 64, and an engine the vocabulary does not
// know ("tidestore") was imported.
func smallCoverage() *fakeCoverage {
	return newFakeCoverage(
		grid(1, "dragonfly", "single", []int{8, 48}, []string{"1:10"}, []int{100}, []int{16, 64}),
		grid(2, "keydb", "single", []int{8, 24, 48}, []string{"1:10"}, []int{100}, []int{16}),
		grid(3, "tidestore", "single", []int{48}, []string{"1:10"}, []int{100}, []int{16}),
	)
}
