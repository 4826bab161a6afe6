package analytics

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/expr-lang/expr/vm"
)

// The differential test: random stores and random filters of the filter
// grammar, answered by every query path of a store (columns native and
// VM, pinned, lazy after a reopen, read-only, a second import, a store
// migrated from format 2, runs held in memory) and by the oracle below,
// which evaluates expr on every run of a plain []Run and groups, sorts and
// takes medians by hand.

// oracle answers from a plain list of runs.
type oracle struct{ runs []Run }

// matches evaluates the filter with expr's VM on every run, in ID order.
// oddRowsAllowed imports the generated files as they are: their values are
// drawn to exercise every query path, not to be plausible measurements.
var oddRowsAllowed = ImportOptions{AllowImplausible: true}

func (o oracle) matches(tb testing.TB, filter string) ([]Run, bool) {
	tb.Helper()
	f, err := compileExpr(filter) // expr alone: no exact pins, no columns
	if err != nil {
		return nil, false
	}
	var m vm.VM
	var out []Run
	for i := range o.runs {
		env := newRunEnv(&o.runs[i])
		ok, err := f.match(&m, &env)
		if err != nil {
			return nil, false // a runtime error: the filter is no use to compare on
		}
		if ok {
			out = append(out, o.runs[i])
		}
	}
	slices.SortFunc(out, func(a, b Run) int { return strings.Compare(a.ID, b.ID) })
	return out, true
}

// query groups the matches by cell, cells in cell order, runs by rep then
// ID, and takes every metric's median.
func (o oracle) query(filter string, matched []Run) Result {
	groups := map[CellKey][]Run{}
	for _, r := range matched {
		groups[r.Key()] = append(groups[r.Key()], r)
	}
	keys := make([]CellKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareCellKeys)
	res := Result{Filter: filter, Cells: []Cell{}, Runs: len(matched)}
	for _, k := range keys {
		g := groups[k]
		slices.SortFunc(g, func(a, b Run) int { return cmp.Or(cmp.Compare(a.Rep, b.Rep), strings.Compare(a.ID, b.ID)) })
		med := func(get func(r Run) float64) float64 {
			var vals []float64
			for _, r := range g {
				vals = append(vals, get(r))
			}
			return Median(vals)
		}
		c := Cell{CellKey: k, Reps: len(g)}
		c.OpsPerSec = med(func(r Run) float64 { return r.OpsPerSec })
		c.OpsPerCore = med(func(r Run) float64 { return r.OpsPerCore })
		c.P50Ms = med(func(r Run) float64 { return r.P50Ms })
		c.P99Ms = med(func(r Run) float64 { return r.P99Ms })
		c.P999Ms = med(func(r Run) float64 { return r.P999Ms })
		c.KBPerSec = med(func(r Run) float64 { return r.KBPerSec })
		var hits []float64
		for _, r := range g {
			if r.HitRate != nil {
				hits = append(hits, *r.HitRate)
			}
		}
		if len(hits) > 0 {
			h := Median(hits)
			c.HitRate = &h
		}
		for _, r := range g {
			c.RunIDs = append(c.RunIDs, r.ID)
		}
		res.Cells = append(res.Cells, c)
	}
	return res
}

// rankSorted keeps the matches with a value Keep keeps and stable-sorts
// them by value, then ID.
func rankSorted(matched []Run, r RunRanking) RankedRuns {
	var kept []Run
	for _, run := range matched {
		if v, ok := run.Number(r.Field); ok && (r.Keep == nil || r.Keep(v)) {
			kept = append(kept, run)
		}
	}
	slices.SortStableFunc(kept, func(x, y Run) int {
		vx, _ := x.Number(r.Field)
		vy, _ := y.Number(r.Field)
		c := cmp.Compare(vx, vy)
		if !r.Ascending {
			c = -c
		}
		return cmp.Or(c, strings.Compare(x.ID, y.ID))
	})
	top := kept[:min(len(kept), max(r.Limit, 0))]
	if len(top) == 0 {
		top = nil
	}
	return RankedRuns{Kept: len(kept), Top: top}
}

// diffTallyFields are the fields a tally may count.
var diffTallyFields = []string{"rep", "shards", "server_threads", "client_threads", "client_conns", "key_max", "test_time_s", "conn_errors", "run_id", "note"}

// tallySorted counts the matches (in ID order) per value of each field
// and names the first IDs.
func tallySorted(matched []Run, t RunTally) TalliedRuns {
	out := TalliedRuns{Runs: len(matched), Values: map[string][]ValueCount{}}
	for _, r := range matched[:min(len(matched), t.IDs)] {
		out.IDs = append(out.IDs, r.ID)
	}
	for _, field := range t.Fields {
		counts := map[string]int{}
		for _, r := range matched {
			if v, ok := fieldNumber(r, field); ok {
				counts[strconv.Itoa(int(v))]++
			} else {
				counts[fieldText(r, field)]++
			}
		}
		var vs []ValueCount
		for v, n := range counts {
			num, _ := strconv.Atoi(v)
			if field == "run_id" || field == "note" {
				num = 0
			}
			vs = append(vs, ValueCount{Value: v, Number: num, Runs: n})
		}
		slices.SortFunc(vs, func(a, b ValueCount) int {
			return cmp.Or(cmp.Compare(a.Number, b.Number), strings.Compare(a.Value, b.Value))
		})
		out.Values[field] = vs
	}
	return out
}

