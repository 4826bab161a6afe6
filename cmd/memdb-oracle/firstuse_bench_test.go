package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkAskFirstUse measures the first-use target of the built binary:
// `ask` on an empty data directory (which creates the store and imports the
// embedded dataset first) against `ask` of the same question on an
// initialised one, the two run in turn, so that each ratio compares a pair
// run moments apart and a machine whose speed drifts moves both sides
// alike. It reports the median wall and CPU (user+system) time of each and
// the median of the pairs' ratios, fresh ÷ warm (the target: ≤ 1.5 for
// both), with the ratios' spread (max ÷ min).
func BenchmarkAskFirstUse(b *testing.B) {
	bin, err := builtPath()
	if err != nil {
		b.Fatal(err)
	}
	const question = "dragonfly throughput at 48 cores"
	ask := func(b *testing.B, dir string) (wall, cpu time.Duration) {
		cmd := exec.Command(bin, "--data", dir, "ask", question)
		cmd.Env = []string{"HOME=" + dir}
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall = time.Since(start)
		if err != nil {
			b.Fatalf("ask: %v\n%s", err, out)
		}
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	root := b.TempDir()
	warm := filepath.Join(root, "warm")
	ask(b, warm)
	var fw, fc, ww, wc []time.Duration
	var wallRatio, cpuRatio []float64
	n := 0
	for b.Loop() {
		n++
		fresh := filepath.Join(root, strconv.Itoa(n))
		w1, c1 := ask(b, fresh)
		w2, c2 := ask(b, warm)
		fw, fc, ww, wc = append(fw, w1), append(fc, c1), append(ww, w2), append(wc, c2)
		wallRatio = append(wallRatio, float64(w1)/float64(w2))
		cpuRatio = append(cpuRatio, float64(c1)/float64(max(c2, time.Microsecond)))
		if err := os.RemoveAll(fresh); err != nil {
			b.Fatal(err)
		}
	}
	ms := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	b.ReportMetric(ms(fw), "fresh-wall-ms")
	b.ReportMetric(ms(fc), "fresh-cpu-ms")
	b.ReportMetric(ms(ww), "warm-wall-ms")
	b.ReportMetric(ms(wc), "warm-cpu-ms")
	b.ReportMetric(median(wallRatio), "fresh/warm-wall")
	b.ReportMetric(median(cpuRatio), "fresh/warm-cpu")
	b.ReportMetric(wallRatio[len(wallRatio)-1]/wallRatio[0], "wall-ratio-max/min")
	b.ReportMetric(cpuRatio[len(cpuRatio)-1]/cpuRatio[0], "cpu-ratio-max/min")
}
