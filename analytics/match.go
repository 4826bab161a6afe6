package analytics

import (
	"context"
	"math/bits"
)

// MatchRuns returns copies of the runs the filter matches, in ID order:
// each repetition with its own values, for answers that show repetitions
// or search single runs. The filter goes through the one gate
// (CompileFilter).
func (s *Store) MatchRuns(ctx context.Context, filter string) ([]Run, error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return nil, err
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return s.current().matchRuns(ctx, f)
}

// runSet is a set of positions in a snapshot's runs.
type runSet struct {
	bits  []uint64
	count int
}

func newRunSet(n int) runSet { return runSet{bits: make([]uint64, (n+63)/64)} }

func (m *runSet) add(p int) {
	if w, b := p/64, uint64(1)<<(p%64); m.bits[w]&b == 0 {
		m.bits[w] |= b
		m.count++
	}
}

func (m *runSet) has(p int) bool { return m.bits[p/64]&(1<<(p%64)) != 0 }

// inIDOrder copies the runs in the set, in ID order. Many are read off the
// snapshot's ID order (sorted once per snapshot), so no query sorts them;
// a few (under one in 64) are sorted, which is cheaper than the walk.
func (snap *snapshot) inIDOrder(set runSet) []Run {
	if set.count == 0 {
		return nil
	}
	out := make([]Run, 0, set.count)
	if set.count*64 < len(snap.runs) {
		for w, word := range set.bits {
			for ; word != 0; word &= word - 1 {
				out = append(out, snap.runs[w*64+bits.TrailingZeros64(word)].clone())
			}
		}
		sortByID(out)
		return out
	}
	for _, p := range snap.idOrder() {
		if set.has(int(p)) {
			out = append(out, snap.runs[p].clone())
		}
	}
	return out
}
