package analytics

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// tallyByCopy is the path TallyRuns replaces: every matching run copied
// (in ID order) and its fields counted.
func tallyByCopy(t testing.TB, s *Store, filter string, r RunTally) TalliedRuns {
	t.Helper()
	runs, err := s.MatchRuns(t.Context(), filter)
	if err != nil {
		t.Fatal(err)
	}
	out := TalliedRuns{Runs: len(runs), Values: map[string][]ValueCount{}}
	for _, run := range runs[:min(len(runs), max(r.IDs, 0))] {
		out.IDs = append(out.IDs, run.ID)
	}
	for _, field := range r.Fields {
		counts := map[int]int{}
		texts := map[string]int{}
		for _, run := range runs {
			if v, ok := run.Number(field); ok {
				counts[int(v)]++
			} else {
				texts[fieldsOf(&run).RunID]++
			}
		}
		var vs []ValueCount
		for _, v := range slices.Sorted(maps.Keys(counts)) {
			vs = append(vs, ValueCount{Value: strconv.Itoa(v), Number: v, Runs: counts[v]})
		}
		for _, v := range slices.Sorted(maps.Keys(texts)) {
			vs = append(vs, ValueCount{Value: v, Runs: texts[v]})
		}
		out.Values[field] = vs
	}
	return out
}

// TestTallyRunsCountsLikeCopyingEveryMatch tallies the runs of filters
// that match all, some, a few and none, pinned and evaluated by the VM,
// with ID limits below, at and above the matches, through TallyRuns and
// through copying every match: on a stored store read over its columns
// (several chunks), on the embedded dataset and on a snapshot built in
// memory.
func TestTallyRunsCountsLikeCopyingEveryMatch(t *testing.T) {
	fields := []string{"test_time_s", "client_threads", "client_conns", "rep", "run_id"}
	tests := []struct {
		name   string
		filter string
		ids    int
	}{
		{"every run", `true`, 7},
		{"one session", `session == 1`, 500},
		{"pinned cells", `engine == "dragonfly" && cores == 48`, 3},
		{"a field condition", `p50_ms < 0.6`, 10},
		{"a filter the VM evaluates", `p50_ms * 2 > 1`, 4},
		{"more IDs than matches", `engine == "garnet" && rep == 1`, 1_000_000},
		{"no IDs", `rep == 2`, 0},
		{"a filter nothing matches", `p99_ms > 1e9`, 5},
	}
	stores := columnPathStores(t)
	stored := stores[0].s
	for _, tc := range stores {
		for _, tt := range tests {
			r := RunTally{Fields: fields, IDs: tt.ids}
			want := tallyByCopy(t, tc.s, tt.filter, r)
			got, err := tc.s.TallyRuns(t.Context(), tt.filter, r)
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, tt.name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: tallied %#v; copying every match tallied %#v", tc.name, tt.name, got, want)
			}
		}
	}
	if stored.current().runsLoaded() {
		t.Error("the stored store's runs were all loaded: its tallies read no run from Badger")
	}
}

// TestTallyRunsRefusesAFieldThatIsNotAColumnOfWholesOrText: a float
// column or an unknown name is a caller's mistake, never "no run has a
// value".
func TestTallyRunsRefusesAFieldThatIsNotAColumnOfWholesOrText(t *testing.T) {
	s := openDefault(t)
	for _, field := range []string{"p99_ms", "hit_rate", "engine", "nosuch", ""} {
		if _, err := s.TallyRuns(t.Context(), `true`, RunTally{Fields: []string{field}, IDs: 3}); err == nil {
			t.Errorf("%q: tallied", field)
		}
	}
}
