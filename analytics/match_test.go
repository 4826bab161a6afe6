package analytics_test

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

func TestMatchRunsReturnsEachRepetitionOfTheCellsAQueryAggregates(t *testing.T) {
	st := analyticstest.OpenStore(t)
	const filter = `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`
	res, err := st.Query(t.Context(), filter)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.MatchRuns(t.Context(), filter)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != res.Runs || len(runs) == 0 {
		t.Fatalf("%d runs, the query counted %d", len(runs), res.Runs)
	}
	for _, r := range runs {
		if r.Engine != "dragonfly" || r.Cores != 48 {
			t.Errorf("run %s does not match the filter", r.ID)
		}
	}
	if _, err := st.MatchRuns(t.Context(), "engine =="); err == nil {
		t.Error("a broken filter was accepted")
	}
}
