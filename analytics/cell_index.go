package analytics

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/vm"
)

// cellIndex is a snapshot's query structure, built once the snapshot's
// cells are loaded: the filter environment of every run laid out cell
// after cell like snapshot.runs, each cell's runs in repetition order (so
// a query reads memory in order and aggregates without grouping or
// sorting), each cell's own environment (its cell fields only, for
// filters that read nothing else), and for each cell field value the
// cells holding it (for filters that pin cell fields).
type cellIndex struct {
	envs     []runEnv      // every run's environment, cell after cell (once the runs are loaded)
	start    []int         // cell c's runs are envs[start[c]:start[c+1]] and snapshot.runs[…]
	cellEnvs []runEnv      // cellEnvs[c]: cell c's fields
	posts    map[pin][]int // field value → cells holding it, ascending
}

// groupRuns groups every run into its cell: the cell keys in cell order and,
// per cell, the run indexes ordered by repetition, then ID.
func groupRuns(runs []Run) ([]CellKey, [][]int) {
	byKey := map[CellKey]int{}
	var keys []CellKey
	var groups [][]int
	for i := range runs {
		k := runs[i].Key()
		g, ok := byKey[k]
		if !ok {
			g = len(keys)
			byKey[k] = g
			keys = append(keys, k)
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return CompareCellKeys(keys[a], keys[b]) })
	sortedKeys := make([]CellKey, len(keys))
	sortedGroups := make([][]int, len(keys))
	for i, o := range order {
		sortedKeys[i], sortedGroups[i] = keys[o], groups[o]
		sortByRep(runs, sortedGroups[i])
	}
	return sortedKeys, sortedGroups
}

// sortByRep orders a cell's runs by repetition, then ID.
func sortByRep(runs []Run, g []int) {
	slices.SortFunc(g, func(a, b int) int {
		ra, rb := &runs[a], &runs[b]
		if ra.Rep != rb.Rep {
			return ra.Rep - rb.Rep
		}
		switch {
		case ra.ID < rb.ID:
			return -1
		case ra.ID > rb.ID:
			return 1
		}
		return 0
	})
}

// candidates lists the cells that can hold matches of a filter with these
// pins, ascending; all (nil, true) when there are no pins.
func (ix *cellIndex) candidates(pins []pin) (cells []int, all bool) {
	if len(pins) == 0 {
		return nil, true
	}
	lists := make([][]int, len(pins))
	for i, p := range pins {
		lists[i] = ix.posts[p]
		if len(lists[i]) == 0 {
			return nil, false
		}
	}
	return intersectAll(lists), false
}

// intersectAll intersects ascending lists, shortest first.
func intersectAll(lists [][]int) []int {
	slices.SortFunc(lists, func(a, b []int) int { return len(a) - len(b) })
	out := slices.Clone(lists[0])
	for _, l := range lists[1:] {
		out = intersect(out, l)
	}
	return out
}

// intersect keeps the elements of a (ascending) that are in b (ascending).
func intersect(a, b []int) []int {
	out, j := a[:0], 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
		}
	}
	return out
}

// query runs a compiled filter over the snapshot: through the cell index
// when it pins cell fields, once per cell when it reads only cell fields,
// else on every run of the candidate cells. A cell all of whose runs match
// is the snapshot's own aggregate; a cell some of whose runs match is
// aggregated from those runs, already in repetition order. Before the
// snapshot's cells are loaded, a filter that pins cell fields reads only
// its candidates (queryPinned); any other loads the cells, and the runs
// unless it reads cell fields only.
func (snap *snapshot) query(ctx context.Context, f *Filter) (Result, error) {
	sh := f.shapeOf()
	if !snap.cellsLoaded() && len(sh.pins) > 0 {
		res, done, err := snap.queryPinned(ctx, f, sh)
		if done || err != nil {
			return res, err
		}
	}
	if err := snap.ensureCells(); err != nil {
		return Result{Filter: f.text}, err
	}
	cells, all := snap.index.candidates(sh.pins)
	if !sh.cellOnly {
		return snap.scan(ctx, f, cells, all)
	}
	n := len(cells)
	if all {
		n = len(snap.cells)
	}
	res := Result{Filter: f.text, Cells: []Cell{}}
	var m vm.VM
	var agg aggregator
	for i := range n {
		c := i
		if !all {
			c = cells[i]
		}
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{Filter: f.text}, fmt.Errorf("query: %w", err)
			}
		}
		ok, err := f.match(&m, &snap.index.cellEnvs[c]) // one evaluation decides the cell
		if err != nil {
			return Result{Filter: f.text}, err
		}
		if ok {
			cell := snap.fullCell(c)
			res.Cells = append(res.Cells, agg.whole(&cell))
			res.Runs += cell.Reps
		}
	}
	return res, nil
}

// matchRuns returns copies of the runs the filter matches, in ID order,
// going through the cell index like query.
func (snap *snapshot) matchRuns(ctx context.Context, f *Filter) ([]Run, error) {
	sh := f.shapeOf()
	if !snap.cellsLoaded() && len(sh.pins) > 0 {
		out, done, err := snap.matchPinned(ctx, f, sh)
		if done || err != nil {
			return out, err
		}
	}
	if snap.lazy != nil && snap.lazy.head.ColumnChunkRuns > 0 && !snap.runsLoaded() {
		if err := snap.ensureCells(); err != nil {
			return nil, err
		}
		cells, all := snap.index.candidates(sh.pins)
		return snap.matchByColumns(ctx, f, cells, all)
	}
	if err := snap.ensureRuns(ctx); err != nil {
		return nil, err
	}
	ix := &snap.index
	cells, all := ix.candidates(sh.pins)
	n := len(cells)
	if all {
		n = len(snap.cells)
	}
	var m vm.VM
	matched := newRunSet(len(snap.runs))
	evals := 0
	for i := range n {
		c := i
		if !all {
			c = cells[i]
		}
		from, to := ix.start[c], ix.start[c+1]
		if sh.cellOnly {
			from, to = c, c+1 // one evaluation decides the cell
		}
		for p := from; p < to; p++ {
			if evals++; evals%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("query: %w", err)
				}
			}
			env := &ix.envs[p]
			if sh.cellOnly {
				env = &ix.cellEnvs[c]
			}
			ok, err := f.match(&m, env)
			if err != nil {
				return nil, err
			}
			switch {
			case ok && sh.cellOnly:
				for q := ix.start[c]; q < ix.start[c+1]; q++ {
					matched.add(q)
				}
			case ok:
				matched.add(p)
			}
		}
	}
	return snap.inIDOrder(matched), nil
}

func sortByID(runs []Run) {
	slices.SortFunc(runs, func(a, b Run) int { return strings.Compare(a.ID, b.ID) })
}
