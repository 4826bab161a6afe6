package analytics

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/expr-lang/expr/vm"
)

// metricFields are the columns a cell's medians are made of, in the order
// metricColumns reads them.
var metricFields = []string{"ops_per_sec", "ops_per_core", "p50_ms", "p99_ms", "p999_ms", "kb_per_sec", "hit_rate"}

// columns returns the named columns, loading each on first need and
// sharing it with every later query of the snapshot: from the store's
// column chunks, or, for a snapshot without them (built in memory, or a
// store of format 2 read before its migration), from its runs.
func (snap *snapshot) columns(ctx context.Context, names []string) ([]*runColumn, error) {
	out := make([]*runColumn, len(names))
	snap.colsMu.Lock()
	defer snap.colsMu.Unlock()
	for i, name := range names {
		if c, ok := snap.cols[name]; ok {
			out[i] = c
			continue
		}
		sp, ok := columnSpecOf(name)
		if !ok {
			return nil, fmt.Errorf("no column %q", name)
		}
		var c *runColumn
		if snap.lazy != nil && snap.lazy.head.ColumnChunkRuns > 0 {
			var err error
			if c, err = snap.lazy.column(ctx, sp); err != nil {
				return nil, err
			}
		} else {
			if err := snap.ensureRuns(ctx); err != nil {
				return nil, err
			}
			c = columnFromRuns(sp, snap.runs)
		}
		if snap.cols == nil {
			snap.cols = map[string]*runColumn{}
		}
		snap.cols[name] = c
		out[i] = c
	}
	return out, nil
}