// exists: some run has every non-zero knob of k.
func (o oracle) exists(k CellKey) bool {
	for _, r := range o.runs {
		m := r.Key()
		if (k.Session == 0 || k.Session == m.Session) && (k.Engine == "" || k.Engine == m.Engine) &&
			(k.Mode == "" || k.Mode == m.Mode) && (k.Cores == 0 || k.Cores == m.Cores) &&
			(k.Ratio == "" || k.Ratio == m.Ratio) && (k.ValueBytes == 0 || k.ValueBytes == m.ValueBytes) &&
			(k.Pipeline == 0 || k.Pipeline == m.Pipeline) {
			return true
		}
	}
	return false
}

// coverage: per (session, engine, mode) in cell order, the knob values
// seen, the runs and the cells.
func (o oracle) coverage() []SeriesCoverage {
	keys := map[CellKey]int{}
	for _, r := range o.runs {
		keys[r.Key()]++
	}
	sorted := slices.SortedFunc(func(yield func(CellKey) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}, CompareCellKeys)
	var out []SeriesCoverage
	for _, k := range sorted {
		if n := len(out); n == 0 || out[n-1].Session != k.Session || out[n-1].Engine != k.Engine || out[n-1].Mode != k.Mode {
			out = append(out, SeriesCoverage{Session: k.Session, Engine: k.Engine, Mode: k.Mode})
		}
		c := &out[len(out)-1]
		c.Cores = withValue(c.Cores, k.Cores, cmp.Compare[int])
		c.Ratios = withValue(c.Ratios, k.Ratio, func(a, b string) int { return compareIn(ratioOrder, a, b) })
		c.ValueBytes = withValue(c.ValueBytes, k.ValueBytes, cmp.Compare[int])
		c.Pipelines = withValue(c.Pipelines, k.Pipeline, cmp.Compare[int])
		c.Runs += keys[k]
		c.Cells++
	}
	return out
}

func withValue[T comparable](s []T, v T, c func(a, b T) int) []T {
	if slices.Contains(s, v) {
		return s
	}
	s = append(s, v)
	slices.SortFunc(s, c)
	return s
}

// diffGen makes awkward runs and filters over them.
type diffGen struct {
	rng    *rand.Rand
	floats []string // a small pool: chunks drawing from it are dictionary-coded
	runIDs []string
	notes  []string
}

func newDiffGen(seed uint64) *diffGen {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	long := strings.Repeat("a", 50)
	return &diffGen{
		rng:    rng,
		floats: []string{"0", "0.0", "0.1", "0.2", "0.30000000000000004", "1", "1.5", "2", "100000.25", "981000"},
		runIDs: []string{long + "b", long + "c", long + "b1", long + "bb", "x", "y7", "synthetic-1", "synthetic-12", "Z", "0"},
		notes:  []string{"scale-4c", "scale-48c", "sat-scale-8c", "", "a b"}, // the last two are not kept by an import
	}
}

func (g *diffGen) pick(s []string) string { return s[g.rng.IntN(len(s))] }

// float is a value from the pool (shared by every chunk, so equal values
// sit on both sides of a dictionary's boundary) or a distinct one.
func (g *diffGen) float(pooled bool) string {
	if pooled {
		return g.pick(g.floats)
	}
	return strconv.FormatFloat(float64(g.rng.IntN(2_000_000))/1000, 'f', -1, 64)
}

// cellSpec is one cell of a generated store and how many runs it holds.
type cellSpec struct {
	k    CellKey
	runs int
}

// cells picks distinct cell keys with sizes of 1, a few, and multiples
// and fractions of the column chunk (so chunk boundaries fall on cell
// boundaries and inside cells), big adding one cell larger than a chunk.
func (g *diffGen) cells(n, chunk int, big int) []cellSpec {
	seen := map[CellKey]bool{}
	var out []cellSpec
	for len(out) < n {
		k := CellKey{Session: 1, Engine: g.pick(Engines), Mode: g.pick(Modes), Cores: []int{4, 8, 48}[g.rng.IntN(3)],
			Ratio: g.pick([]string{"1:10", "1:1", "mget10", "mset10", "3:7"}), ValueBytes: []int{100, 1024}[g.rng.IntN(2)],
			Pipeline: []int{1, 16}[g.rng.IntN(2)]}
		if seen[k] {
			continue
		}
		seen[k] = true
		size := []int{1, 1, 2, 3, 1 + g.rng.IntN(12), chunk, chunk / 2, chunk + 1, 2*chunk - 1}[g.rng.IntN(9)]
		if big > 0 && len(out) == 0 {
			size = big
		}
		out = append(out, cellSpec{k, max(size, 1)})
	}
	return out
}

