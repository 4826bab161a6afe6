package analytics

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/expr-lang/expr/vm"
)

// Query compiles the filter through the one gate (CompileFilter, once per
// filter text: see filterCache), selects matching runs and aggregates them
// into cells (median across reps).
func (s *Store) Query(ctx context.Context, filter string) (Result, error) {
	f, err := s.filters.compile(filter)
	if err != nil {
		return Result{Filter: filter}, err
	}
	return s.QueryFilter(ctx, f)
}

// QueryFilter is Query with an already compiled filter.
func (s *Store) QueryFilter(ctx context.Context, f *Filter) (Result, error) {
	snap := s.current()
	idx, err := f.selectRuns(ctx, snap.envs)
	if err != nil {
		return Result{Filter: f.text}, err
	}
	return Result{Filter: f.text, Cells: aggregate(snap.runs, idx), Runs: len(idx)}, nil
}

// selectRuns returns the indexes of the environments the filter matches.
func (f *Filter) selectRuns(ctx context.Context, envs []runEnv) ([]int, error) {
	var m vm.VM
	var idx []int
	for i := range envs {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("query: %w", err)
			}
		}
		ok, err := f.match(&m, &envs[i])
		if err != nil {
			return nil, err
		}
		if ok {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// aggregate groups the selected runs into cells, each holding the median
// across its repetitions of every metric, in cell order.
func aggregate(runs []Run, idx []int) []Cell {
	groups := map[CellKey][]int{}
	var keys []CellKey
	for _, i := range idx {
		k := runs[i].Key()
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	sortKeys(keys)
	cells := make([]Cell, 0, len(keys))
	vals := make([]float64, 0, 8)
	for _, k := range keys {
		g := groups[k]
		sort.Slice(g, func(a, b int) bool {
			ra, rb := &runs[g[a]], &runs[g[b]]
			if ra.Rep != rb.Rep {
				return ra.Rep < rb.Rep
			}
			return ra.ID < rb.ID
		})
		med := func(get func(*Run) float64) float64 {
			vals = vals[:0]
			for _, i := range g {
				vals = append(vals, get(&runs[i]))
			}
			return Median(vals)
		}
		c := Cell{CellKey: k, Reps: len(g)}
		c.OpsPerSec = med(func(r *Run) float64 { return r.OpsPerSec })
		c.OpsPerCore = med(func(r *Run) float64 { return r.OpsPerCore })
		c.P50Ms = med(func(r *Run) float64 { return r.P50Ms })
		c.P99Ms = med(func(r *Run) float64 { return r.P99Ms })
		c.P999Ms = med(func(r *Run) float64 { return r.P999Ms })
		c.KBPerSec = med(func(r *Run) float64 { return r.KBPerSec })
		vals = vals[:0]
		for _, i := range g {
			if h := runs[i].HitRate; h != nil {
				vals = append(vals, *h)
			}
		}
		if len(vals) > 0 {
			h := Median(vals)
			c.HitRate = &h
		}
		c.RunIDs = make([]string, len(g))
		for j, i := range g {
			c.RunIDs[j] = runs[i].ID
		}
		cells = append(cells, c)
	}
	return cells
}

// Median returns the median of the values (the mean of the two middle values
// for an even count; 0 for none), rounded to six decimal places so that
// averaging two decimal figures gives the decimal result (15473658.395, not
// 15473658.394999999). It reorders vals.
func Median(vals []float64) float64 {
	n := len(vals)
	if n == 0 {
		return 0
	}
	slices.Sort(vals)
	if n%2 == 1 {
		return vals[n/2]
	}
	return math.Round((vals[n/2-1]+vals[n/2])/2*1e6) / 1e6
}

// sortKeys puts cell keys in cell order: session, engine order, mode order,
// cores, ratio order, value size, pipeline.
func sortKeys(keys []CellKey) {
	slices.SortFunc(keys, CompareCellKeys)
}

// CompareCellKeys orders cell keys: session, engine (Engines order), mode
// (Modes order), cores, ratio (1:10, 1:1, mget10, mset10, then others),
// value size, pipeline.
func CompareCellKeys(a, b CellKey) int {
	return cmp.Or(
		cmp.Compare(a.Session, b.Session),
		compareIn(Engines, a.Engine, b.Engine),
		compareIn(Modes, a.Mode, b.Mode),
		cmp.Compare(a.Cores, b.Cores),
		compareIn(ratioOrder, a.Ratio, b.Ratio),
		cmp.Compare(a.ValueBytes, b.ValueBytes),
		cmp.Compare(a.Pipeline, b.Pipeline),
	)
}

// ratioOrder is the order ratios are listed in.
var ratioOrder = []string{"1:10", "1:1", "mget10", "mset10"}

// compareIn orders by position in a known list, unknown values after the
// known ones, alphabetically.
func compareIn(order []string, a, b string) int {
	ia, ib := slices.Index(order, a), slices.Index(order, b)
	if ia < 0 {
		ia = len(order)
	}
	if ib < 0 {
		ib = len(order)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}
