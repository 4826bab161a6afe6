package analytics

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The cost curves' flags: the store sizes, and an earlier build to time
// beside this one. Only BenchmarkCurves reads them, so a plain `go test`
// never builds a large store.
var (
	curveSizes = flag.String("memdb.sizes", "10k,100k,1m,3m",
		"store sizes (runs) BenchmarkCurves measures, comma-separated: 10k, 1m, 10m, 2500000")
	curveBefore = flag.String("memdb.before", "",
		"a memdb-oracle binary of an earlier build, timed beside this one on the same stores (BenchmarkCurves)")
)

// curveQuestion is the question the ask curve asks: one cell of the
// synthetic runs, so its figures are medians of hundreds of runs at 1M.
const curveQuestion = "What is Dragonfly's throughput at 48 cores with a 1:10 ratio, 100 B values and pipeline 16?"

// curveOps are the operations BenchmarkCurves times on a store of N
// synthetic runs, as whole processes: memdb-oracle's arguments after
// --data DIR, and the same request to sqlite3 on a database of the same
// CSV (typed columns, an index on the cell columns), and with -tags duckdb
// to DuckDB (its own typed columns, no index). sqlite3 has no median: its
// aggregate takes means, the cheaper statistic; DuckDB's takes medians.
var curveOps = []struct {
	name string
	args []string
	sql  string
}{
	{"open", []string{"runs", "session == 99"}, `SELECT count(*) FROM runs WHERE rowid < 0;`},
	{"selective", []string{"runs", selectiveFilter}, `SELECT run_id, ops_per_sec FROM runs WHERE ` + selectiveSQL + `;`},
	{"scan-1.6pct", []string{"runs", "--timeout", "10m", `ops_per_sec > 981000`},
		`SELECT run_id, ops_per_sec FROM runs WHERE ops_per_sec > 981000;`},
	{"non-indexed", []string{"runs", "--timeout", "10m", `note == "scale-24c" && p99_ms < 1.5`},
		`SELECT run_id, ops_per_sec FROM runs WHERE note = 'scale-24c' AND p99_ms < 1.5;`},
	{"scan-100pct", []string{"runs", "--timeout", "10m", fullScanFilter}, `SELECT run_id, ops_per_sec FROM runs WHERE ops_per_sec > 0;`},
	{"aggregate-50pct", []string{"runs", "--timeout", "10m", `ops_per_sec > 598000`},
		`SELECT engine, mode, cores_used, ratio, data_bytes, pipeline, count(*), avg(ops_per_sec), avg(p50_ms), avg(p99_ms),
  avg(p999_ms), group_concat(run_id) FROM runs WHERE ops_per_sec > 598000 GROUP BY engine, mode, cores_used, ratio, data_bytes, pipeline;`},
	{"ask", []string{"ask", curveQuestion},
		`SELECT count(*), avg(ops_per_sec), avg(p50_ms), avg(p99_ms), group_concat(run_id) FROM runs WHERE ` + selectiveSQL + `;`},
}

// duckSQL is DuckDB's request where it differs from sqlite3's: DuckDB
// has medians.
var duckSQL = map[string]string{
	"aggregate-50pct": `SELECT engine, mode, cores_used, ratio, data_bytes, pipeline, count(*), median(ops_per_sec), median(p50_ms),
  median(p99_ms), median(p999_ms), group_concat(run_id) FROM runs WHERE ops_per_sec > 598000
  GROUP BY engine, mode, cores_used, ratio, data_bytes, pipeline`,
}

// selectiveSQL is selectiveFilter in the CSV's column names.
const selectiveSQL = `engine = 'dragonfly' AND cores_used = 48 AND ratio = '1:10' AND data_bytes = 100 AND pipeline = 16`

