package analytics

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
)

// Query compiles the filter through the one gate (CompileFilter, once per
// filter text: see filterCache), selects matching runs and aggregates them
// into cells (median across reps).
func (s *Store) Query(ctx context.Context, filter string) (Result, error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return Result{Filter: filter}, err
	}
	return s.QueryFilter(ctx, f)
}

// QueryFilter is Query with an already compiled filter.
func (s *Store) QueryFilter(ctx context.Context, f *Filter) (Result, error) {
	if err := s.Err(); err != nil {
		return Result{Filter: f.text}, err
	}
	snap := s.current()
	res, err := snap.query(ctx, f)
	if errors.Is(err, ErrCorrupt) {
		s.fail(snap, err) // every later query, and the health check, say so too
	}
	return res, err
}

// cellOf aggregates one cell from its runs g (in repetition order): the
// median across them of every metric. vals is scratch space.
func cellOf(runs []Run, k CellKey, g []int, vals []float64) Cell {
	ms := make([]runMetrics, len(g))
	ids := make([]string, len(g))
	for j, i := range g {
		ms[j], ids[j] = metricsOf(&runs[i]), runs[i].ID
	}
	return cellFromMetrics(k, ids, ms, vals)
}

// aggregator builds one query's cells without copying run-ID lists: a cell
// all of whose runs match is the snapshot's own (its run IDs and hit rate
// shared, see Result), and a cell some of whose runs match takes its run
// IDs from blocks the query allocates a few of.
type aggregator struct {
	vals []float64    // scratch for medians
	ms   []runMetrics // scratch: the matching runs' metrics
	ids  []string     // the current block of run IDs

	idScratch idText   // a cell's run IDs decoded, to pick the matches' from (cellIDs.pick)
	idPicked  []string // the picked IDs, by position
}

// aggregateBlock is how many run IDs a block holds at least.
const aggregateBlock = 4096

// whole is a cell all of whose runs matched.
func (a *aggregator) whole(c *Cell) Cell { return c.view() }

// partial aggregates the matching runs g (in repetition order) of a cell.
func (a *aggregator) partial(runs []Run, k CellKey, g []int) Cell {
	if cap(a.ids)-len(a.ids) < len(g) {
		a.ids = make([]string, 0, max(aggregateBlock, len(g)))
	}
	if a.vals == nil {
		a.vals = make([]float64, 0, 16)
	}
	from := len(a.ids)
	a.ms = a.ms[:0]
	for _, i := range g {
		a.ids = append(a.ids, runs[i].ID)
		a.ms = append(a.ms, metricsOf(&runs[i]))
	}
	return cellFromMetrics(k, a.ids[from:len(a.ids):len(a.ids)], a.ms, a.vals)
}

// view is c sharing its run IDs and hit rate, its run IDs' capacity cut so
// that appending to them copies.
func (c *Cell) view() Cell {
	v := *c
	v.RunIDs = slices.Clip(v.RunIDs)
	return v
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

// CompareCellKeys orders cell keys: session, engine (Engines order), mode
// (Modes order), cores, ratio (1:10, 1:1, mget10, mset10, then others),
// value size, pipeline.
func CompareCellKeys(a, b CellKey) int {
	return cmp.Or(
		cmp.Compare(a.Session, b.Session),
		compareIn(Engines, a.Engine, b.Engine),
		strings.Compare(a.Version, b.Version),
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