// csvOf writes the cells' runs as a capture file. A cell's runs take
// run IDs and reps so that their IDs are distinct; a cell draws its
// floats from the pool or not, so some chunks are coded and some plain.
func (g *diffGen) csvOf(tb testing.TB, cells []cellSpec, prefix string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(columns); err != nil {
		tb.Fatal(err)
	}
	rec := make([]string, len(columns))
	for _, c := range cells {
		pooled := g.rng.IntN(3) > 0
		base := prefix + g.pick(g.runIDs)
		for j := range c.runs {
			lat := []string{g.float(pooled), g.float(pooled), g.float(pooled)}
			slices.SortFunc(lat, func(a, b string) int {
				x, _ := strconv.ParseFloat(a, 64)
				y, _ := strconv.ParseFloat(b, 64)
				return cmp.Compare(x, y)
			})
			hit := ""
			if c.k.Ratio != "mset10" || g.rng.IntN(4) == 0 {
				hit = []string{"0", "0.1", "0.5", "0.9998", "1", "1.0", strconv.FormatFloat(g.rng.Float64(), 'f', 4, 64)}[g.rng.IntN(7)]
			}
			runID := base
			if j >= 12 {
				runID = fmt.Sprintf("%.55s-%d", base, j/12)
			}
			vals := map[string]string{
				"run_id": runID, "note": g.pick(g.notes), "engine": c.k.Engine, "mode": c.k.Mode,
				"shards": g.pick([]string{"0", "1", "4", "48"}), "server_threads": g.pick([]string{"0", "8", "48"}),
				"shard_io_threads": "1", "cores_used": strconv.Itoa(c.k.Cores), "server_cpus": "0-47", "client_cpus": "48-95",
				"client_threads": g.pick([]string{"1", "48"}), "client_conns": g.pick([]string{"0", "20", "50"}),
				"pipeline": strconv.Itoa(c.k.Pipeline), "ratio": c.k.Ratio, "data_bytes": strconv.Itoa(c.k.ValueBytes),
				"key_max": g.pick([]string{"0", "1000000", "1000000000000"}), "test_time": g.pick([]string{"0", "20", "60"}),
				"populate": "1", "rep": strconv.Itoa(1 + j%12), // rep10 sorts before rep2 by ID
				"ops_per_sec": g.float(pooled), "ops_per_core": g.float(pooled),
				"p50_ms": lat[0], "p99_ms": lat[1], "p999_ms": lat[2], "hit_rate": hit,
				"hits_per_sec": "1", "misses_per_sec": "0", "conn_errors": g.pick([]string{"0", "0", "3"}),
				"kb_per_sec": g.float(pooled),
			}
			if !pooled { // whole numbers of many distinct values: wider codes, or none
				vals["conn_errors"] = strconv.Itoa(g.rng.IntN(1_000_000))
				vals["client_conns"] = strconv.Itoa(g.rng.IntN(100_000))
			}
			for i, col := range columns {
				rec[i] = vals[col]
			}
			if err := w.Write(rec); err != nil {
				tb.Fatal(err)
			}
		}
	}
	w.Flush()
	return buf.Bytes()
}

// runsOfCSV parses a capture file the way an import reads it and keeps
// what an import keeps.
func runsOfCSV(tb testing.TB, b []byte, session int, name string) []Run {
	tb.Helper()
	rows, probs := readCSV(bytes.NewReader(b), session, name)
	if len(probs) > 0 {
		tb.Fatalf("the generated file has problems: %v", probs[:min(3, len(probs))])
	}
	var runs []Run
	for _, r := range rows {
		if Keep(r.run) { // the import's keep rule
			runs = append(runs, r.run)
		}
	}
	return runs
}

// oddRuns are every row of the files, kept or not (empty notes, no
// throughput), their zero latencies negative zeros: what no import
// stores, but a snapshot of runs in memory holds as given.
func oddRuns(tb testing.TB, files ...[]byte) []Run {
	tb.Helper()
	var runs []Run
	for _, b := range files {
		rows, _ := readCSV(bytes.NewReader(b), 2, "odd.csv")
		for _, r := range rows {
			if r.run.P50Ms == 0 {
				r.run.P50Ms = math.Copysign(0, -1)
			}
			runs = append(runs, r.run)
		}
	}
	return runs
}

// Filter grammar.
var (
	diffFloatFields = []string{"ops_per_sec", "ops_per_core", "p50_ms", "p99_ms", "p999_ms", "kb_per_sec"}
	diffIntFields   = []string{"session", "cores", "shards", "server_threads", "client_threads", "client_conns", "pipeline", "value_bytes", "key_max", "test_time_s", "rep", "conn_errors"}
	diffTextFields  = []string{"id", "run_id", "note", "engine", "mode", "ratio"}
	diffOps         = []string{"==", "!=", "<", "<=", ">", ">="}
)

// numLiteral is a value some run has, or one no run has, written as an
// int, a float, a negative zero …, signed or twice negated.
func (g *diffGen) numLiteral(field string, runs []Run) string {
	switch lit := g.plainNumLiteral(field, runs); g.rng.IntN(10) {
	case 0:
		return "+" + lit
	case 1:
		return "-(-" + lit + ")"
	default:
		return lit
	}
}

