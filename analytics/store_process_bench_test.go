package analytics

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"syscall"
	"testing"
	"time"
)

// baselineBin is a memdb-oracle binary of an earlier version (built from
// main, say) that the process benchmarks below run beside this one.
var baselineBin = flag.String("memdb.baseline-bin", "", "a memdb-oracle binary of an earlier version, measured beside this one by the store process benchmarks")

// processCost is one finished process's wall time and peak RSS
// (getrusage's maxrss of the child).
type processCost struct {
	wall time.Duration
	rss  float64 // MiB
}

// measureProcess runs argv once and returns its cost; a failure fails the
// benchmark. Linux starts the child in this process's memory (vfork), and
// the child's maxrss then starts from this process's peak: the heap is
// returned and the peak reset first, so what is left of this process is
// the floor of the figure (it says so: parent-RSS-MiB).
func measureProcess(b *testing.B, argv []string) processCost {
	b.Helper()
	debug.FreeOSMemory()
	resetPeakRSS()
	b.ReportMetric(peakRSSMiB(), "parent-RSS-MiB")
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Skip("getrusage of a child is not available here")
	}
	return processCost{wall: wall, rss: float64(ru.Maxrss) / 1024} // Linux: KiB
}

// reportCosts reports the median and spread (slowest minus fastest,
// largest minus smallest) of wall time and peak RSS, metrics prefixed.
func reportCosts(b *testing.B, prefix string, cs []processCost) {
	if len(cs) == 0 {
		return
	}
	walls := make([]float64, len(cs))
	rss := make([]float64, len(cs))
	for i, c := range cs {
		walls[i], rss[i] = float64(c.wall.Milliseconds()), c.rss
	}
	slices.Sort(walls)
	slices.Sort(rss)
	b.ReportMetric(walls[len(walls)/2], prefix+"median-wall-ms")
	b.ReportMetric(walls[len(walls)-1]-walls[0], prefix+"spread-wall-ms")
	b.ReportMetric(rss[len(rss)/2], prefix+"median-peak-RSS-MiB")
	b.ReportMetric(rss[len(rss)-1]-rss[0], prefix+"spread-peak-RSS-MiB")
}

// measurePaired runs this version's command and then the baseline's (when
// -memdb.baseline-bin is given) once per iteration, each after prepare
// (untimed), and reports both: the baseline's metrics are prefixed
// "baseline-".
func measurePaired(b *testing.B, bin string, prepare func() []string) {
	var ours, base []processCost
	for b.Loop() {
		b.StopTimer()
		args := prepare()
		b.StartTimer()
		ours = append(ours, measureProcess(b, append([]string{bin}, args...)))
		if *baselineBin != "" {
			b.StopTimer()
			args := prepare()
			b.StartTimer()
			base = append(base, measureProcess(b, append([]string{*baselineBin}, args...)))
		}
	}
	reportCosts(b, "", ours)
	reportCosts(b, "baseline-", base)
	if *baselineBin == "" {
		b.Log("no -memdb.baseline-bin: no baseline figures")
	}
}

// BenchmarkDoctorProcess runs `memdb-oracle doctor` as a whole process over
// a store of the embedded dataset and 1M synthetic runs imported by the
// command itself, and reports its wall time and peak RSS (median and
// spread), beside a baseline binary's in the same run. The target
// is at most 300 MB. Run with -benchtime=3x (or more) for a median.
func BenchmarkDoctorProcess(b *testing.B) {
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	bin := buildOracle(b)
	dir := b.TempDir()
	data := filepath.Join(dir, "data")
	csv := syntheticFile(b, dir, n)
	if out, err := exec.Command(bin, "--data", data, "import", "--session", "3", csv).CombinedOutput(); err != nil {
		b.Fatalf("import: %v\n%s", err, out)
	}
	b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
		measurePaired(b, bin, func() []string { return []string{"--data", data, "doctor"} })
	})
}

// BenchmarkMigrationProcess migrates a store of store format 1 (JSON runs:
// the embedded dataset and 1M synthetic runs) as the first writing command
// of a new release does — `memdb-oracle import` of a 10-row file, a fresh
// copy of the old store each time — and reports wall time and peak RSS
// (median and spread), beside a baseline binary's in the same run. The
// issue's target is at most 300 MB. Run with -benchtime=3x (or more).
func BenchmarkMigrationProcess(b *testing.B) {
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	bin := buildOracle(b)
	dir := b.TempDir()
	old := filepath.Join(dir, "format1")
	writeFormat1Runs(b, old, append(embeddedRuns(b), syntheticRuns(n)...))
	small := syntheticFile(b, dir, 10)
	work := filepath.Join(dir, "work")
	b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
		measurePaired(b, bin, func() []string {
			if err := os.RemoveAll(work); err != nil {
				b.Fatal(err)
			}
			copyDir(b, old, work)
			return []string{"--data", work, "import", "--session", "3", small}
		})
	})
}
