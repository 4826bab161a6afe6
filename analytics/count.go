package analytics

import (
	"context"
	"errors"
	"fmt"

	"github.com/expr-lang/expr/vm"
)

// CountRuns is how many runs a filter matches and in how many cells: the
// Runs and len(Cells) of its Query, without the cells' figures. A filter
// of cell fields that the cell index answers (the knowledge base's totals
// per session and engine) reads no run IDs: at 3,000,000 runs, decoding
// every cell's IDs to count them held 170 MB.
func (s *Store) CountRuns(ctx context.Context, filter string) (runs, cells int, err error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return 0, 0, err
	}
	if err := s.Err(); err != nil {
		return 0, 0, err
	}
	snap := s.current()
	if sh := f.shapeOf(); sh.cellOnly && len(sh.pins) > 0 && !snap.cellsLoaded() {
		runs, cells, err = snap.countPinnedCells(ctx, f, sh)
	} else {
		var res Result
		res, err = snap.query(ctx, f)
		runs, cells = res.Runs, len(res.Cells)
	}
	if errors.Is(err, ErrCorrupt) {
		s.fail(snap, err)
	}
	if err != nil {
		return 0, 0, err
	}
	return runs, cells, nil
}

// countPinnedCells counts the runs and cells a pinned filter of cell
// fields matches, from the candidates' records without their run IDs.
func (snap *snapshot) countPinnedCells(ctx context.Context, f *Filter, sh filterShape) (runs, cells int, err error) {
	cands, err := snap.pinnedCandidatesWith(sh, false)
	if err != nil {
		return 0, 0, err
	}
	var m vm.VM
	for i := range cands {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, fmt.Errorf("query: %w", err)
			}
		}
		env := cellEnvOf(cands[i].CellKey)
		ok, err := f.match(&m, &env)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			runs += cands[i].Reps
			cells++
		}
	}
	return runs, cells, nil
}
