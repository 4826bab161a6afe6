package analytics

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
)

// nearestBySort is Nearest as a stable sort of every cell: the order the
// insertion in Nearest must reproduce, ties included.
func nearestBySort(s *Store, k CellKey, n int) []Neighbor {
	type cand struct {
		i    int
		d    []string
		rank int
		dist float64
	}
	snap := s.current()
	var cands []cand
	for i, c := range snap.cells {
		d := differs(k, c.CellKey)
		rank := 1
		switch {
		case slices.Contains(d, KnobEngine):
			rank = 2
		case len(d) <= 1:
			rank = 0
		}
		cands = append(cands, cand{i, d, rank, distance(k, c.CellKey, d)})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.dist, b.dist), cmp.Compare(len(a.d), len(b.d)))
	})
	var out []Neighbor
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, Neighbor{Cell: snap.cells[c.i].clone(), Differs: c.d})
	}
	return out
}

// TestNearestKeepsTheOrderOfAStableSort asks for the neighbours of keys
// near and far from the measured cells (every knob moved, fields left
// zero, an unknown engine) and checks the answer against sorting every
// cell.
func TestNearestKeepsTheOrderOfAStableSort(t *testing.T) {
	s := &Store{snap: newSnapshot(syntheticRuns(3000))}
	var keys []CellKey
	for i, c := range s.current().cells {
		if i%37 != 0 {
			continue
		}
		k := c.CellKey
		keys = append(keys, k)
		moved := k
		moved.Cores *= 3
		moved.Pipeline = 4
		keys = append(keys, moved)
		other := k
		other.Engine, other.ValueBytes = "nosuch", 4096
		keys = append(keys, other)
		keys = append(keys, CellKey{Engine: k.Engine, Cores: k.Cores + 1})
	}
	keys = append(keys, CellKey{})
	for _, k := range keys {
		for _, n := range []int{1, 3, 5, 50} {
			got, want := s.Nearest(k, n), nearestBySort(s, k, n)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Nearest(%+v, %d) differs from a stable sort of every cell:\n got %+v\nwant %+v", k, n, got, want)
			}
		}
	}
}
