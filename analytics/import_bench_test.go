package analytics

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// writeSyntheticCSV writes a capture file of n distinct kept rows with the
// 29 columns of the real files, spread over engines, modes and knobs.
func writeSyntheticCSV(tb testing.TB, w io.Writer, n int) {
	tb.Helper()
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := csv.NewWriter(bw)
	if err := cw.Write(columns); err != nil {
		tb.Fatal(err)
	}
	cores := []int{4, 8, 16, 24, 48}
	ratios := []string{"1:10", "1:1", "mget10", "mset10"}
	rec := make([]string, len(columns))
	for i := range n {
		j := i / 10
		c := cores[(j/15)%len(cores)]
		hit := "0.9998"
		ratio := ratios[(j/75)%len(ratios)]
		if ratio == "mset10" {
			hit = ""
		}
		p50 := 0.1 + float64(i%1000)/1000
		vals := map[string]string{
			"run_id": fmt.Sprintf("synthetic-%d", j), "note": fmt.Sprintf("scale-%dc", c),
			"engine": Engines[j%len(Engines)], "mode": Modes[(j/5)%len(Modes)], "shards": strconv.Itoa(c),
			"server_threads": strconv.Itoa(c), "shard_io_threads": "1", "cores_used": strconv.Itoa(c),
			"server_cpus": "0-47", "client_cpus": "48-95", "client_threads": "48", "client_conns": "20",
			"pipeline": []string{"1", "16"}[(j/600)%2], "ratio": ratio, "data_bytes": []string{"100", "1024"}[(j/300)%2],
			"key_max": "1000000", "test_time": "20", "populate": "1", "rep": strconv.Itoa(1 + i%10),
			"ops_per_sec":  strconv.FormatFloat(float64(100000+i%997*1000)+0.25, 'f', 2, 64),
			"ops_per_core": strconv.FormatFloat((float64(100000+i%997*1000)+0.25)/float64(c), 'f', 2, 64),
			"p50_ms":       strconv.FormatFloat(p50, 'f', 3, 64), "p99_ms": strconv.FormatFloat(p50*3, 'f', 3, 64),
			"p999_ms": strconv.FormatFloat(p50*9, 'f', 3, 64), "hit_rate": hit, "hits_per_sec": "90000.5",
			"misses_per_sec": "1.25", "conn_errors": "0", "kb_per_sec": "4567.89",
		}
		for k, col := range columns {
			rec[k] = vals[col]
		}
		if err := cw.Write(rec); err != nil {
			tb.Fatal(err)
		}
	}
	cw.Flush()
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
}

// syntheticFile writes a synthetic capture file into dir and returns its path.
func syntheticFile(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.csv", n))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	writeSyntheticCSV(tb, f, n)
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkImportSynthetic imports synthetic capture files of 100,000 and
// 1,000,000 rows into a store on disk, one fresh store per iteration, and
// reports rows/s and the process's peak RSS during the import (Linux:
// VmHWM, reset before each import), with the store and the heap limit the
// import command uses (Options.ForImport, ImportMemoryLimit). The baseline in the same run is
// reading the same file with encoding/csv alone.
func BenchmarkImportSynthetic(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		path := syntheticFile(b, b.TempDir(), n)
		b.Run(fmt.Sprintf("rows=%d/baseline-csv-read", n), func(b *testing.B) {
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				cr := csv.NewReader(bufio.NewReader(f))
				cr.ReuseRecord = true
				for {
					if _, err := cr.Read(); err != nil {
						break
					}
				}
				f.Close()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(fmt.Sprintf("rows=%d/import", n), func(b *testing.B) {
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(ImportMemoryLimit)) // as the import command
			var peak float64
			for b.Loop() {
				b.StopTimer()
				var log *slog.Logger
				if testing.Verbose() {
					log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
				}
				s, err := Open(b.Context(), Options{Dir: b.TempDir(), DeferLoad: true, ForImport: true, Logger: log})
				if err != nil {
					b.Fatal(err)
				}
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				resetPeakRSS()
				b.StartTimer()
				rep, err := s.Import(b.Context(), "synthetic.csv", f, 3)
				b.StopTimer()
				peak = max(peak, peakRSSMiB())
				f.Close()
				if err != nil || rep.Added != n {
					b.Fatalf("import: %+v, %v", rep, err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(peak, "peak-RSS-MiB")
		})
	}
}

// resetPeakRSS resets the kernel's record of this process's peak RSS.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMiB is this process's peak RSS since the last reset (0 where
// /proc is missing).
func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
