package analytics

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestNativeAndVMScansAgree runs filters of every shape the native scan
// knows (a field compared with a literal on either side, each kind of
// column, cell fields, hit_rate's nil and ordered comparisons, &&, ||, !,
// signed and mixed whole/fractional literals) and some it leaves to the VM
// through both paths of a column scan, and through the reference scan of
// every run, on a store whose columns span several chunks and on a
// snapshot built in memory.
func TestNativeAndVMScansAgree(t *testing.T) {
	tests := []struct {
		filter string
		native bool
	}{
		{`ops_per_sec > 981000`, true},
		{`0 < p50_ms && p99_ms <= 1.5`, true},
		{`kb_per_sec == 4567.89 || ops_per_core != 20833.33`, true},
		{`p999_ms >= 8.1`, true},
		{`rep == 3`, true},
		{`rep > 8 || rep < 2`, true},
		{`rep == 3.0`, true},
		{`rep < 2.5 and cores > 8`, true},
		{`shards == 4 && client_conns == 20 && client_threads == 48`, true},
		{`key_max >= 1000000 && test_time_s == 20 && server_threads > 8`, true},
		{`conn_errors != 0`, true},
		{`run_id == "synthetic-12"`, true},
		{`run_id != "synthetic-12" && note == "scale-4c"`, true},
		{`note == "nosuch" || rep == 10`, true},
		{`hit_rate > 0.5`, true},
		{`hit_rate == nil`, true},
		{`nil != hit_rate && rep == 1`, true},
		{`!(hit_rate < 0.9)`, true},
		{`not (rep == 1) and engine == "redis"`, true},
		{`-1 < ops_per_sec && ops_per_sec > -1.5`, true},
		{`true && rep == 1`, true},
		{`false || rep == 2`, true},
		{`cores == 8.0 && rep == 2`, true},
		{`engine != "redis" && p50_ms < 0.3`, true},
		{`session == 1 && rep == 10 && value_bytes >= 1024`, true},
		{`ratio == "mset10" && hit_rate == nil`, true},
		{`id == "run-s1-synthetic-0-dragonfly-single-4c-p1-1-10-d100-rep1" || rep == 4`, false},
		{`rep in [1, 2]`, false},
		{`hit_rate == 0.9998`, false},
		{`lower(note) == "scale-4c" && rep == 1`, false},
		{`p50_ms * 2 > 1`, false},
		{`run_id < "synthetic-2"`, false},
		{`ops_per_sec > ops_per_core * 10`, false},
		{`len(run_id) > 11 && rep == 2`, false},
		{`engine + mode == "redissingle" && rep == 3`, false},
	}
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	columnChunkRuns = 1000
	stored := storeOfSynthetic(t, 4_500)
	if stored.current().lazy.head.ColumnChunkRuns != 1000 {
		t.Fatal("the store's columns are not in chunks of 1000 runs")
	}
	floats, err := stored.current().columns(t.Context(), metricFields)
	if err != nil {
		t.Fatal(err)
	}
	coded, plain := 0, 0
	for _, c := range floats {
		if c.fcodes != nil {
			coded++
		} else {
			plain++
		}
	}
	if coded == 0 || plain == 0 {
		t.Fatalf("%d coded and %d plain float columns: the table needs both", coded, plain)
	}
	for _, tc := range []struct {
		name string
		s    *Store
	}{
		{"stored", stored},
		{"embedded", openDefault(t)},
		{"in memory", &Store{snap: newSnapshot(syntheticRuns(4_500))}},
	} {
		all := tc.s.Runs()
		for _, tt := range tests {
			f, err := CompileFilter(tt.filter)
			if err != nil {
				t.Fatalf("%s: %v", tt.filter, err)
			}
			if native := f.planOf().native != nil; native != tt.native {
				t.Errorf("%s: native %v, want %v", tt.filter, native, tt.native)
			}
			vmOnly, _ := CompileFilter(tt.filter)
			vmOnly.planOf().native = nil
			want := referenceQuery(t, all, f)
			for _, g := range []*Filter{f, vmOnly} {
				got, err := tc.s.QueryFilter(t.Context(), g)
				if err != nil {
					t.Fatalf("%s %s: %v", tc.name, tt.filter, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %s (native %v): %d cells / %d runs, the scan of every run %d / %d",
						tc.name, tt.filter, g.planOf().native != nil, len(got.Cells), got.Runs, len(want.Cells), want.Runs)
				}
			}
			if tc.name == "stored" && tt.filter == tests[0].filter && (want.Runs == 0 || want.Runs == len(all)) {
				t.Errorf("%s matches %d of %d runs: the table needs filters that match some runs of a cell", tt.filter, want.Runs, len(all))
			}
		}
	}
}

// TestConcurrentScansShareOneLoad runs scans of every kind (cells whose
// runs all match, some match, the VM's, the cells with their run IDs, the
// matching runs themselves) at
// once on a snapshot nothing is loaded of yet: each gets the answer a scan
// alone gets (run with -race: columns and run IDs are loaded once, shared).
func TestConcurrentScansShareOneLoad(t *testing.T) {
	s := storeOfSynthetic(t, 3_000)
	filters := []string{fullScanFilter, `ops_per_sec > 981000`, `rep == 2 || hit_rate == nil`, `len(run_id) > 11 && rep == 2`, `p50_ms < 0.3`}
	want := make([]Result, len(filters))
	for i, text := range filters {
		var err error
		if want[i], err = s.Query(t.Context(), text); err != nil {
			t.Fatal(err)
		}
	}
	wantCells := s.Cells()
	wantMatch, err := s.MatchRuns(t.Context(), `p50_ms < 0.3`)
	if err != nil {
		t.Fatal(err)
	}
	s.snap = newLazySnapshot(s, s.snap.lazy.head, s.manifest)
	errs := make(chan error, 4*len(filters)+8)
	var wg sync.WaitGroup
	for range 4 {
		for i, text := range filters {
			wg.Go(func() {
				got, err := s.Query(t.Context(), text)
				if err == nil && !reflect.DeepEqual(got, want[i]) {
					err = fmt.Errorf("%s answered differently beside other scans", text)
				}
				errs <- err
			})
		}
		wg.Go(func() {
			if !reflect.DeepEqual(s.Cells(), wantCells) {
				errs <- fmt.Errorf("the cells differ beside scans")
			}
		})
		wg.Go(func() {
			got, err := s.MatchRuns(t.Context(), `p50_ms < 0.3`)
			if err == nil && !reflect.DeepEqual(got, wantMatch) {
				err = fmt.Errorf("the matching runs differ beside scans")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
