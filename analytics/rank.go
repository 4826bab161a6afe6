package analytics

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// RunRanking asks for the few runs of a filter that lead on one field,
// and how many runs the ranking kept, without copying every matching run:
// a dataset-wide search at 1M runs that matches most of them needs a
// count and its top few, and copying the 900K matches to rank them in the
// caller took 1.8 GB.
type RunRanking struct {
	Field     string               // a numeric column: a metric (p99_ms, hit_rate, …) or a run's own number (test_time_s, shards, …)
	Ascending bool                 // lowest first; else highest first
	Limit     int                  // how many runs Top holds at most
	Keep      func(v float64) bool // which values count and may rank; nil keeps every value
}

// RankedRuns is a ranking's answer.
type RankedRuns struct {
	Kept int   // the matched runs that have a value of the field that Keep kept
	Top  []Run // the first Limit of them, best first, runs of equal value in ID order
}

// RankRuns ranks the runs the filter matches on one field, over the
// columns: it counts the runs kept and holds only the best Limit while it
// goes (a bounded heap), then reads those runs alone. The order is the
// one a stable sort of MatchRuns' runs by value, then ID, gives. The
// filter goes through the one gate (CompileFilter).
func (s *Store) RankRuns(ctx context.Context, filter string, r RunRanking) (RankedRuns, error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return RankedRuns{}, err
	}
	if err := s.Err(); err != nil {
		return RankedRuns{}, err
	}
	return s.current().rankRuns(ctx, f, r)
}

func (snap *snapshot) rankRuns(ctx context.Context, f *Filter, r RunRanking) (RankedRuns, error) {
	sp, ok := columnSpecOf(r.Field)
	if !ok || sp.kind == colText {
		return RankedRuns{}, fmt.Errorf("ranking runs: %q is not a numeric field of a run", r.Field)
	}
	if err := snap.ensureCells(); err != nil {
		return RankedRuns{}, err
	}
	cands, all := snap.index.candidates(f.shapeOf().pins)
	sc, err := snap.newCellScanner(ctx, f)
	if err != nil {
		return RankedRuns{}, err
	}
	cols, err := snap.columns(ctx, []string{r.Field})
	if err != nil {
		return RankedRuns{}, err
	}
	col := cols[0]
	best := &runHeap{asc: r.Ascending}
	var (
		kept int
		ids  cellRunIDs
	)
	err = sc.each(ctx, cands, all, func(c int, out []bool, _ int, cell *Cell) error {
		from := snap.index.start[c]
		ids.reset(snap, c, cell)
		for j, ok := range out {
			if !ok {
				continue
			}
			v, has := col.number(from + j)
			if !has || (r.Keep != nil && !r.Keep(v)) {
				continue
			}
			kept++
			best.offer(r.Limit, v, from+j, c, &ids, j)
		}
		return nil
	})
	if err != nil {
		return RankedRuns{}, err
	}
	top := best.ranked()
	runs, err := snap.runsOf(ctx, top)
	if err != nil {
		return RankedRuns{}, err
	}
	return RankedRuns{Kept: kept, Top: runs}, nil
}

// number is run p's value of a numeric column, and whether it has one.
func (c *runColumn) number(p int) (float64, bool) {
	switch {
	case c.i != nil:
		return float64(c.i[p]), true
	case c.has != nil && !c.has[p]:
		return 0, false
	}
	return c.float(p), true
}

// rankedRun is one run a ranking holds: its value, its place in the
// columns, its cell and its ID.
type rankedRun struct {
	v    float64
	pos  int
	cell int
	id   string
}

// runHeap holds the best runs so far with the worst of them on top, so a
// run better than it replaces it.
type runHeap struct {
	asc bool
	rs  []rankedRun
}

// before reports whether run a ranks before run b: by value, then by ID,
// as the callers' stable sort by (value, ID) ordered them.
func (h *runHeap) before(a, b *rankedRun) bool {
	return h.compare(a.v, a.id, b) < 0
}

