package analytics

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// scaleQueries are the queries the scale benchmarks time: one pinned cell,
// a scan of a run field matching 1.6% of the synthetic runs, and a scan
// matching all of them. sql is the same query for the sqlite3 baseline.
var scaleQueries = []struct{ name, filter, sql string }{
	{"selective", selectiveFilter,
		`engine = 'dragonfly' AND cores = 48 AND ratio = '1:10' AND value_bytes = 100 AND pipeline = 16`},
	{"scan-1.6pct", `ops_per_sec > 981000`, `ops_per_sec > 981000`},
	{"scan-100pct", fullScanFilter, `ops_per_sec > 0`},
}

// BenchmarkScale runs each scale query at 10k, 100k and 1M synthetic runs,
// each next to its baselines in the same run: "store" is Store.Query (the
// cell index, pre-grouped cells, expr per run where needed, medians);
// "expr-slice" evaluates the same compiled expr program over a plain slice
// of run environments and only counts matches; "sqlite3-process" runs the
// same WHERE clause as a whole sqlite3 process on a database of the same
// runs with an index on the cell columns (skipped when sqlite3 is not
// installed).
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			runs := syntheticRuns(n)
			s := &Store{snap: newSnapshot(runs), filters: newFilterCache()}
			snap := s.current()
			plain := make([]runEnv, len(snap.runs))
			for i := range snap.runs {
				plain[i] = newRunEnv(&snap.runs[i])
			}
			var db string
			b.Cleanup(func() {
				if db != "" {
					_ = os.RemoveAll(filepath.Dir(db))
				}
			})
			for _, q := range scaleQueries {
				b.Run(q.name+"/store", func(b *testing.B) {
					var res Result
					for b.Loop() {
						var err error
						if res, err = s.Query(b.Context(), q.filter); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(res.Runs), "matches")
				})
				b.Run(q.name+"/expr-slice", func(b *testing.B) {
					prog := compileExprSlice(b, q.filter)
					matches := 0
					for b.Loop() {
						matches = exprSliceScan(b, prog, plain)
					}
					b.ReportMetric(float64(matches), "matches")
				})
				// The ratio of the two above, measured in one loop that
				// alternates them, in the process's CPU time (the garbage
				// collector's included) where the system tells it, wall
				// time elsewhere, so that a busy machine does not tilt it.
				b.Run(q.name+"/store-vs-expr-slice", func(b *testing.B) {
					prog := compileExprSlice(b, q.filter)
					runtime.GC()
					var inStore, inSlice time.Duration
					for i := 0; b.Loop(); i++ {
						for k := range 2 {
							t0 := elapsed()
							if (i+k)%2 == 0 {
								if _, err := s.Query(b.Context(), q.filter); err != nil {
									b.Fatal(err)
								}
								inStore += elapsed() - t0
							} else {
								exprSliceScan(b, prog, plain)
								inSlice += elapsed() - t0
							}
						}
					}
					b.ReportMetric(float64(inStore)/float64(inSlice), "x-expr-slice")
				})
				b.Run(q.name+"/sqlite3-process", func(b *testing.B) {
					if _, err := exec.LookPath("sqlite3"); err != nil {
						b.Skip("sqlite3 is not installed: no sqlite3 baseline")
					}
					if db == "" {
						db = sqliteDB(b, snap.runs)
					}
					for b.Loop() {
						out, err := exec.Command("sqlite3", db, "SELECT id, ops_per_sec FROM runs WHERE "+q.sql+";").Output()
						if err != nil {
							b.Fatalf("sqlite3: %v", err)
						}
						_ = out
					}
				})
			}
		})
	}
}

// sqliteDB writes the runs' cell columns and metrics to a CSV file, imports
// it into a sqlite3 database with an index on the cell columns, and returns
// the database's path (in a directory the caller removes).
func sqliteDB(b *testing.B, runs []Run) string {
	b.Helper()
	dir, err := os.MkdirTemp("", "scale-sqlite-")
	if err != nil {
		b.Fatal(err)
	}
	csvPath, db := filepath.Join(dir, "runs.csv"), filepath.Join(dir, "runs.db")
	f, err := os.Create(csvPath)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, r := range runs {
		hit := ""
		if r.HitRate != nil {
			hit = strconv.FormatFloat(*r.HitRate, 'g', -1, 64)
		}
		fmt.Fprintf(w, "%s,%d,%s,%s,%d,%s,%d,%d,%d,%g,%g,%g,%s\n", r.ID, r.Session, r.Engine, r.Mode, r.Cores,
			r.Ratio, r.ValueBytes, r.Pipeline, r.Rep, r.OpsPerSec, r.P50Ms, r.P99Ms, hit)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	script := `CREATE TABLE runs(id TEXT PRIMARY KEY, session INT, engine TEXT, mode TEXT, cores INT, ratio TEXT,
  value_bytes INT, pipeline INT, rep INT, ops_per_sec REAL, p50_ms REAL, p99_ms REAL, hit_rate REAL);
.mode csv
.import ` + csvPath + ` runs
CREATE INDEX runs_cell ON runs(engine, cores, ratio, value_bytes, pipeline, mode, session);
ANALYZE;
`
	cmd := exec.Command("sqlite3", db)
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the sqlite3 baseline: %v\n%s", err, out)
	}
	return db
}

func compileExprSlice(b *testing.B, filter string) *vm.Program {
	b.Helper()
	prog, err := expr.Compile(filter, expr.Env(runEnv{}), expr.AsBool())
	if err != nil {
		b.Fatal(err)
	}
	return prog
}

// exprSliceScan is the baseline: the expr program over every environment
// of a plain slice, counting matches.
func exprSliceScan(b *testing.B, prog *vm.Program, plain []runEnv) int {
	var m vm.VM
	matches := 0
	for i := range plain {
		out, err := m.Run(prog, &plain[i])
		if err != nil {
			b.Fatal(err)
		}
		if out.(bool) {
			matches++
		}
	}
	return matches
}

// elapsed is a clock for ratios: the process's CPU time, or wall time
// where that is not available.
func elapsed() time.Duration {
	if d, ok := processCPU(); ok {
		return d
	}
	return time.Duration(time.Now().UnixNano())
}