func (g *diffGen) plainNumLiteral(field string, runs []Run) string {
	if len(runs) > 0 && g.rng.IntN(2) == 0 {
		r := runs[g.rng.IntN(len(runs))]
		if v, ok := fieldNumber(r, field); ok {
			s := strconv.FormatFloat(v, 'f', -1, 64)
			if g.rng.IntN(4) == 0 && !strings.Contains(s, ".") {
				s += ".0" // an int compared to a float
			}
			return s
		}
	}
	return g.pick([]string{"0", "-0", "-0.0", "0.0", "0.1", "0.2", "0.3", "0.30000000000000004", "1", "1.0", "1.5", "2", "-1", "4", "8.0", "8.5", "16", "20", "48", "100", "1024", "981000", "1000000", "1e6", "1000000000000", "100000.25"})
}

// envFields maps each filter field to its index in runEnv (by the expr
// tag), found once: the oracle reads fields of every run of every filter.
var envFields = sync.OnceValue(func() map[string]int {
	t := reflect.TypeFor[runEnv]()
	m := map[string]int{}
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("expr"); name != "" {
			m[name] = i
		}
	}
	return m
})

// fieldNumber is a run's value of a numeric filter field.
func fieldNumber(r Run, field string) (float64, bool) {
	i, ok := envFields()[field]
	if !ok {
		return 0, false
	}
	switch f := reflect.ValueOf(newRunEnv(&r)).Field(i); f.Kind() {
	case reflect.Int:
		return float64(f.Int()), true
	case reflect.Float64:
		return f.Float(), true
	case reflect.Pointer:
		if f.IsNil() {
			return 0, false
		}
		return f.Elem().Float(), true
	}
	return 0, false
}

func fieldText(r Run, field string) string {
	i, ok := envFields()[field]
	if !ok {
		return ""
	}
	return reflect.ValueOf(newRunEnv(&r)).Field(i).String()
}

func (g *diffGen) textLiteral(field string, runs []Run) string {
	if len(runs) > 0 && g.rng.IntN(3) > 0 {
		return strconv.Quote(fieldText(runs[g.rng.IntN(len(runs))], field))
	}
	return strconv.Quote(g.pick([]string{"", "redis", "single", "1:10", "mset10", "nosuch", "synthetic-1", "scale-4c", "a"}))
}

// atom is one condition.
func (g *diffGen) atom(runs []Run) string {
	switch g.rng.IntN(12) {
	case 0, 1, 2: // a number field
		fields := diffIntFields
		if g.rng.IntN(2) == 0 {
			fields = diffFloatFields
		}
		f := g.pick(fields)
		if g.rng.IntN(4) == 0 {
			return g.numLiteral(f, runs) + " " + g.pick(diffOps) + " " + f
		}
		return f + " " + g.pick(diffOps) + " " + g.numLiteral(f, runs)
	case 3, 4, 5: // a text field, mostly a cell field pinned
		f := g.pick(diffTextFields)
		op := g.pick([]string{"==", "==", "!=", "<", ">="})
		if g.rng.IntN(4) == 0 {
			return g.textLiteral(f, runs) + " " + op + " " + f
		}
		return f + " " + op + " " + g.textLiteral(f, runs)
	case 6: // hit_rate against nil
		return g.pick([]string{"hit_rate == nil", "hit_rate != nil", "nil == hit_rate", "nil != hit_rate"})
	case 7: // hit_rate against a number
		return "hit_rate " + g.pick(diffOps) + " " + g.numLiteral("hit_rate", runs)
	case 8: // in
		if g.rng.IntN(2) == 0 {
			f := g.pick(diffTextFields)
			return f + " in [" + g.textLiteral(f, runs) + ", " + g.textLiteral(f, runs) + "]"
		}
		f := g.pick(append(diffIntFields, diffFloatFields...))
		return f + " in [" + g.numLiteral(f, runs) + ", " + g.numLiteral(f, runs) + "]"
	case 9:
		return g.pick([]string{"true", "false"})
	default: // a pin of the cell
		k := CellKey{Session: 1, Engine: g.pick(Engines), Mode: g.pick(Modes), Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 1}
		if len(runs) > 0 {
			k = runs[g.rng.IntN(len(runs))].Key()
		}
		pins := pinsOf(k)
		p := pins[g.rng.IntN(len(pins))]
		if p.text != "" {
			return p.field + " == " + strconv.Quote(p.text)
		}
		return p.field + " == " + strconv.Itoa(p.num)
	}
}

// filter is a random filter of depth at most d.
func (g *diffGen) filter(runs []Run, d int) string {
	if d == 0 || g.rng.IntN(3) == 0 {
		return g.atom(runs)
	}
	switch g.rng.IntN(7) {
	case 0, 1:
		return g.filter(runs, d-1) + " && " + g.filter(runs, d-1)
	case 2:
		return g.filter(runs, d-1) + " and " + g.filter(runs, d-1)
	case 3:
		return g.filter(runs, d-1) + " || " + g.filter(runs, d-1)
	case 4:
		return "!(" + g.filter(runs, d-1) + ")"
	case 5:
		return "not (" + g.filter(runs, d-1) + ")"
	default:
		return "(" + g.filter(runs, d-1) + ")"
	}
}

