package analytics

import (
	"fmt"
	"runtime/debug"
	"testing"
)

// BenchmarkRankRuns ranks a search that keeps most runs (p99 under
// 3.25 ms: 98.4% of the synthetic runs) over a store on disk of 100k and
// 1M synthetic runs, opened as serve opens it, two ways in the same run:
// "columns", RankRuns (a count and a bounded heap over the p99 column,
// then the five best runs read by ID), and "copy-and-sort", the path it
// replaced (MatchRuns copies every match, which are then sorted). Each
// reports its allocations, time and this process's peak RSS over its own
// iterations (the reset is Linux's; elsewhere the peak is the process's).
func BenchmarkRankRuns(b *testing.B) {
	r := RunRanking{Field: "p99_ms", Ascending: true, Limit: 5, Keep: func(v float64) bool { return v < 3.25 }}
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			s := openScaleStore(b, n)
			for _, tc := range []struct {
				name string
				rank func(b *testing.B) RankedRuns
			}{
				{"columns", func(b *testing.B) RankedRuns {
					got, err := s.RankRuns(b.Context(), `p99_ms < 3.25`, r)
					if err != nil {
						b.Fatal(err)
					}
					return got
				}},
				{"copy-and-sort", func(b *testing.B) RankedRuns { return rankByCopy(b, s, `p99_ms < 3.25`, r) }},
			} {
				b.Run(tc.name, func(b *testing.B) {
					b.ReportAllocs()
					debug.FreeOSMemory()
					resetPeakRSS()
					var kept int
					for b.Loop() {
						kept = tc.rank(b).Kept
					}
					b.ReportMetric(float64(kept), "kept")
					b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
				})
			}
		})
	}
}

// openScaleStore opens the synthetic store of n runs read-only, as serve
// opens it, closed when the benchmark ends.
func openScaleStore(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(b.Context(), Options{Dir: scaleStore(b, n), ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}
