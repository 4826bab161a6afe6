package analytics

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// RunTally asks, of the runs a filter matches, for the distinct values of
// a few of their own fields with how many runs have each, and for the
// first few run IDs, without copying every matching run: what a
// provenance answer needs ("how long did the runs last") over a store of
// 1M runs, where copying the matches took 2 GB and 20 s.
type RunTally struct {
	Fields []string // columns of whole numbers or text: test_time_s, client_threads, rep, run_id, …
	IDs    int      // how many run IDs to name: the first in ID order
}

// TalliedRuns is a tally's answer.
type TalliedRuns struct {
	Runs   int                     // the runs the filter matched
	IDs    []string                // the first RunTally.IDs of their IDs, in ID order
	Values map[string][]ValueCount // per field asked: its distinct values, in order (numbers by value, text by bytes)
}

// ValueCount is one distinct value of a field and how many runs have it.
type ValueCount struct {
	Value  string // as the field's text: "20", "20260901-083406"
	Number int    // a whole-number field's value
	Runs   int
}

// TallyRuns tallies the runs the filter matches over the columns: counts
// per distinct value of each field and the first IDs in ID order (a
// bounded heap), reading no run from Badger. The filter goes through the
// one gate (CompileFilter).
func (s *Store) TallyRuns(ctx context.Context, filter string, t RunTally) (TalliedRuns, error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return TalliedRuns{}, err
	}
	if err := s.Err(); err != nil {
		return TalliedRuns{}, err
	}
	return s.current().tallyRuns(ctx, f, t)
}

func (snap *snapshot) tallyRuns(ctx context.Context, f *Filter, t RunTally) (TalliedRuns, error) {
	for _, name := range t.Fields {
		if sp, ok := columnSpecOf(name); !ok || (sp.kind != colInt && sp.kind != colText) {
			return TalliedRuns{}, fmt.Errorf("tallying runs: %q is not a whole-number or text field of a run", name)
		}
	}
	if err := snap.ensureCells(); err != nil {
		return TalliedRuns{}, err
	}
	cands, all := snap.index.candidates(f.shapeOf().pins)
	sc, err := snap.newCellScanner(ctx, f)
	if err != nil {
		return TalliedRuns{}, err
	}
	cols, err := snap.columns(ctx, t.Fields)
	if err != nil {
		return TalliedRuns{}, err
	}
	ints := make([]map[int]int, len(cols))
	texts := make([][]int, len(cols)) // runs per dictionary code
	for i, c := range cols {
		if c.i != nil {
			ints[i] = map[int]int{}
		} else {
			texts[i] = make([]int, len(c.dict))
		}
	}
	first := new(idHeap)
	var (
		runs int
		ids  cellRunIDs
	)
	err = sc.each(ctx, cands, all, func(c int, out []bool, matched int, cell *Cell) error {
		runs += matched
		from := snap.index.start[c]
		ids.reset(snap, c, cell)
		for j, ok := range out {
			if !ok {
				continue
			}
			for i, col := range cols {
				if col.i != nil {
					ints[i][col.i[from+j]]++
				} else {
					texts[i][col.codes[from+j]]++
				}
			}
			first.offer(t.IDs, ids.at(j))
		}
		return nil
	})
	if err != nil {
		return TalliedRuns{}, err
	}
	out := TalliedRuns{Runs: runs, IDs: first.inOrder(), Values: map[string][]ValueCount{}}
	for i, name := range t.Fields {
		var vs []ValueCount
		if ints[i] != nil {
			for _, v := range slices.Sorted(maps.Keys(ints[i])) {
				vs = append(vs, ValueCount{Value: strconv.Itoa(v), Number: v, Runs: ints[i][v]})
			}
		} else {
			for code, n := range texts[i] {
				if n > 0 {
					vs = append(vs, ValueCount{Value: cols[i].dict[code], Runs: n})
				}
			}
			slices.SortFunc(vs, func(a, b ValueCount) int { return strings.Compare(a.Value, b.Value) })
		}
		out.Values[name] = vs
	}
	return out, nil
}

// idHeap holds the lowest IDs so far with the highest of them on top, so
// a lower ID replaces it.
type idHeap []string

func (h idHeap) Len() int           { return len(h) }
func (h idHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h idHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *idHeap) Push(x any)        { *h = append(*h, x.(string)) }
func (h *idHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

// offer considers id (valid only until the next cell: kept as a clone)
// for the lowest limit.
func (h *idHeap) offer(limit int, id string) {
	switch {
	case limit <= 0:
	case len(*h) < limit:
		heap.Push(h, strings.Clone(id))
	case id < (*h)[0]:
		(*h)[0] = strings.Clone(id)
		heap.Fix(h, 0)
	}
}

// inOrder returns the IDs held, lowest first.
func (h *idHeap) inOrder() []string {
	if len(*h) == 0 {
		return nil
	}
	out := slices.Clone([]string(*h))
	slices.SortFunc(out, cmp.Compare[string])
	return out
}
