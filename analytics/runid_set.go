package analytics

import (
	"hash/maphash"
	"slices"
)

// runIDSet finds the run IDs a file repeats holding 8 bytes a row: a
// 64-bit hash of each ID, spread over runIDBuckets by its top bits, each
// bucket sorted once at the end. A hash seen twice is a repeated ID or,
// rarely (about one import in 300,000 at ten million rows), two IDs with
// one hash; the caller then reads the rows again and compares the IDs
// whose hash repeats (see Store.checkPass). The map it replaced held 16
// bytes of hash and a line a row, 30-48 bytes in all: 460 MB at ten
// million rows, over the import's heap limit.
type runIDSet struct {
	seed    maphash.Seed
	buckets [runIDBuckets][]uint64
}

// runIDBuckets is how many buckets a runIDSet spreads its hashes over:
// each grows on its own, so the set's slack beyond 8 bytes a row stays
// small, and sorts on its own, in cache.
const runIDBuckets = 256

func newRunIDSet() *runIDSet { return &runIDSet{seed: maphash.MakeSeed()} }

func (s *runIDSet) hash(id string) uint64 { return maphash.String(s.seed, id) }

// add records one ID.
func (s *runIDSet) add(id string) {
	h := s.hash(id)
	b := &s.buckets[h>>56]
	*b = append(*b, h)
}

// repeated returns the hashes added more than once (nil when none was)
// and lets the rest go.
func (s *runIDSet) repeated() map[uint64]bool {
	var out map[uint64]bool
	for i := range s.buckets {
		b := s.buckets[i]
		slices.Sort(b)
		for j := 1; j < len(b); j++ {
			if b[j] == b[j-1] {
				if out == nil {
					out = map[uint64]bool{}
				}
				out[b[j]] = true
			}
		}
		s.buckets[i] = nil
	}
	return out
}
