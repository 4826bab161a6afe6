// Package knowledgetest gives other packages' tests a loaded knowledge
// base, its figures computed from an in-memory store holding the embedded
// dataset.
package knowledgetest

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// Load opens an in-memory store (analyticstest.OpenStore) and loads the
// embedded knowledge base against it, failing the test on any error.
func Load(tb testing.TB) *knowledge.Base {
	tb.Helper()
	kb, err := knowledge.Load(tb.Context(), analyticstest.OpenStore(tb))
	if err != nil {
		tb.Fatalf("loading the knowledge base: %v", err)
	}
	return kb
}
