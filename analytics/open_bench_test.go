package analytics

import (
	"fmt"
	"os"
	"runtime/debug"
	"testing"
)

// scaleStore imports n synthetic rows (as session 3, next to the embedded
// dataset) into a store on disk and returns its directory, closed.
func scaleStore(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	s, err := Open(b.Context(), Options{Dir: dir, ForImport: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.ImportDefault(b.Context()); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(syntheticFile(b, b.TempDir(), n))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := s.Import(b.Context(), "synthetic.csv", f, 3); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpen opens stores of 10k, 100k and 1M synthetic runs (plus the
// embedded 478) and reports the time and this process's peak RSS for:
// open alone, open and a selective query (one pinned cell: the persisted
// index, no run read), and open and a scan of every run (every run read
// and checked against the manifest, then the filter evaluated). Each open
// is followed by Close.
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			dir := scaleStore(b, n)
			for _, tc := range []struct{ name, filter string }{
				{"open", ""},
				{"open+selective", selectiveFilter},
				{"open+scan-100pct", fullScanFilter},
			} {
				b.Run(tc.name, func(b *testing.B) {
					var peak float64
					for b.Loop() {
						b.StopTimer()
						debug.FreeOSMemory() // the import's heap is not the open's
						resetPeakRSS()
						b.StartTimer()
						s, err := Open(b.Context(), Options{Dir: dir, ReadOnly: true})
						if err != nil {
							b.Fatal(err)
						}
						if tc.filter != "" {
							if _, err := s.Query(b.Context(), tc.filter); err != nil {
								b.Fatal(err)
							}
						}
						if err := s.Close(); err != nil {
							b.Fatal(err)
						}
						b.StopTimer()
						peak = max(peak, peakRSSMiB())
						b.StartTimer()
					}
					b.ReportMetric(peak, "peak-RSS-MiB")
				})
			}
		})
	}
}
