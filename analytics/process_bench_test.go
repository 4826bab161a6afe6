package analytics

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// processQueries are the `runs` queries BenchmarkRunsProcess times, each
// with the same WHERE clause for sqlite3 (the CSV's column names).
var processQueries = []struct{ name, filter, sql string }{
	{"selective", selectiveFilter,
		`engine = 'dragonfly' AND cores_used = 48 AND ratio = '1:10' AND data_bytes = 100 AND pipeline = 16`},
	{"scan-1.6pct", `ops_per_sec > 981000`, `ops_per_sec > 981000`},
	{"full-scan", fullScanFilter, `ops_per_sec > 0`},
}

// BenchmarkRunsProcess times `memdb-oracle runs FILTER` as a whole process
// (start, open, query, print) on a store that imported N synthetic runs,
// next to a whole sqlite3 process running the same query on a database of
// the same CSV with an index on the cell columns. Each reports its CPU
// time (user+system) per process too (medians); the ratios of the pairs are
// the figures (sqlite3 is skipped with a message when it is not installed).
// With -short only 10k runs; otherwise 100k and 1M.
func BenchmarkRunsProcess(b *testing.B) {
	sizes := []int{100_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000}
	}
	bin := buildOracle(b)
	for _, n := range sizes {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			csvPath := filepath.Join(dir, "synthetic.csv")
			f, err := os.Create(csvPath)
			if err != nil {
				b.Fatal(err)
			}
			writeSyntheticCSV(b, f, n)
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
			data := filepath.Join(dir, "data")
			if out, err := exec.Command(bin, "--data", data, "import", "--session", "1", csvPath).CombinedOutput(); err != nil {
				b.Fatalf("import: %v\n%s", err, out)
			}
			db := ""
			for _, q := range processQueries {
				b.Run(q.name+"/memdb-oracle", func(b *testing.B) {
					timeProcess(b, bin, "--data", data, "runs", "--timeout", "10m", q.filter)
				})
				b.Run(q.name+"/sqlite3", func(b *testing.B) {
					if _, err := exec.LookPath("sqlite3"); err != nil {
						b.Skip("sqlite3 is not installed (apt-get install sqlite3): no sqlite3 baseline")
					}
					if db == "" {
						db = sqliteFromCSV(b, dir, csvPath)
					}
					timeProcess(b, "sqlite3", db, "SELECT run_id, ops_per_sec FROM runs WHERE "+q.sql+";")
				})
			}
		})
	}
}

// timeProcess runs the command once per iteration, reading all its output,
// and reports the median wall and CPU (user+system) time per process and
// the CPU time's spread (max/min), so one import serves every repetition.
func timeProcess(b *testing.B, name string, args ...string) {
	var wall, cpu []time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(name, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		if len(out) == 0 {
			b.Fatalf("%s printed nothing", name)
		}
		wall = append(wall, time.Since(start))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(wall[len(wall)/2]), "median-wall-ms")
	b.ReportMetric(ms(cpu[len(cpu)/2]), "median-cpu-ms")
	b.ReportMetric(ms(cpu[len(cpu)-1])/max(ms(cpu[0]), 0.001), "cpu-max/min")
}

// buildOracle builds the memdb-oracle binary into a temporary directory.
func buildOracle(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "memdb-oracle")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/memdb-oracle/memdb-oracle/cmd/memdb-oracle")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building memdb-oracle: %v\n%s", err, out)
	}
	return bin
}

// sqliteFromCSV imports the synthetic CSV into a sqlite3 database (every
// column NUMERIC, so numbers compare as numbers) with an index on the cell
// columns, and returns its path.
func sqliteFromCSV(b *testing.B, dir, csvPath string) string {
	b.Helper()
	db := filepath.Join(dir, "runs.db")
	script := "CREATE TABLE runs(" + strings.Join(columns, " NUMERIC, ") + ` NUMERIC);
.mode csv
.import --skip 1 ` + csvPath + ` runs
CREATE INDEX runs_cell ON runs(engine, cores_used, ratio, data_bytes, pipeline, mode);
ANALYZE;
`
	cmd := exec.Command("sqlite3", db)
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the sqlite3 baseline: %v\n%s", err, out)
	}
	return db
}
