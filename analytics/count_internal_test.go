package analytics

import (
	"testing"
)

// TestCountRunsIsTheQuerysCountsWithoutReadingRunIDs counts filters of
// every shape on a snapshot nothing is loaded of (pinned cell filters are
// counted from the cell records, the others through Query) and after
// its cells are loaded: the counts are the query's, and counting a whole
// session decodes no cell's run IDs.
func TestCountRunsIsTheQuerysCountsWithoutReadingRunIDs(t *testing.T) {
	s := storeOfSynthetic(t, 3_000)
	filters := []string{
		`session == 1`, `engine == "dragonfly"`, `engine == "dragonfly" && cores > 8`,
		`engine == "nosuch"`, `cores == 48 || engine == "redis"`, `p50_ms < 0.3`, `session == 1 && p99_ms < 1`,
	}
	want := make([]Result, len(filters))
	for i, text := range filters {
		var err error
		if want[i], err = s.Query(t.Context(), text); err != nil {
			t.Fatal(err)
		}
	}
	if len(want[0].Cells) == 0 || want[3].Runs != 0 {
		t.Fatalf("session 1: %d cells; no such engine: %d runs: the synthetic store is not what the test needs", len(want[0].Cells), want[3].Runs)
	}
	for _, loaded := range []bool{false, true} {
		s.snap = newLazySnapshot(s, s.snap.lazy.head, s.manifest)
		if loaded {
			if err := s.snap.ensureCells(); err != nil {
				t.Fatal(err)
			}
		}
		for i, text := range filters {
			runs, cells, err := s.CountRuns(t.Context(), text)
			if err != nil || runs != want[i].Runs || cells != len(want[i].Cells) {
				t.Errorf("loaded %v: CountRuns(%s) = %d runs, %d cells, %v; Query: %d runs, %d cells",
					loaded, text, runs, cells, err, want[i].Runs, len(want[i].Cells))
			}
			if !loaded && i == 0 {
				noIDsDecoded(t, s)
			}
		}
	}
	if _, _, err := s.CountRuns(t.Context(), `session ==`); err == nil {
		t.Error("CountRuns of a filter that does not compile gave no error")
	}
}

// noIDsDecoded fails the test when a chunk the snapshot read has a cell
// whose run IDs were decoded.
func noIDsDecoded(t *testing.T, s *Store) {
	t.Helper()
	l := s.snap.lazy
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.chunks) == 0 {
		t.Fatal("counting read no chunk of cell records")
	}
	for i, chunk := range l.chunks {
		for j := range chunk.ids {
			if chunk.ids[j].ids != nil {
				t.Fatalf("counting decoded the run IDs of cell %d of chunk %d", j, i)
			}
		}
	}
}
