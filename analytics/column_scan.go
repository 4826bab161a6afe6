package analytics

import (
	"context"
	"fmt"

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
	err = l.s.db.View(func(txn *badger.Txn) error {
		for i := range columnChunks(l.head.Runs) {
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

// scan evaluates a filter that reads run fields over the columns of the
// candidate cells (every cell when all): natively when its plan has a
// native form, else in the VM. A cell all of whose runs match is the
// snapshot's own aggregate; one some of whose runs match is aggregated
// from the metric columns.
func (snap *snapshot) scan(ctx context.Context, f *Filter, cands []int, all bool) (Result, error) {
	plan := f.planOf()
	cols, err := snap.columns(ctx, plan.fields)
	if err != nil {
		return Result{Filter: f.text}, err
	}
	n := len(cands)
	if all {
		n = len(snap.cells)
	}
	res := Result{Filter: f.text, Cells: []Cell{}}
	ix := &snap.index
	var (
		agg     aggregator
		m       vm.VM
		env     runEnv
		sc      vscratch
		out     []bool
		metrics []*runColumn // loaded for the first cell some of whose runs match
		evals   int
	)
	for i := range n {
		c := i
		if !all {
			c = cands[i]
		}
		cell := &snap.cells[c] // its run IDs may be left to snap.ids: see fullCell
		from, to := ix.start[c], ix.start[c+1]
		if evals += to - from; evals >= 1<<16 {
			evals = 0
			if err := ctx.Err(); err != nil {
				return Result{Filter: f.text}, fmt.Errorf("query: %w", err)
			}
		}
		if cap(out) < to-from {
			out = make([]bool, to-from)
		}
		out = out[:to-from]
		if plan.native != nil {
			plan.native.eval(cols, &cell.CellKey, from, out, &sc, 0)
		} else {
			full := snap.fullCell(c)
			cell = &full
			env = ix.cellEnvs[c]
			for p := from; p < to; p++ {
				for j, name := range plan.fields {
					setEnv(&env, name, cols[j], p)
				}
				if plan.usesID {
					env.ID = cell.RunIDs[p-from]
				}
				ok, err := f.match(&m, &env)
				if err != nil {
					return Result{Filter: f.text}, err
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
		switch matched {
		case 0:
		case to - from:
			if cell.RunIDs == nil {
				full := snap.fullCell(c)
				cell = &full
			}
			res.Cells = append(res.Cells, agg.whole(cell))
		default:
			if metrics == nil {
				if metrics, err = snap.columns(ctx, metricFields); err != nil {
					return Result{Filter: f.text}, err
				}
			}
			ids := cell.RunIDs
			if ids == nil { // only the matches' are needed: decoded into scratch, not kept
				ids = snap.ids[c].pick(out, &agg.idScratch, &agg.idPicked)
			}
			res.Cells = append(res.Cells, agg.partialColumns(cell, ids, from, out, matched, metrics))
		}
		res.Runs += matched
	}
	return res, nil
}

// partialColumns aggregates the runs of cell (whose first run is at from
// in the columns) that matched, in repetition order, from the metric
// columns (metricFields); ids[j] is run j's ID where it matched.
func (a *aggregator) partialColumns(cell *Cell, ids []string, from int, matched []bool, count int, mc []*runColumn) Cell {
	if cap(a.ids)-len(a.ids) < count {
		a.ids = make([]string, 0, max(aggregateBlock, count))
	}
	if a.vals == nil {
		a.vals = make([]float64, 0, 16)
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
