// Package analyticstest gives other packages' tests a ready store: an
// in-memory analytics.Store holding the embedded dataset.
package analyticstest

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// OpenStore opens an in-memory store, imports the embedded dataset (478
// runs) and closes the store when the test ends. It fails the test on any
// error.
func OpenStore(tb testing.TB) *analytics.Store {
	tb.Helper()
	s, err := analytics.Open(tb.Context(), analytics.Options{InMemory: true})
	if err != nil {
		tb.Fatalf("opening in-memory store: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("closing store: %v", err)
		}
	})
	if _, err := s.ImportDefault(tb.Context()); err != nil {
		tb.Fatalf("importing the embedded dataset: %v", err)
	}
	return s
}
