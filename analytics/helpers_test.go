package analytics

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// openMemory opens an empty in-memory store closed at the end of the test.
func openMemory(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(tb.Context(), Options{InMemory: true})
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
	return s
}

// openDefault opens an in-memory store holding the embedded dataset.
func openDefault(tb testing.TB) *Store {
	tb.Helper()
	s := openMemory(tb)
	if _, err := s.ImportDefault(tb.Context()); err != nil {
		tb.Fatalf("import default: %v", err)
	}
	return s
}

// sessionOneRecords returns the embedded session-1 CSV as records, header first.
func sessionOneRecords(tb testing.TB) [][]string {
	tb.Helper()
	b, err := DefaultDataset()[0].Open()
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// encodeCSV writes records as CSV text.
func encodeCSV(tb testing.TB, recs [][]string) string {
	tb.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(recs); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// column returns the index of a column in the header.
func column(tb testing.TB, recs [][]string, name string) int {
	tb.Helper()
	for i, c := range recs[0] {
		if c == name {
			return i
		}
	}
	tb.Fatalf("no column %q", name)
	return -1
}

// state captures what a store holds, to prove an operation changed nothing.
type state struct {
	runs        int
	fingerprint string
	stored      int // runs read back from Badger itself
}

func stateOf(tb testing.TB, s *Store) state {
	tb.Helper()
	stored := 0
	err := s.scanRuns(tb.Context(), func(_, _ []byte, _ *Run) error { stored++; return nil })
	if err != nil {
		tb.Fatal(err)
	}
	return state{runs: len(s.Runs()), fingerprint: s.Fingerprint(), stored: stored}
}