// column reads every chunk of one column in one transaction and checks
// each against its CRC and the head's count of runs.
func (l *lazyCells) column(ctx context.Context, sp *columnSpec) (c *runColumn, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, panicked(l.s.dir, "reading a column", p)
		}
	}()
	per := l.head.ColumnChunkRuns
	r := newColumnReader(sp, l.head.Runs)
	err = l.s.view(func(txn *badger.Txn) error {
		for i := range columnChunks(l.head.Runs, per) {
			if err := ctx.Err(); err != nil {
				return err
			}
			key := derivedKey(l.head.Generation, columnChunkName(sp.name, i))
			item, err := txn.Get(key)
			if err != nil {
				return l.corrupt(err, "column chunk %s cannot be read (%v)", key, err)
			}
			want := min(per, l.head.Runs-i*per)
			err = item.Value(func(v []byte) error {
				payload, err := openValue(key, v)
				if err == nil {
					err = r.add(payload, want)
				}
				return err
			})
			if err != nil {
				return l.corrupt(err, "the column %s cannot be read (%v)", sp.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeReadError(l.s.dir, "reading a column", err)
	}
	return &r.col, nil
}

// cellScanner evaluates one filter over the columns, a cell at a time,
// with what it reuses from cell to cell.
type cellScanner struct {
	snap  *snapshot
	f     *Filter
	plan  *scanPlan
	cols  []*runColumn
	m     vm.VM
	env   runEnv
	sc    vscratch
	out   []bool
	evals int
}

func (snap *snapshot) newCellScanner(ctx context.Context, f *Filter) (*cellScanner, error) {
	plan := f.planOf()
	cols, err := snap.columns(ctx, plan.fields)
	if err != nil {
		return nil, err
	}
	return &cellScanner{snap: snap, f: f, plan: plan, cols: cols}, nil
}

// eval evaluates the filter on cell c's runs: natively when its plan has
// a native form, else in the VM. It returns, for each run of the cell,
// whether it matched (valid until the next call), how many did, and the
// cell (with its run IDs if the VM needed them).
func (s *cellScanner) eval(ctx context.Context, c int) ([]bool, int, *Cell, error) {
	snap, ix := s.snap, &s.snap.index
	cell := &snap.cells[c] // its run IDs may be left to snap.ids: see fullCell
	from, to := ix.start[c], ix.start[c+1]
	if s.evals += to - from; s.evals >= 1<<16 {
		s.evals = 0
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, fmt.Errorf("query: %w", err)
		}
	}
	if cap(s.out) < to-from {
		s.out = make([]bool, to-from)
	}
	out := s.out[:to-from]
	if s.plan.native != nil {
		s.plan.native.eval(s.cols, &cell.CellKey, from, out, &s.sc, 0)
	} else {
		full := snap.fullCell(c)
		cell = &full
		s.env = ix.cellEnvs[c]
		for p := from; p < to; p++ {
			for j, name := range s.plan.fields {
				setEnv(&s.env, name, s.cols[j], p)
			}
			if s.plan.usesID {
				s.env.ID = cell.RunIDs[p-from]
			}
			ok, err := s.f.match(&s.m, &s.env)
			if err != nil {
				return nil, 0, nil, err
			}
			out[p-from] = ok
		}
	}
	matched := 0
	for _, ok := range out {
		if ok {
			matched++
		}
	}
	return out, matched, cell, nil
}

// each evaluates the filter on every candidate cell (every cell when
// all), calling fn with what eval returns for each that has matches.
func (s *cellScanner) each(ctx context.Context, cands []int, all bool, fn func(c int, out []bool, matched int, cell *Cell) error) error {
	n := len(cands)
	if all {
		n = len(s.snap.cells)
	}
	for i := range n {
		c := i
		if !all {
			c = cands[i]
		}
		out, matched, cell, err := s.eval(ctx, c)
		if err != nil {
			return err
		}
		if matched > 0 {
			if err := fn(c, out, matched, cell); err != nil {
				return err
			}
		}
	}
	return nil
}

// scan evaluates a filter that reads run fields over the columns of the
// candidate cells (every cell when all). A cell all of whose runs match
// is the snapshot's own aggregate; one some of whose runs match is
// aggregated from the metric columns.
func (snap *snapshot) scan(ctx context.Context, f *Filter, cands []int, all bool) (Result, error) {
	sc, err := snap.newCellScanner(ctx, f)
	if err != nil {
		return Result{Filter: f.text}, err
	}
	res := Result{Filter: f.text, Cells: []Cell{}}
	var (
		agg     aggregator
		metrics []*runColumn // loaded for the first cell some of whose runs match
	)
	err = sc.each(ctx, cands, all, func(c int, out []bool, matched int, cell *Cell) error {
		res.Runs += matched
		if matched == len(out) {
			if cell.RunIDs == nil {
				full := snap.fullCell(c)
				cell = &full
			}
			res.Cells = append(res.Cells, agg.whole(cell))
			return nil
		}
		if metrics == nil {
			var err error
			if metrics, err = snap.columns(ctx, metricFields); err != nil {
				return err
			}
		}
		ids := cell.RunIDs
		if ids == nil { // only the matches' are needed: decoded into scratch, not kept
			ids = snap.ids[c].pick(out, matched, &agg.picks)
		}
		res.Cells = append(res.Cells, agg.partialColumns(cell, ids, snap.index.start[c], out, matched, metrics))
		return nil
	})
	if err != nil {
		return Result{Filter: f.text}, err
	}
	return res, nil
}

// matchByColumns is matchRuns for a snapshot of a store with columns whose
// runs are not in memory: the filter picks the matching runs over the
// columns, and only those are read from Badger, by ID (in ID order, the
// order they are stored in), checked against their cell. A process that
// serves keeps no run in memory this way: the answer holds the matches
// only (loading every run once took 1.2 GB at 1M runs).
func (snap *snapshot) matchByColumns(ctx context.Context, f *Filter, cands []int, all bool) ([]Run, error) {
	sc, err := snap.newCellScanner(ctx, f)
	if err != nil {
		return nil, err
	}
	var (
		matches []runRef
		agg     aggregator // for its ID scratch
	)
	err = sc.each(ctx, cands, all, func(c int, out []bool, matched int, cell *Cell) error {
		ids := cell.RunIDs
		if ids == nil {
			ids = snap.ids[c].pick(out, matched, &agg.picks)
		}
		for j, ok := range out {
			if ok {
				matches = append(matches, runRef{c, ids[j]})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, nil
	}
	slices.SortFunc(matches, func(a, b runRef) int { return strings.Compare(a.id, b.id) }) // the order runs are stored in
	return snap.readRuns(ctx, matches)
}

// runRef names one run of a snapshot: its cell and its ID.
type runRef struct {
	cell int
	id   string
}

// readRuns reads the runs matches names (in ID order, the order they are
// stored in) from Badger, each checked against its cell: by key for a few,
// in one ordered pass for many.
func (snap *snapshot) readRuns(ctx context.Context, matches []runRef) ([]Run, error) {
	runs := make([]Run, 0, len(matches))
	in := newInterner() // the matches share their repeated text
	read := func(mt runRef, v []byte) error {
		r, err := decodeRunWith(v, in)
		if err != nil {
			return snap.lazy.corrupt(err, "run %s does not decode (%v)", mt.id, err)
		}
		if r.ID != mt.id || r.Key() != snap.cells[mt.cell].CellKey {
			return snap.lazy.corrupt(nil, "the run stored as %s is not that run of cell %s", mt.id, describeKey(snap.cells[mt.cell].CellKey))
		}
		if runs = append(runs, r); len(runs)%scanReleaseEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if dir := snap.lazy.s.dir; dir != "" {
				forgetMappedPages(dir) // each run read maps its value-log page
			}
		}
		return nil
	}
	missing := func(mt runRef) error {
		return snap.lazy.corrupt(nil, "run %s of cell %s is missing", mt.id, describeKey(snap.cells[mt.cell].CellKey))
	}
	err := snap.lazy.s.view(func(txn *badger.Txn) error {
		key := []byte(runIDPrefix)
		if len(matches) < snap.lazy.head.Runs/64 { // few: one lookup each
			for _, mt := range matches {
				key = append(key[:len(runIDPrefix)], mt.id...)
				item, err := txn.Get(key)
				if errors.Is(err, badger.ErrKeyNotFound) {
					return missing(mt)
				}
				if err == nil {
					err = item.Value(func(v []byte) error { return read(mt, v) })
				}
				if err != nil {
					return err
				}
			}
			return nil
		}
		// Many: one pass over the runs' keys in order, reading the values
		// of the matches only.
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: []byte(runIDPrefix)})
		defer it.Close()
		it.Rewind()
		for _, mt := range matches {
			key = append(key[:len(runIDPrefix)], mt.id...)
			for it.Valid() && bytes.Compare(it.Item().Key(), key) < 0 {
				it.Next()
			}
			if !it.Valid() || !bytes.Equal(it.Item().Key(), key) {
				return missing(mt)
			}
			if err := it.Item().Value(func(v []byte) error { return read(mt, v) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeReadError(snap.lazy.s.dir, "reading the matching runs", err)
	}
	return runs, nil
}

// partialColumns aggregates the runs of cell (whose first run is at from
// in the columns) that matched, in repetition order, from the metric
// columns (metricFields); ids[j] is run j's ID where it matched.
func (a *aggregator) partialColumns(cell *Cell, ids []string, from int, matched []bool, count int, mc []*runColumn) Cell {
	if cap(a.ids)-len(a.ids) < count {
		a.ids = make([]string, 0, max(aggregateBlock, count))
	}
	if cap(a.vals) < count { // cellFromMetrics fills a copy of the slice: room for all, once
		a.vals = make([]float64, 0, count)
	}
	start := len(a.ids)
	a.ms = a.ms[:0]
	for j, ok := range matched {
		if !ok {
			continue
		}
		p := from + j
		m := runMetrics{OpsPerSec: mc[0].float(p), OpsPerCore: mc[1].float(p), P50Ms: mc[2].float(p), P99Ms: mc[3].float(p),
			P999Ms: mc[4].float(p), KBPerSec: mc[5].float(p)}
		if mc[6].has[p] {
			m.HitRate = mc[6].floatAt(p) // only read
		}
		a.ids = append(a.ids, ids[j])
		a.ms = append(a.ms, m)
	}
	return cellFromMetrics(cell.CellKey, a.ids[start:len(a.ids):len(a.ids)], a.ms, a.vals)
}