// BenchmarkCurves measures how each operation's cost grows with the store:
// for each size of -memdb.sizes it writes a synthetic CSV, times its
// import (into a fresh data directory; sqlite3: CREATE TABLE, .import,
// the index, ANALYZE; DuckDB: CREATE TABLE AS read_csv) and then every
// curveOps operation, as whole processes run in turn with sqlite3's (and
// -memdb.before's, and DuckDB's with -tags duckdb), so that a machine
// whose speed drifts moves all of them. Per operation it reports the
// medians of CPU time (user+system), wall time and peak RSS (ours and
// before's only: see maxRSSKB), the CPU time's spread (max/min), and the
// median of the pairwise CPU ratios (x-sqlite3, x-before, x-duckdb). Run
// with -benchtime=5x or more: an import at 3M takes a minute.
// cmd/speedcurves draws the output.
func BenchmarkCurves(b *testing.B) {
	sizes, err := parseSizes(*curveSizes)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		if os.Getenv("CI") != "" {
			b.Fatal("sqlite3 is not installed (apt-get install sqlite3): the curves need their baseline")
		}
		b.Skip("sqlite3 is not installed (apt-get install sqlite3): no baseline, no curves")
	}
	bin := buildOracle(b)
	before := *curveBefore
	if before != "" {
		before = copyInOneWrite(b, before)
	}
	duck := ""
	if withDuckDB {
		duck = buildDuckDBQ(b)
	}
	for _, n := range sizes {
		b.Run("runs="+strconv.Itoa(n), func(b *testing.B) {
			dir := b.TempDir() // with the stores: gone when the size is done
			csvPath := syntheticFile(b, dir, n)
			var data, db, duckDB string // the last import's store and databases
			importOnce := func(b *testing.B, k int) []side {
				data = filepath.Join(dir, fmt.Sprintf("data-%d", k))
				db, duckDB = filepath.Join(dir, fmt.Sprintf("runs-%d.db", k)), filepath.Join(dir, fmt.Sprintf("runs-%d.duckdb", k))
				sides := []side{
					{"", []string{bin, "--data", data, "import", "--session", "3", csvPath}},
					{"sqlite3-", []string{"sqlite3", db, ".read " + sqliteImportScript(b, dir, csvPath)}},
				}
				if before != "" {
					sides = append(sides, side{"before-", []string{before, "--data", data + "-before", "import", "--session", "3", csvPath}})
				}
				if duck != "" {
					sides = append(sides, side{"duckdb-", []string{duck, duckDB,
						"CREATE TABLE runs AS SELECT * FROM read_csv('" + csvPath + "', header = true)", "SELECT count(*) FROM runs"}})
				}
				return sides
			}
			b.Run("import", func(b *testing.B) {
				k := 0
				timeSides(b, func() []side {
					if k > 0 { // keep the last import only
						removeAll(b, data, data+"-before", db, duckDB)
					}
					k++
					return importOnce(b, k)
				})
				reportStoreSize(b, csvPath, "", data)
				reportStoreSize(b, csvPath, "sqlite3-", db)
				if *curveBefore != "" {
					reportStoreSize(b, csvPath, "before-", data+"-before")
				}
			})
			if data == "" { // -bench skipped the import
				for _, sd := range importOnce(b, 0) {
					if sd.metric != "before-" {
						runProcess(b, sd.argv)
					}
				}
			}
			for _, op := range curveOps {
				b.Run(op.name, func(b *testing.B) {
					sides := []side{
						{"", append([]string{bin, "--data", data}, op.args...)},
						{"sqlite3-", []string{"sqlite3", db, op.sql}},
					}
					if before != "" {
						sides = append(sides, side{"before-", append([]string{before, "--data", data}, op.args...)})
					}
					if duck != "" {
						sql := cmp.Or(duckSQL[op.name], op.sql)
						sides = append(sides, side{"duckdb-", []string{duck, duckDB, strings.TrimSuffix(sql, ";")}})
					}
					timeSides(b, func() []side { return sides })
				})
			}
		})
	}
}