func (h *runHeap) compare(v float64, id string, b *rankedRun) int {
	return cmp.Or(h.byValue(v, b), strings.Compare(id, b.id))
}

// byValue orders a run of value v against b by value alone, best first.
func (h *runHeap) byValue(v float64, b *rankedRun) int {
	if h.asc {
		return cmp.Compare(v, b.v)
	}
	return cmp.Compare(b.v, v)
}

func (h *runHeap) Len() int           { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool { return h.before(&h.rs[j], &h.rs[i]) } // the worst on top
func (h *runHeap) Swap(i, j int)      { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)         { h.rs = append(h.rs, x.(rankedRun)) }
func (h *runHeap) Pop() any {
	last := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return last
}

// offer considers run j of cell c (at pos in the columns), of value v, for
// the best limit. Its ID is decoded only when the value alone cannot rule
// it out.
func (h *runHeap) offer(limit int, v float64, pos, c int, ids *cellRunIDs, j int) {
	if limit <= 0 {
		return
	}
	if len(h.rs) == limit {
		worst := &h.rs[0]
		if h.byValue(v, worst) > 0 {
			return
		}
		id := ids.at(j)
		if h.compare(v, id, worst) >= 0 {
			return
		}
		*worst = rankedRun{v: v, pos: pos, cell: c, id: strings.Clone(id)}
		heap.Fix(h, 0)
		return
	}
	heap.Push(h, rankedRun{v: v, pos: pos, cell: c, id: strings.Clone(ids.at(j))})
}

// ranked returns the runs held, best first.
func (h *runHeap) ranked() []rankedRun {
	out := slices.Clone(h.rs)
	slices.SortFunc(out, func(a, b rankedRun) int { return h.compare(a.v, a.id, &b) })
	return out
}

// cellRunIDs gives one cell's run IDs, decoding a stored cell's only when
// asked (most runs of a large ranking never need theirs).
type cellRunIDs struct {
	ci      *cellIDs
	ids     []string
	text    idText
	decoded bool
}

func (x *cellRunIDs) reset(snap *snapshot, c int, cell *Cell) {
	x.ids, x.ci, x.decoded = cell.RunIDs, nil, false
	if x.ids == nil {
		x.ci = &snap.ids[c]
	}
}

// at is run j's ID; a decoded one points into scratch, valid until the
// next cell (clone it to keep it).
func (x *cellRunIDs) at(j int) string {
	if x.ids != nil {
		return x.ids[j]
	}
	if !x.decoded {
		x.text.buf, x.text.ends = x.text.buf[:0], x.text.ends[:0]
		_, _, _ = scanIDs(x.ci.raw, x.ci.n, x.ci.coded, &x.text) // checked when the cell was read
		x.decoded = true
	}
	start := 0
	if j > 0 {
		start = x.text.ends[j-1]
	}
	b := x.text.buf[start:x.text.ends[j]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// runsOf copies the ranked runs, in their order: from memory when the
// snapshot holds its runs, else read by ID from the store.
func (snap *snapshot) runsOf(ctx context.Context, ranked []rankedRun) ([]Run, error) {
	if len(ranked) == 0 {
		return nil, nil
	}
	out := make([]Run, 0, len(ranked))
	if snap.runsLoaded() {
		for _, r := range ranked {
			out = append(out, snap.runs[r.pos].clone())
		}
		return out, nil
	}
	refs := make([]runRef, len(ranked))
	for i, r := range ranked {
		refs[i] = runRef{cell: r.cell, id: r.id}
	}
	slices.SortFunc(refs, func(a, b runRef) int { return strings.Compare(a.id, b.id) })
	byID, err := snap.readRuns(ctx, refs)
	if err != nil {
		return nil, err
	}
	for _, r := range ranked {
		i, _ := slices.BinarySearchFunc(byID, r.id, func(x Run, id string) int { return strings.Compare(x.ID, id) })
		out = append(out, byID[i])
	}
	return out, nil
}
