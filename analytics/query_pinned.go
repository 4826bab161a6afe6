package analytics

import (
	"context"
	"fmt"

	"github.com/expr-lang/expr/vm"
)

// lazyRunLimit is how many runs a pinned filter that reads run fields may
// look at one cell at a time, before the snapshot's cells are loaded; a
// filter whose candidates hold more loads every run once instead.
const lazyRunLimit = 50_000

// pinnedCandidates reads the cells a filter's pins allow: the posting
// list of each pin, intersected, then those cells' records.
func (snap *snapshot) pinnedCandidates(sh filterShape) ([]Cell, error) {
	return snap.pinnedCandidatesWith(sh, true)
}

// pinnedCandidatesWith is pinnedCandidates, with the cells' run IDs only
// when withIDs.
func (snap *snapshot) pinnedCandidatesWith(sh filterShape, withIDs bool) ([]Cell, error) {
	lists := make([][]int, len(sh.pins))
	for i, p := range sh.pins {
		l, err := snap.lazy.posting(p)
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			return nil, nil
		}
		lists[i] = l
	}
	ids := intersectAll(lists)
	cells := make([]Cell, len(ids))
	for i, c := range ids {
		var err error
		if cells[i], err = snap.lazy.cellWith(c, withIDs); err != nil {
			return nil, err
		}
	}
	return cells, nil
}

func cellEnvOf(k CellKey) runEnv {
	return runEnv{Session: k.Session, Engine: k.Engine, Version: k.Version, Mode: k.Mode, Cores: k.Cores,
		Ratio: k.Ratio, ValueBytes: k.ValueBytes, Pipeline: k.Pipeline}
}

// pinnedMatch evaluates a pinned filter on its candidate cells, reading
// their runs from Badger one cell at a time when it reads run fields. done
// is false (and nothing evaluated) when the candidates hold more than
// lazyRunLimit runs and the filter reads run fields. each gets every
// candidate cell with its runs (nil for a cell-only filter) and the
// positions among them that match.
func (snap *snapshot) pinnedMatch(ctx context.Context, f *Filter, sh filterShape, each func(c *Cell, runs []Run, matched []int)) (bool, error) {
	cands, err := snap.pinnedCandidates(sh)
	if err != nil {
		return true, err
	}
	if !sh.cellOnly {
		n := 0
		for i := range cands {
			n += cands[i].Reps
		}
		if n > lazyRunLimit {
			return false, nil
		}
	}
	var m vm.VM
	var matched []int
	for i := range cands {
		if err := ctx.Err(); err != nil {
			return true, fmt.Errorf("query: %w", err)
		}
		c := &cands[i]
		if sh.cellOnly {
			env := cellEnvOf(c.CellKey)
			ok, err := f.match(&m, &env)
			if err != nil {
				return true, err
			}
			if ok {
				each(c, nil, nil)
			}
			continue
		}
		runs, err := snap.lazy.cellRuns(ctx, c)
		if err != nil {
			return true, err
		}
		matched = matched[:0]
		for p := range runs {
			env := newRunEnv(&runs[p])
			ok, err := f.match(&m, &env)
			if err != nil {
				return true, err
			}
			if ok {
				matched = append(matched, p)
			}
		}
		each(c, runs, matched)
	}
	return true, nil
}

// queryPinned is query for a pinned filter before the cells are loaded.
func (snap *snapshot) queryPinned(ctx context.Context, f *Filter, sh filterShape) (Result, bool, error) {
	res := Result{Filter: f.text, Cells: []Cell{}}
	var agg aggregator
	done, err := snap.pinnedMatch(ctx, f, sh, func(c *Cell, runs []Run, matched []int) {
		switch {
		case runs == nil:
			res.Cells = append(res.Cells, agg.whole(c))
			res.Runs += c.Reps
		case len(matched) == 0:
		case len(matched) == len(runs):
			res.Cells = append(res.Cells, agg.whole(c))
			res.Runs += len(matched)
		default:
			res.Cells = append(res.Cells, agg.partial(runs, c.CellKey, matched))
			res.Runs += len(matched)
		}
	})
	if err != nil {
		return Result{Filter: f.text}, true, err
	}
	return res, done, nil
}

// matchPinned is matchRuns for a pinned filter before the cells are loaded.
func (snap *snapshot) matchPinned(ctx context.Context, f *Filter, sh filterShape) ([]Run, bool, error) {
	var out []Run
	var failed error
	done, err := snap.pinnedMatch(ctx, f, sh, func(c *Cell, runs []Run, matched []int) {
		if runs == nil {
			if runs, failed = snap.lazy.cellRuns(ctx, c); failed != nil {
				return
			}
			out = append(out, runs...)
			return
		}
		for _, p := range matched {
			out = append(out, runs[p])
		}
	})
	if err == nil {
		err = failed
	}
	if err != nil || !done {
		return nil, done, err
	}
	sortByID(out)
	return out, true, nil
}
