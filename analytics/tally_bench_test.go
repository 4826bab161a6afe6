package analytics

import (
	"fmt"
	"runtime/debug"
	"testing"
)

// BenchmarkTallyRuns tallies what a provenance answer reads (test times,
// client settings, repetitions, run_id batches and the first 500 run IDs)
// of every run of a store on disk of 100k and 1M synthetic runs, opened
// as serve opens it, two ways in the same run: "columns", TallyRuns, and
// "copy", the path it replaced (MatchRuns copies every match, whose
// fields are then counted). Each reports its allocations, time and this
// process's peak RSS over its own iterations.
func BenchmarkTallyRuns(b *testing.B) {
	t := RunTally{Fields: []string{"test_time_s", "client_threads", "client_conns", "rep", "run_id"}, IDs: 500}
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			s := openScaleStore(b, n)
			for _, tc := range []struct {
				name  string
				tally func(b *testing.B) TalliedRuns
			}{
				{"columns", func(b *testing.B) TalliedRuns {
					got, err := s.TallyRuns(b.Context(), `true`, t)
					if err != nil {
						b.Fatal(err)
					}
					return got
				}},
				{"copy", func(b *testing.B) TalliedRuns { return tallyByCopy(b, s, `true`, t) }},
			} {
				b.Run(tc.name, func(b *testing.B) {
					b.ReportAllocs()
					debug.FreeOSMemory()
					resetPeakRSS()
					var runs int
					for b.Loop() {
						runs = tc.tally(b).Runs
					}
					b.ReportMetric(float64(runs), "runs")
					b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
				})
			}
		})
	}
}