// reportStoreSize reports what the last import left on disk as a multiple
// of the CSV's size: a data directory without its kept copy of the file
// (store/csv), with it (store+copy/csv), and its table files (tables);
// sqlite3's database file (its db/csv).
func reportStoreSize(b *testing.B, csvPath, metric, path string) {
	b.Helper()
	csvInfo, err := os.Stat(csvPath)
	if err != nil {
		b.Fatal(err)
	}
	var all, kept int64
	tables := 0
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		all += fi.Size()
		if rel, _ := filepath.Rel(path, p); strings.HasPrefix(rel, "sources"+string(filepath.Separator)) {
			kept += fi.Size()
		}
		if strings.HasSuffix(p, ".sst") {
			tables++
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	csvSize := float64(csvInfo.Size())
	if metric == "sqlite3-" {
		b.ReportMetric(float64(all)/csvSize, metric+"db/csv")
		return
	}
	b.ReportMetric(float64(all-kept)/csvSize, metric+"store/csv")
	b.ReportMetric(float64(all)/csvSize, metric+"store+copy/csv")
	b.ReportMetric(float64(tables), metric+"tables")
}

// side is one process a curve times: its metrics' prefix ("" for
// memdb-oracle) and its command line.
type side struct {
	metric string
	argv   []string
}

// sqliteImportScript writes the script that imports the synthetic CSV into
// a sqlite3 database the way the baseline queries it, and prints the rows.
func sqliteImportScript(b *testing.B, dir, csvPath string) string {
	b.Helper()
	path := filepath.Join(dir, "import.sql")
	script := sqliteImportSQL(csvPath) + "SELECT count(*) FROM runs;\n"
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// timeSides runs the sides next gives (memdb-oracle's first) once per
// iteration, in an order that rotates from iteration to iteration, and
// reports each side's medians and spread and the medians of memdb-oracle's
// CPU time over each other side's, pair by pair (x-sqlite3, ...).
func timeSides(b *testing.B, next func() []side) {
	var (
		sides  []side
		costs  [][]processTime
		ratios [][]float64
	)
	for i := 0; b.Loop(); i++ {
		sides = next()
		if costs == nil {
			costs, ratios = make([][]processTime, len(sides)), make([][]float64, len(sides))
		}
		got := make([]processTime, len(sides))
		for k := range sides {
			j := (i + k) % len(sides)
			got[j] = runProcess(b, sides[j].argv)
			costs[j] = append(costs[j], got[j])
		}
		for j := 1; j < len(sides); j++ {
			ratios[j] = append(ratios[j], ratio(got[0].cpu, got[j].cpu))
		}
	}
	for j, sd := range sides {
		wall, cpu, rss := medianCost(costs[j])
		b.ReportMetric(ms(cpu), sd.metric+"cpu-ms")
		b.ReportMetric(ms(wall), sd.metric+"wall-ms")
		b.ReportMetric(spread(costs[j]), sd.metric+"cpu-max/min")
		if sd.metric == "" || sd.metric == "before-" { // see maxRSSKB: the others' few MiB are below what it can tell
			b.ReportMetric(float64(rss)/1024, sd.metric+"rss-MiB")
		}
		if j > 0 {
			b.ReportMetric(Median(ratios[j]), "x-"+strings.TrimSuffix(sd.metric, "-"))
		}
	}
}

func ratio(a, z time.Duration) float64 { return float64(a) / float64(max(z, time.Microsecond)) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// medianCost is the median wall time, CPU time and peak RSS of cs, each
// on its own.
func medianCost(cs []processTime) (wall, cpu time.Duration, rssKB int64) {
	w, c, r := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	for i, x := range cs {
		w[i], c[i], r[i] = float64(x.wall), float64(x.cpu), float64(x.rssKB)
	}
	return time.Duration(Median(w)), time.Duration(Median(c)), int64(Median(r))
}

// spread is the largest CPU time over the smallest.
func spread(cs []processTime) float64 {
	c := make([]time.Duration, len(cs))
	for i, x := range cs {
		c[i] = x.cpu
	}
	return ratio(slices.Max(c), slices.Min(c))
}

func removeAll(b *testing.B, paths ...string) {
	b.Helper()
	for _, p := range paths {
		if err := os.RemoveAll(p); err != nil {
			b.Fatal(err)
		}
	}
}

// minCurveRuns is the smallest store BenchmarkCurves measures: the
// selective query's cell is first written at run 6,000.
const minCurveRuns = 10_000

// parseSizes reads -memdb.sizes: counts of runs, each a whole number with
// an optional k (thousand) or m (million) suffix, ascending or not.
func parseSizes(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		mult := 1
		switch {
		case strings.HasSuffix(f, "k"):
			f, mult = f[:len(f)-1], 1_000
		case strings.HasSuffix(f, "m"):
			f, mult = f[:len(f)-1], 1_000_000
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 || n > 100_000_000/mult {
			return nil, fmt.Errorf("-memdb.sizes: %q is not a number of runs such as 10k, 1m or 2500000", f)
		}
		if n*mult < minCurveRuns {
			return nil, fmt.Errorf("-memdb.sizes: %s runs: at least 10k (a smaller synthetic store lacks the cell the selective query asks for)", f)
		}
		out = append(out, n*mult)
	}
	if len(out) == 0 {
		return nil, errors.New("-memdb.sizes: no sizes")
	}
	return out, nil
}