// diffRankFields are the fields a ranking may be on.
var diffRankFields = []string{"ops_per_sec", "ops_per_core", "p50_ms", "p99_ms", "p999_ms", "hit_rate", "kb_per_sec",
	"rep", "shards", "server_threads", "client_threads", "client_conns", "key_max", "test_time_s", "conn_errors"}

// ranking is a random ranking: a field, a direction, a limit that may cut
// through equal values, and maybe a threshold.
func (g *diffGen) ranking() RunRanking {
	r := RunRanking{Field: g.pick(diffRankFields), Ascending: g.rng.IntN(2) == 0, Limit: []int{0, 1, 3, 10, 1000}[g.rng.IntN(5)]}
	if g.rng.IntN(2) == 0 {
		x := []float64{0, 0.1, 0.5, 1, 100}[g.rng.IntN(5)]
		if g.rng.IntN(2) == 0 {
			r.Keep = func(v float64) bool { return v < x }
		} else {
			r.Keep = func(v float64) bool { return v >= x }
		}
	}
	return r
}

// diffStats counts the filters compared, those matching some runs but not
// all, those the oracle could not use (a compile or runtime error), and
// those read as pins alone, natively over columns, or pinned.
var diffStats struct{ compared, some, unusable, exact, native, pinned int }

// checkPaths compares one filter's answers on a store with the oracle's:
// Query (its native plan and the VM over the same columns), MatchRuns, a
// tally and a ranking. It returns the number of mismatches reported.
func checkPaths(t testing.TB, name string, s *Store, o oracle, filter string, rk RunRanking) {
	t.Helper()
	f, err := CompileFilter(filter)
	if err != nil {
		diffStats.unusable++ // refused alike on every path: the one gate
		return
	}
	matched, ok := o.matches(t, filter)
	if !ok {
		diffStats.unusable++
		return
	}
	diffStats.compared++
	if f.compiled == nil {
		diffStats.exact++ // read as its pins, without expr
	}
	if f.planOf().native != nil {
		diffStats.native++
	}
	if sh := f.shapeOf(); len(sh.pins) > 0 {
		diffStats.pinned++
	}
	if len(matched) > 0 && len(matched) < len(o.runs) {
		diffStats.some++
	}
	want := o.query(filter, matched)
	got, err := s.Query(t.Context(), filter) // through the store's cache of compiled filters
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: Query(%q): %s", name, filter, resultDiff(got, want, err))
	}
	got, err = s.QueryFilter(t.Context(), f)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: QueryFilter(%q): %s", name, filter, resultDiff(got, want, err))
	}
	if f.planOf().native != nil {
		vmOnly, _ := CompileFilter(filter)
		vmOnly.planOf().native = nil
		got, err := s.QueryFilter(t.Context(), vmOnly)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Query(%q) on expr's VM over columns: %s", name, filter, resultDiff(got, want, err))
		}
	}
	runs, err := s.MatchRuns(t.Context(), filter)
	if err != nil || !reflect.DeepEqual(runs, matched) && !(len(runs) == 0 && len(matched) == 0) {
		t.Errorf("%s: MatchRuns(%q): %d runs (%v), want %d: %v", name, filter, len(runs), err, len(matched), firstDiff(runIDsOf(runs), runIDsOf(matched)))
	}
	tally := RunTally{IDs: len(filter) % 7}
	for _, field := range diffTallyFields {
		if (len(filter)+len(field))%3 == 0 {
			tally.Fields = append(tally.Fields, field)
		}
	}
	if got, err := s.TallyRuns(t.Context(), filter, tally); err != nil || !reflect.DeepEqual(got, tallySorted(matched, tally)) {
		t.Errorf("%s: TallyRuns(%q, %+v): %+v (%v), want %+v", name, filter, tally, got, err, tallySorted(matched, tally))
	}
	ranked, err := s.RankRuns(t.Context(), filter, rk)
	if wantR := rankSorted(matched, rk); err != nil || !reflect.DeepEqual(ranked, wantR) {
		t.Errorf("%s: RankRuns(%q, %s asc %v limit %d keep %v): kept %d %v (%v), want kept %d %v", name, filter, rk.Field, rk.Ascending,
			rk.Limit, rk.Keep != nil, ranked.Kept, runIDsOf(ranked.Top), err, wantR.Kept, runIDsOf(wantR.Top))
	}
}

