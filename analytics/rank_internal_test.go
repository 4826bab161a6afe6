package analytics

import (
	"reflect"
	"testing"
)

// rankByCopy is the full path RankRuns replaces: every matching run
// copied, those with a value kept, stable-sorted by value, then ID.
func rankByCopy(t testing.TB, s *Store, filter string, r RunRanking) RankedRuns {
	t.Helper()
	runs, err := s.MatchRuns(t.Context(), filter)
	if err != nil {
		t.Fatal(err)
	}
	return rankSorted(runs, r)
}

// TestRankRunsRanksLikeSortingEveryMatch ranks the runs of filters that
// match all, some, a few and none, on float, optional and whole columns,
// both ways, with limits that cut through runs of equal value (the
// synthetic ops_per_core and kb_per_sec are one value for every run, so
// the IDs alone decide), through RankRuns and through copying and sorting
// every match: on a stored store read over its columns (several chunks),
// on the embedded dataset and on a snapshot built in memory.
func TestRankRunsRanksLikeSortingEveryMatch(t *testing.T) {
	below := func(x float64) func(float64) bool { return func(v float64) bool { return v < x } }
	above := func(x float64) func(float64) bool { return func(v float64) bool { return v > x } }
	tests := []struct {
		name   string
		filter string
		r      RunRanking
	}{
		{"every run, highest p99", `true`, RunRanking{Field: "p99_ms", Limit: 5}},
		{"every run, lowest p99", `true`, RunRanking{Field: "p99_ms", Ascending: true, Limit: 5}},
		{"a threshold most runs pass", `true`, RunRanking{Field: "p99_ms", Ascending: true, Limit: 5, Keep: below(2.9)}},
		{"a threshold half pass", `p50_ms < 0.6`, RunRanking{Field: "p50_ms", Limit: 7, Keep: below(0.6)}},
		{"a threshold few pass", `p99_ms > 2.9`, RunRanking{Field: "p99_ms", Limit: 5, Keep: above(2.9)}},
		{"a threshold none pass", `true`, RunRanking{Field: "p99_ms", Limit: 5, Keep: above(1e9)}},
		{"a filter nothing matches", `p99_ms > 1e9`, RunRanking{Field: "p99_ms", Limit: 5}},
		{"one value for every run, highest", `true`, RunRanking{Field: "ops_per_core", Limit: 5}},
		{"one value for every run, lowest", `engine != "redis"`, RunRanking{Field: "kb_per_sec", Ascending: true, Limit: 3}},
		{"ties at the limit", `true`, RunRanking{Field: "p50_ms", Ascending: true, Limit: 6}},
		{"runs without a hit rate", `true`, RunRanking{Field: "hit_rate", Ascending: true, Limit: 4}},
		{"hit rate below 100%", `true`, RunRanking{Field: "hit_rate", Ascending: true, Limit: 5, Keep: below(1)}},
		{"a whole column", `cores >= 16`, RunRanking{Field: "test_time_s", Limit: 5}},
		{"a whole column, lowest", `true`, RunRanking{Field: "rep", Ascending: true, Limit: 8}},
		{"pinned cells", `engine == "dragonfly" && cores == 48`, RunRanking{Field: "ops_per_sec", Limit: 5}},
		{"a filter the VM evaluates", `p50_ms * 2 > 1`, RunRanking{Field: "p999_ms", Limit: 5}},
		{"a limit above the matches", `engine == "garnet" && rep == 1`, RunRanking{Field: "p99_ms", Limit: 1_000_000}},
		{"no limit", `true`, RunRanking{Field: "p99_ms", Limit: 0, Keep: below(2)}},
	}
	stores := columnPathStores(t)
	stored := stores[0].s
	for _, tc := range stores {
		for _, tt := range tests {
			want := rankByCopy(t, tc.s, tt.filter, tt.r)
			got, err := tc.s.RankRuns(t.Context(), tt.filter, tt.r)
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, tt.name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: kept %d, top %v; sorting every match kept %d, top %v", tc.name, tt.name, got.Kept, runIDsOf(got.Top), want.Kept, runIDsOf(want.Top))
			}
		}
	}
	if stored.current().runsLoaded() {
		t.Error("the stored store's runs were all loaded: its rankings read no run from Badger")
	}
}

// TestRankRunsRefusesAFieldThatIsNotANumber: a text column or an unknown
// name is a caller's mistake, never "no run has a value".
func TestRankRunsRefusesAFieldThatIsNotANumber(t *testing.T) {
	s := openDefault(t)
	for _, field := range []string{"note", "run_id", "engine", "nosuch", ""} {
		if _, err := s.RankRuns(t.Context(), `true`, RunRanking{Field: field, Limit: 3}); err == nil {
			t.Errorf("%q: ranked", field)
		}
	}
}

func runIDsOf(runs []Run) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.ID
	}
	return out
}

// namedStore is a store a test runs on, by what it stands for.
type namedStore struct {
	name string
	s    *Store
}

// columnPathStores are the stores a search over the columns is checked
// on, the stored one first: a store on disk read over its columns (in
// several chunks: columnChunkRuns is lowered while it is written), the
// embedded dataset and a snapshot built in memory.
func columnPathStores(t *testing.T) []namedStore {
	t.Helper()
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	columnChunkRuns = 1000
	return []namedStore{
		{"stored", storeOfSynthetic(t, 4_500)},
		{"embedded", openDefault(t)},
		{"in memory", &Store{snap: newSnapshot(syntheticRuns(4_500)), filters: newFilterCache()}},
	}
}
