package analytics

import (
	"fmt"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

// BenchmarkRunsListing is what the web page /runs?filter=true costs over a
// store of 1M synthetic runs: "page" runs the filter and reads the 50 runs
// of one page (what the page does now), "every-run" reads every matching
// run by its ID (what it did before: the baseline, in the same run). Each
// iteration opens the store read-only, as serve's queries find it warm
// only after the first; peak RSS is this process's, reset before each.
// It reports the median and the spread (slowest minus fastest) of the
// iterations, besides the mean.
func BenchmarkRunsListing(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			dir := scaleStore(b, n)
			for _, tc := range []struct {
				name  string
				limit int
			}{{"page", 50}, {"every-run", n + 1000}} {
				b.Run(tc.name, func(b *testing.B) {
					var (
						peak  float64
						times []time.Duration
					)
					for b.Loop() {
						start := time.Now()
						b.StopTimer()
						debug.FreeOSMemory()
						resetPeakRSS()
						b.StartTimer()
						s, err := Open(b.Context(), Options{Dir: dir, ReadOnly: true})
						if err != nil {
							b.Fatal(err)
						}
						res, err := s.Query(b.Context(), "true")
						if err != nil {
							b.Fatal(err)
						}
						read := 0
						for _, c := range res.Cells {
							for _, id := range c.RunIDs {
								if read == tc.limit {
									break
								}
								if _, ok := s.Run(id); ok {
									read++
								}
							}
						}
						if err := s.Close(); err != nil {
							b.Fatal(err)
						}
						b.StopTimer()
						times = append(times, time.Since(start))
						peak = max(peak, peakRSSMiB())
						b.StartTimer()
					}
					slices.Sort(times)
					b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "median-ms")
					b.ReportMetric(float64((times[len(times)-1] - times[0]).Milliseconds()), "spread-ms")
					b.ReportMetric(peak, "peak-RSS-MiB")
				})
			}
		})
	}
}

// BenchmarkDoctor is doctor's check (Diagnose: every block, every run,
// the derived data rebuilt and compared, bot state, kept copies) over a
// store of 1M synthetic runs; the target is at most 300 MB.
func BenchmarkDoctor(b *testing.B) {
	dir := scaleStore(b, 1_000_000)
	var (
		peak  float64
		times []time.Duration
	)
	for b.Loop() {
		b.StopTimer()
		debug.FreeOSMemory()
		resetPeakRSS()
		b.StartTimer()
		start := time.Now()
		if _, err := Diagnose(b.Context(), dir); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		times = append(times, time.Since(start))
		peak = max(peak, peakRSSMiB())
		b.StartTimer()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64((times[len(times)-1] - times[0]).Milliseconds()), "spread-ms")
	b.ReportMetric(peak, "peak-RSS-MiB")
}
