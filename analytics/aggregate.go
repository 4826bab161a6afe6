package analytics

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/bits"
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

	picks pickScratch // for cellIDs.pick: the matches' run IDs of a cell
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
	if cap(a.vals) < len(g) { // cellFromMetrics fills a copy of the slice: room for all, once
		a.vals = make([]float64, 0, len(g))
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
// 15473658.394999999). It sorts vals: callers read the extremes after it.
func Median(vals []float64) float64 {
	slices.Sort(vals)
	return middleOf(vals)
}

// middleOf is Median of values whose middle ones are in place: vals[n/2]
// is where sorting would put it, and for an even count so is vals[n/2-1].
func middleOf(vals []float64) float64 {
	n := len(vals)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return vals[n/2]
	}
	return math.Round((vals[n/2-1]+vals[n/2])/2*1e6) / 1e6
}

// cellMedian is Median by selection instead of a sort: the aggregation of
// a cell of hundreds of runs spent half its time sorting them. The result
// is the same number (the values are finite and never -0, so equal values
// are the same bits). It reorders vals.
func cellMedian(vals []float64) float64 {
	n := len(vals)
	if n < 2 {
		return middleOf(vals)
	}
	selectNth(vals, n/2)
	if n%2 == 0 {
		// Everything before n/2 is at most vals[n/2]; the largest of them
		// is the one sorting would put just before it.
		lo := slices.Index(vals[:n/2], slices.Max(vals[:n/2]))
		vals[lo], vals[n/2-1] = vals[n/2-1], vals[lo]
	}
	return middleOf(vals)
}

// selectNth reorders vals so that vals[k] is the value sorting would put
// there, with no larger value before it and no smaller one after it:
// quickselect with a median-of-three pivot, handing over to a sort when
// the partitions stop shrinking (introselect), so the worst case stays
// O(n log n).
func selectNth(vals []float64, k int) {
	lo, hi := 0, len(vals) // the k-th is in vals[lo:hi]
	budget := 2 * bits.Len(uint(len(vals)))
	for hi-lo > 16 {
		if budget--; budget < 0 {
			slices.Sort(vals[lo:hi])
			return
		}
		lt, gt := partition3(vals[lo:hi], pivotOf(vals[lo:hi]))
		switch {
		case k < lo+lt:
			hi = lo + lt
		case k >= lo+gt:
			lo += gt
		default:
			return // vals[lo+lt : lo+gt] all equal the pivot, k among them
		}
	}
	insertionSort(vals[lo:hi])
}

// pivotOf is the median of the first, middle and last values.
func pivotOf(v []float64) float64 {
	a, b, c := v[0], v[len(v)/2], v[len(v)-1]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// partition3 reorders v into values below p, equal to p and above p, and
// returns where the equal ones start and end (ties, common among
// repetitions, end the search at once).
func partition3(v []float64, p float64) (lt, gt int) {
	lt, i, gt := 0, 0, len(v)
	for i < gt {
		switch x := v[i]; {
		case x < p:
			v[lt], v[i] = x, v[lt]
			lt++
			i++
		case x > p:
			gt--
			v[gt], v[i] = x, v[gt]
		default:
			i++
		}
	}
	return lt, gt
}

func insertionSort(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
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
