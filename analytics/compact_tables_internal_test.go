package analytics

import (
	"bytes"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// levelsOf is how many tables each level of db holds.
func levelsOf(db *badger.DB) map[int]int {
	levels := map[int]int{}
	for _, t := range db.Tables() {
		levels[t.Level]++
	}
	return levels
}

func TestAnImportProcessLeavesItsTablesInOneLevel(t *testing.T) {
	defer func(n int) { compactFromTables = n }(compactFromTables)
	compactFromTables = 1
	dir := t.TempDir()
	s, err := Open(t.Context(), Options{Dir: dir, DeferLoad: true, ForImport: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 100_000 // enough for the import's small tables to fill two levels
	if testing.Short() {
		t.Skip("imports 100,000 runs")
	}
	var csv bytes.Buffer
	writeSyntheticCSV(t, &csv, n)
	if _, err := s.Import(t.Context(), "synthetic.csv", &csv, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Sync(); err != nil {
		t.Fatal(err)
	}
	if levels := levelsOf(s.db); len(levels) < 2 {
		t.Fatalf("tables by level after importing %d runs: %v; the test needs more than one level", n, levels)
	}
	want, err := s.Query(t.Context(), fullScanFilter)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if levels := levelsOf(s.db); len(levels) != 1 {
		t.Errorf("tables by level after the import process closed: %v, want one level", levels)
	}
	got, err := s.Query(t.Context(), fullScanFilter)
	if err != nil {
		t.Fatal(err)
	}
	if got.Runs != want.Runs || len(got.Cells) != len(want.Cells) || got.Runs != n {
		t.Errorf("after compaction: %d runs in %d cells, before: %d in %d (want %d runs)",
			got.Runs, len(got.Cells), want.Runs, len(want.Cells), n)
	}
}
