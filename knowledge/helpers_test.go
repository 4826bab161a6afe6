package knowledge

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

// loadBase loads the embedded knowledge base against the embedded dataset.
// (knowledgetest.Load does the same for other packages; it cannot be used
// here without an import cycle.)
func loadBase(tb testing.TB) *Base {
	tb.Helper()
	b, err := Load(tb.Context(), analyticstest.OpenStore(tb))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return b
}

// openStore is the shared store for tests that load altered data.
func openStore(tb testing.TB) *analytics.Store {
	tb.Helper()
	return analyticstest.OpenStore(tb)
}