func resultDiff(got, want Result, err error) string {
	if err != nil {
		return err.Error()
	}
	if got.Runs != want.Runs || len(got.Cells) != len(want.Cells) {
		return fmt.Sprintf("%d runs in %d cells, want %d in %d", got.Runs, len(got.Cells), want.Runs, len(want.Cells))
	}
	for i := range got.Cells {
		if !reflect.DeepEqual(got.Cells[i], want.Cells[i]) {
			return fmt.Sprintf("cell %d: %+v, want %+v", i, got.Cells[i], want.Cells[i])
		}
	}
	return fmt.Sprintf("filter text %q, want %q", got.Filter, want.Filter)
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %q, want %q", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// checkCoverage compares Coverage, Exists (exact and partial keys) and
// Run, which read nothing more than they need.
func checkCoverage(t testing.TB, name string, s *Store, o oracle, g *diffGen) {
	t.Helper()
	if got, want := s.Coverage(), o.coverage(); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("%s: Coverage: %+v, want %+v", name, got, want)
	}
	byID := slices.Clone(o.runs)
	slices.SortFunc(byID, func(a, b Run) int { return strings.Compare(a.ID, b.ID) })
	for range 10 { // a run by its ID, by a prefix of one, by one plus a byte
		if len(byID) == 0 {
			break
		}
		r := byID[g.rng.IntN(len(byID))]
		if got, ok := s.Run(r.ID); !ok || !reflect.DeepEqual(got, r) {
			t.Errorf("%s: Run(%q) = %v, %v", name, r.ID, got.ID, ok)
		}
		for _, id := range []string{r.ID[:g.rng.IntN(len(r.ID))], r.ID + "0"} {
			if _, ok := s.Run(id); ok != slices.ContainsFunc(byID, func(x Run) bool { return x.ID == id }) {
				t.Errorf("%s: Run(%q) found %v", name, id, ok)
			}
		}
	}
	for range 20 {
		k := CellKey{Session: g.rng.IntN(3), Engine: g.pick(append([]string{""}, Engines...)), Mode: g.pick(append([]string{""}, Modes...)),
			Cores: []int{0, 4, 8, 48, 7}[g.rng.IntN(5)], Ratio: g.pick([]string{"", "1:10", "1:1", "mget10", "mset10", "3:7"}),
			ValueBytes: []int{0, 100, 1024}[g.rng.IntN(3)], Pipeline: []int{0, 1, 16}[g.rng.IntN(3)]}
		if len(o.runs) > 0 && g.rng.IntN(2) == 0 {
			k = o.runs[g.rng.IntN(len(o.runs))].Key()
		}
		if got, want := s.Exists(k), o.exists(k); got != want {
			t.Errorf("%s: Exists(%+v) = %v, want %v", name, k, got, want)
		}
	}
}

// checkLoaded runs doctor's check on a store on disk and compares what
// loads every cell and run (Nearest, with the plain snapshot's, Cells,
// Runs): it runs after the filters that read lazily.
func checkLoaded(t testing.TB, name string, s *Store, o oracle, g *diffGen) {
	t.Helper()
	if s.dir != "" && !s.oneShot {
		if err := s.Verify(t.Context()); err != nil {
			t.Errorf("%s: doctor: %v", name, err)
		}
	}
	plain := &Store{snap: newSnapshot(slices.Clone(o.runs)), filters: newFilterCache()}
	for range 10 {
		k := CellKey{Session: g.rng.IntN(3), Engine: g.pick(append([]string{""}, Engines...)), Mode: g.pick(Modes), Cores: []int{0, 4, 8, 7}[g.rng.IntN(4)]}
		if len(o.runs) > 0 && g.rng.IntN(2) == 0 {
			k = o.runs[g.rng.IntN(len(o.runs))].Key()
			k.Cores++
		}
		if n := g.rng.IntN(6); !reflect.DeepEqual(s.Nearest(k, n), plain.Nearest(k, n)) {
			t.Errorf("%s: Nearest(%+v, %d) differs from the runs' own", name, k, n)
		}
	}
	byID := slices.Clone(o.runs)
	slices.SortFunc(byID, func(a, b Run) int { return strings.Compare(a.ID, b.ID) })
	if got, want := s.Cells(), o.query("true", o.runs).Cells; !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
		t.Errorf("%s: Cells: %s", name, resultDiff(Result{Cells: got}, Result{Cells: want}, nil))
	}
	if got := s.Runs(); !reflect.DeepEqual(got, byID) && len(got)+len(byID) > 0 {
		t.Errorf("%s: Runs: %d, want %d: %s", name, len(got), len(byID), firstDiff(runIDsOf(got), runIDsOf(byID)))
	}
}

// diffStore is one way of holding a generated store's runs.
type diffStore struct {
	name string
	s    *Store
	o    oracle
}

