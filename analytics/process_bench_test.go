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
// paired with a whole sqlite3 process running the same query on a database
// of the same CSV with an index on the cell columns: the two run in turn,
// and the ratios (ours/sqlite3, wall and CPU) are taken pair by pair, so a
// machine whose speed drifts moves both sides of each. The ratios are the
// figures; sqlite3 is skipped with a message (no ratio) where it is not
// installed. With -short only 10k runs; otherwise 100k and 1M.
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
			// Session 3, as the curves import it: synthetic runs in session
			// 1 break the knowledge base's findings about the real ones, and
			// the import then exits 1.
			if out, err := exec.Command(bin, "--data", data, "import", "--session", "3", csvPath).CombinedOutput(); err != nil {
				b.Fatalf("import: %v\n%s", err, out)
			}
			_, noSQLite := exec.LookPath("sqlite3")
			if noSQLite != nil {
				b.Log("sqlite3 is not installed (apt-get install sqlite3): no sqlite3 baseline, no ratios")
			}
			db := ""
			for _, q := range processQueries {
				b.Run(q.name, func(b *testing.B) {
					ours := []string{bin, "--data", data, "runs", "--timeout", "10m", q.filter}
					var base []string
					if noSQLite == nil {
						if db == "" {
							db = sqliteFromCSV(b, dir, csvPath)
						}
						base = []string{"sqlite3", db, "SELECT run_id, ops_per_sec FROM runs WHERE " + q.sql + ";"}
					}
					timePaired(b, ours, base)
				})
			}
		})
	}
}

// processTime is one finished process's wall and CPU (user+system) time
// and peak RSS (see maxRSSKB).
type processTime struct {
	wall, cpu time.Duration
	rssKB     int64
}

// runProcess runs a command once, reading all its output (counted, not
// kept: the peak RSS of a child starts from this process's, see maxRSSKB,
// which is reset first).
func runProcess(b *testing.B, argv []string) processTime {
	resetPeakRSS()
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr bytes.Buffer
	var out byteCount
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", argv[0], err, stderr.String())
	}
	if out == 0 {
		b.Fatalf("%s printed nothing", argv[0])
	}
	return processTime{time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), maxRSSKB(cmd.ProcessState)}
}

// byteCount is a writer that counts what it is given.
type byteCount int64

func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

// timePaired runs ours, then base (when given), once per iteration, and
// reports ours' median wall and CPU time per process and the CPU time's
// spread (max/min), base's medians, and the medians of the pairwise ratios
// ours/base (wall-ratio, cpu-ratio): one import serves every repetition.
func timePaired(b *testing.B, ours, base []string) {
	var a, z []processTime
	var wallRatio, cpuRatio []float64
	for b.Loop() {
		a = append(a, runProcess(b, ours))
		if base == nil {
			continue
		}
		z = append(z, runProcess(b, base))
		x, y := a[len(a)-1], z[len(z)-1]
		wallRatio = append(wallRatio, float64(x.wall)/float64(y.wall))
		cpuRatio = append(cpuRatio, float64(x.cpu)/float64(max(y.cpu, time.Microsecond)))
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	wall, cpu := medianTimes(a)
	b.ReportMetric(ms(wall), "median-wall-ms")
	b.ReportMetric(ms(cpu), "median-cpu-ms")
	cpus := make([]time.Duration, len(a))
	for i, t := range a {
		cpus[i] = t.cpu
	}
	b.ReportMetric(ms(slices.Max(cpus))/max(ms(slices.Min(cpus)), 0.001), "cpu-max/min")
	if base == nil {
		return
	}
	wall, cpu = medianTimes(z)
	b.ReportMetric(ms(wall), "sqlite3-wall-ms")
	b.ReportMetric(ms(cpu), "sqlite3-cpu-ms")
	b.ReportMetric(Median(wallRatio), "wall-ratio")
	b.ReportMetric(Median(cpuRatio), "cpu-ratio")
}

// medianTimes is the median wall and the median CPU time of ts.
func medianTimes(ts []processTime) (wall, cpu time.Duration) {
	w := make([]time.Duration, len(ts))
	c := make([]time.Duration, len(ts))
	for i, t := range ts {
		w[i], c[i] = t.wall, t.cpu
	}
	slices.Sort(w)
	slices.Sort(c)
	return w[len(w)/2], c[len(c)/2]
}

// sqliteImportSQL is the sqlite3 script that imports a synthetic CSV as
// the baselines query it: every column NUMERIC (numbers compare as
// numbers), an index on the cell columns, statistics for the planner.
func sqliteImportSQL(csvPath string) string {
	return "CREATE TABLE runs(" + strings.Join(columns, " NUMERIC, ") + ` NUMERIC);
.mode csv
.import --skip 1 ` + csvPath + ` runs
CREATE INDEX runs_cell ON runs(engine, cores_used, ratio, data_bytes, pipeline, mode);
ANALYZE;
`
}

// buildOracle builds the memdb-oracle binary into a temporary directory
// (see copyInOneWrite).
func buildOracle(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "memdb-oracle")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/memdb-oracle/memdb-oracle/cmd/memdb-oracle")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building memdb-oracle: %v\n%s", err, out)
	}
	return copyInOneWrite(b, bin)
}

// copyInOneWrite copies a binary to be timed into a temporary directory in
// one write, so that every binary a benchmark compares is cached alike: the
// file the linker writes costs each process that maps it 11-23% more CPU
// than the same bytes written at once (a selective runs process at 1M runs,
// 60 paired runs on the shared 2-core machine), which made a build look
// slower than a -memdb.before binary copied with cp.
func copyInOneWrite(b *testing.B, bin string) string {
	b.Helper()
	data, err := os.ReadFile(bin)
	if err != nil {
		b.Fatal(err)
	}
	to := filepath.Join(b.TempDir(), filepath.Base(bin))
	if err := os.WriteFile(to, data, 0o755); err != nil {
		b.Fatal(err)
	}
	return to
}

// sqliteFromCSV imports the synthetic CSV into a sqlite3 database (every
// column NUMERIC, so numbers compare as numbers) with an index on the cell
// columns, and returns its path.
func sqliteFromCSV(b *testing.B, dir, csvPath string) string {
	b.Helper()
	db := filepath.Join(dir, "runs.db")
	cmd := exec.Command("sqlite3", db)
	cmd.Stdin = strings.NewReader(sqliteImportSQL(csvPath))
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the sqlite3 baseline: %v\n%s", err, out)
	}
	return db
}
