package analytics

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/expr-lang/expr/vm"
)

// referenceQuery is the plain way to run a filter: evaluate it on every
// run, group the matches by cell, sort the cells and each cell's runs, and
// take the medians. The indexed query must answer exactly like it.
func referenceQuery(t *testing.T, runs []Run, f *Filter) Result {
	t.Helper()
	var m vm.VM
	groups := map[CellKey][]int{}
	var keys []CellKey
	n := 0
	for i := range runs {
		env := newRunEnv(&runs[i])
		ok, err := f.match(&m, &env)
		if err != nil {
			t.Fatalf("%s: %v", f.text, err)
		}
		if !ok {
			continue
		}
		n++
		k := runs[i].Key()
		if _, seen := groups[k]; !seen {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	slices.SortFunc(keys, CompareCellKeys)
	res := Result{Filter: f.text, Cells: []Cell{}, Runs: n}
	for _, k := range keys {
		g := groups[k]
		sortByRep(runs, g)
		res.Cells = append(res.Cells, cellOf(runs, k, g, nil))
	}
	return res
}

// referenceMatches evaluates the filter on every run (given in ID order).
func referenceMatches(t *testing.T, runs []Run, f *Filter) []Run {
	t.Helper()
	var m vm.VM
	var out []Run
	for i := range runs {
		env := newRunEnv(&runs[i])
		ok, err := f.match(&m, &env)
		if err != nil {
			t.Fatalf("%s: %v", f.text, err)
		}
		if ok {
			out = append(out, runs[i])
		}
	}
	return out
}

// storeOfSynthetic imports n synthetic rows into an in-memory store.
func storeOfSynthetic(t *testing.T, n int) *Store {
	t.Helper()
	s := openMemory(t)
	var buf bytes.Buffer
	writeSyntheticCSV(t, &buf, n)
	if _, err := s.Import(t.Context(), "synthetic.csv", &buf, 1); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIndexedQueriesAnswerExactlyLikeAScanOfEveryRun runs filters of every
// shape (pinned cells, cell fields only, run fields, pins under || or !,
// no match, hit_rate on runs without reads) through the store and through
// the reference scan, on the embedded runs and on synthetic ones: on a
// store as opened (nothing loaded: pinned filters read their candidates
// from the persisted index), on one whose runs are loaded, and on a
// snapshot built in memory.
func TestIndexedQueriesAnswerExactlyLikeAScanOfEveryRun(t *testing.T) {
	t.Parallel() // CPU-bound over stores of its own; no package variable is set
	filters := []string{
		`true`,
		selectiveFilter,
		fullScanFilter,
		`ops_per_sec > 981000`,
		`engine == "dragonfly"`,
		`"redis" == engine && cores == 48`,
		`session == 1 && engine == "valkey" && mode == "cluster" && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
		`engine == "redis" || engine == "valkey"`,
		`!(engine == "redis") && cores == 8`,
		`engine == "garnet" && rep == 1`,
		`engine == "dragonfly" && ops_per_sec > 5000000`,
		`cores >= 8 && cores <= 24 and ratio == "1:1"`,
		`engine == "nosuch"`,
		`cores == 7`,
		`hit_rate < 0.5`,
		`engine == "dragonfly" && hit_rate >= 0.9`,
		`lower(engine) == "redis" && pipeline == 1`,
		`engine == "redis" && (mode == "cluster" || p99_ms < 1)`,
		`note != "" && value_bytes == 1024`,
		`engine == "redis" && cores == 8 && ratio == "1:1" && p50_ms < 0.5`,
	}
	embedded, synthetic := openDefault(t), storeOfSynthetic(t, 4_000)
	for _, tc := range []struct {
		name   string
		s      *Store
		reopen bool // a fresh snapshot of the store before every filter
	}{
		{"embedded as opened", embedded, true},
		{"embedded loaded", embedded, false},
		{"synthetic as opened", synthetic, true},
		{"synthetic loaded", synthetic, false},
		{"synthetic in memory", &Store{snap: newSnapshot(syntheticRuns(20_000))}, false},
	} {
		all := tc.s.Runs()
		for _, text := range filters {
			f, err := CompileFilter(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if tc.reopen {
				tc.s.snap = newLazySnapshot(tc.s, tc.s.snap.lazy.head, tc.s.manifest)
			}
			got, err := tc.s.QueryFilter(t.Context(), f)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, text, err)
			}
			if want := referenceQuery(t, all, f); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s: indexed query gave %d cells / %d runs, the scan %d cells / %d runs",
					tc.name, text, len(got.Cells), got.Runs, len(want.Cells), want.Runs)
			}
			if tc.reopen {
				tc.s.snap = newLazySnapshot(tc.s, tc.s.snap.lazy.head, tc.s.manifest)
			}
			runs, err := tc.s.current().matchRuns(t.Context(), f)
			if err != nil {
				t.Fatal(err)
			}
			if want := referenceMatches(t, all, f); !reflect.DeepEqual(runs, want) {
				t.Errorf("%s: %s: indexed match found %d runs, the scan %d", tc.name, text, len(runs), len(want))
			}
		}
	}
}

// TestShapeOfFindsPinsOnlyInTheTopLevelConjunction checks which conditions
// narrow the cells and when one evaluation per cell is enough.
func TestShapeOfFindsPinsOnlyInTheTopLevelConjunction(t *testing.T) {
	tests := []struct {
		filter   string
		pins     []pin
		cellOnly bool
	}{
		{`engine == "redis" && cores == 48`, []pin{{field: "engine", text: "redis"}, {field: "cores", num: 48}}, true},
		{`48 == cores and ops_per_sec > 1`, []pin{{field: "cores", num: 48}}, false},
		{`engine == "redis" || cores == 48`, nil, true},
		{`!(engine == "redis")`, nil, true},
		{`cores == "48"`, nil, true},
		{`rep == 1`, nil, false},
		{`lower(engine) == "redis"`, nil, true},
		{`$env.cores == 48`, nil, false},
	}
	for _, tt := range tests {
		sh := shapeOf(tt.filter)
		if !reflect.DeepEqual(sh.pins, tt.pins) || sh.cellOnly != tt.cellOnly {
			t.Errorf("%s: pins %+v cellOnly %v, want %+v %v", tt.filter, sh.pins, sh.cellOnly, tt.pins, tt.cellOnly)
		}
	}
}