// diffStores imports a generated store and opens it every way: as
// written by one import (session 1), after a second import (session 2)
// and a re-import of the first, reopened, reopened
// read-only, downgraded to format 2 and read (read-only) and migrated,
// and its runs held in memory.
func diffStores(t testing.TB, g *diffGen, nCells, chunk, big int) []diffStore {
	t.Helper()
	cells := g.cells(nCells, chunk, big)
	split := (len(cells) + 1) / 2
	first, second := g.csvOf(t, cells[:split], ""), g.csvOf(t, cells[split:], "")
	// A third file adds runs to some cells of the first and a new cell.
	more := append(slices.Clone(cells[:(split+1)/2]), g.cells(1, chunk, 0)...)
	third := g.csvOf(t, more, "t")
	firstRuns := runsOfCSV(t, first, 1, "first.csv")
	allRuns := append(slices.Clone(firstRuns), runsOfCSV(t, second, 2, "second.csv")...)
	dir := filepath.Join(t.TempDir(), "data")
	open := func(opts Options) *Store {
		opts.Dir = dir
		s, err := Open(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	closeLater := func(s *Store) *Store {
		t.Cleanup(func() { s.Close() })
		return s
	}
	var out []diffStore
	s := open(Options{})
	if _, err := s.ImportWith(t.Context(), "first.csv", bytes.NewReader(first), 1, oddRowsAllowed); err != nil {
		t.Fatal(err)
	}
	// One store, queried before and after the second import.
	var one []diffStore
	one = append(one, diffStore{"one import", s, oracle{firstRuns}})
	checkStoreSet(t, g, one)
	if _, err := s.ImportWith(t.Context(), "second.csv", bytes.NewReader(second), 2, oddRowsAllowed); err != nil {
		t.Fatal(err)
	}
	if rep, err := s.ImportWith(t.Context(), "first.csv", bytes.NewReader(first), 1, oddRowsAllowed); err != nil || rep.AlreadyPresent != len(firstRuns) {
		t.Fatalf("a re-import: %+v, %v", rep, err)
	}
	checkStoreSet(t, g, []diffStore{{"two imports and a re-import", s, oracle{allRuns}}})
	if _, err := s.ImportWith(t.Context(), "third.csv", bytes.NewReader(third), 1, oddRowsAllowed); err != nil {
		t.Fatal(err)
	}
	allRuns = append(allRuns, runsOfCSV(t, third, 1, "third.csv")...)
	out = append(out, diffStore{"a third import into cells of the first", s, oracle{allRuns}})
	checkStoreSet(t, g, out)
	out = out[:0]
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro := open(Options{ReadOnly: true})
	out = append(out, diffStore{"reopened read-only", ro, oracle{allRuns}})
	checkStoreSet(t, g, out)
	ro.Close()
	out = out[:0]
	out = append(out, diffStore{"reopened", closeLater(open(Options{})), oracle{allRuns}})
	out = append(out, diffStore{"runs in memory", &Store{snap: newSnapshot(slices.Clone(allRuns)), filters: newFilterCache()}, oracle{allRuns}})
	odd := oddRuns(t, first, second)
	out = append(out, diffStore{"odd runs in memory", &Store{snap: newSnapshot(slices.Clone(odd)), filters: newFilterCache()}, oracle{odd}})

	// The same runs in a format-2 store: read-only (from the runs), then migrated.
	dir2 := filepath.Join(t.TempDir(), "data2")
	s2, err := Open(t.Context(), Options{Dir: dir2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name    string
		b       []byte
		session int
	}{{"first.csv", first, 1}, {"second.csv", second, 2}, {"third.csv", third, 1}} {
		if _, err := s2.ImportWith(t.Context(), f.name, bytes.NewReader(f.b), f.session, oddRowsAllowed); err != nil {
			t.Fatal(err)
		}
	}
	downgradeToFormat2(t, s2, dir2)
	ro2, err := Open(t.Context(), Options{Dir: dir2, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	checkStoreSet(t, g, []diffStore{{"format 2 read-only", ro2, oracle{allRuns}}})
	ro2.Close()
	m, err := Open(t.Context(), Options{Dir: dir2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Migrated() == "" {
		t.Error("the format-2 store was not migrated")
	}
	out = append(out, diffStore{"migrated from format 2", closeLater(m), oracle{allRuns}})
	return out
}

// diffFilters is how many random filters each store of n runs answers.
func diffFilters(n int) int {
	switch {
	case n > 1_000:
		return 25
	case testing.Short():
		return 40
	}
	return 60
}

// checkStoreSet runs random filters and the coverage answers on stores.
func checkStoreSet(t testing.TB, g *diffGen, stores []diffStore) {
	t.Helper()
	for _, ds := range stores {
		checkCoverage(t, ds.name, ds.s, ds.o, g)
		for range diffFilters(len(ds.o.runs)) {
			if snap := ds.s.current(); snap.lazy != nil && !ds.s.oneShot && g.rng.IntN(2) == 0 {
				// As opened: nothing loaded, so a pinned filter reads its
				// cells alone, a scan only its columns.
				ds.s.mu.Lock()
				ds.s.snap = newLazySnapshot(ds.s, snap.lazy.head, ds.s.manifest)
				ds.s.mu.Unlock()
			}
			checkPaths(t, ds.name, ds.s, ds.o, g.filter(ds.o.runs, 3), g.ranking())
		}
		checkLoaded(t, ds.name, ds.s, ds.o, g)
		for range diffFilters(len(ds.o.runs)) / 4 { // and with every cell and run loaded
			checkPaths(t, ds.name+" (loaded)", ds.s, ds.o, g.filter(ds.o.runs, 3), g.ranking())
		}
	}
}

// diffSeeds asks the differential test for more random stores, to run it
// longer by hand.
var diffSeeds = flag.Int("diff.seeds", 0, "more random stores for TestQueryPathsAgreeWithAScanOfEveryRun")

// diffBig adds a store with the real column chunks (32768 runs) and a
// cell of more runs than one: 3 minutes, too long for every run of the
// tests (a cell of 1027 runs in chunks of 512 stands for it).
var diffBig = flag.Bool("diff.big", false, "add a store with a cell of 32868 runs to TestQueryPathsAgreeWithAScanOfEveryRun")

// TestQueryPathsAgreeWithAScanOfEveryRun is the differential test; see
// the top of the file. Stores have small column chunks (so cells span
// them and boundaries fall on cells); outside -short one has a cell of
// two chunks and more, and -diff.big adds one with the real chunks and a
// cell of more runs than one holds.
func TestQueryPathsAgreeWithAScanOfEveryRun(t *testing.T) {
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	type config struct {
		seed              uint64
		cells, chunk, big int
	}
	configs := []config{{1, 12, 8, 0}, {2, 25, 16, 0}, {3, 6, 4, 0}, {4, 2, 8, 0}}
	if !testing.Short() {
		configs = append(configs, config{7, 3, 512, 2*512 + 3})
	}
	if *diffBig {
		configs = append(configs, config{8, 3, 1 << 15, 1<<15 + 100})
	}
	for i := range *diffSeeds {
		seed := uint64(1000 + i)
		configs = append(configs, config{seed, 2 + int(seed*7)%60, 2 + int(seed*13)%70, 0})
	}
	for _, c := range configs {
		t.Run(fmt.Sprintf("seed %d chunk %d", c.seed, c.chunk), func(t *testing.T) {
			columnChunkRuns = c.chunk
			g := newDiffGen(c.seed)
			stores := diffStores(t, g, c.cells, c.chunk, c.big)
			columnChunkRuns = 1 << 15 // written: each store is read with its own chunks
			checkStoreSet(t, g, stores)
		})
	}
	t.Logf("%d filters compared (%d matching some runs but not all), %d unusable", diffStats.compared, diffStats.some, diffStats.unusable)
	t.Logf("%d read as pins alone, %d native over columns, %d pinned", diffStats.exact, diffStats.native, diffStats.pinned)
	if diffStats.some < diffStats.compared/4 || diffStats.exact == 0 || diffStats.native < diffStats.compared/4 || diffStats.pinned < diffStats.compared/10 {
		t.Errorf("%+v: the generator is too weak", diffStats)
	}
}

// FuzzQueryPathsAgree answers fuzzed filters on the stores of the
// differential test (column chunks of 8 runs) and compares every path's
// answers with the oracle's; seeded with the generator's filters. A
// filter that does not compile stands for the generator's filter of the
// seed.
func FuzzQueryPathsAgree(f *testing.F) {
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	columnChunkRuns = 8
	g := newDiffGen(11)
	stores := diffStores(f, g, 20, 8, 0)
	columnChunkRuns = 1 << 15 // the stores are written: the rest reads their own chunk size
	for i := range 64 {
		f.Add(g.filter(stores[0].o.runs, 1+i%4), uint64(i))
	}
	f.Fuzz(func(t *testing.T, filter string, seed uint64) {
		g := newDiffGen(seed)
		rk := g.ranking()
		if _, err := CompileFilter(filter); err != nil {
			filter = g.filter(stores[0].o.runs, 4) // the seed's own filter, not a refusal
		}
		for _, ds := range stores {
			checkPaths(t, ds.name, ds.s, ds.o, filter, rk)
		}
	})
}

// TestAStoreIsReadAndCheckedWithItsOwnColumnChunks reads a store written
// with chunks of 8 runs by a build whose chunks are 32768: a scan read one
// chunk of each column (the count came from the build's chunk size, not
// the store's head) and indexed past it, and doctor counted one chunk per
// column.
func TestAStoreIsReadAndCheckedWithItsOwnColumnChunks(t *testing.T) {
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	columnChunkRuns = 8
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	writeSyntheticCSV(t, &buf, 100)
	if _, err := s.ImportWith(t.Context(), "synthetic.csv", &buf, 1, oddRowsAllowed); err != nil {
		t.Fatal(err)
	}
	all := s.Runs()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	columnChunkRuns = 1 << 15
	s, err = Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("doctor: %v", err)
	}
	f, err := CompileFilter(`p50_ms < 0.15`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryFilter(t.Context(), f)
	if want := referenceQuery(t, all, f); err != nil || !reflect.DeepEqual(got, want) || want.Runs == 0 {
		t.Errorf("%s: %d runs (%v), the scan of every run %d", f, got.Runs, err, want.Runs)
	}
}

// TestTheEmbeddedDatasetAnswersAlikeOnEveryPath compares random filters
// over the embedded dataset on a one-shot first use (answering from the
// runs it holds in memory while its import is written), the same store
// reopened (its columns and persisted index), an in-memory store, and the
// oracle over the runs its files parse into.
func TestTheEmbeddedDatasetAnswersAlikeOnEveryPath(t *testing.T) {
	var runs []Run
	for _, f := range DefaultDataset() {
		b, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, runsOfCSV(t, b, f.Session, f.Name())...)
	}
	o := oracle{runs}
	g := newDiffGen(21)
	first, dir := firstUse(t)
	checkStoreSet(t, g, []diffStore{{"first use", first, o}})
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	warm, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Close()
	checkStoreSet(t, g, []diffStore{{"warm", warm, o}, {"in memory", openDefault(t), o}})
}
