package knowledge

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// countingQuerier counts the queries that reach the store and names a
// fingerprint the test controls.
type countingQuerier struct {
	q       Querier
	fp      string
	queries int
}

func (c *countingQuerier) Query(ctx context.Context, filter string) (analytics.Result, error) {
	c.queries++
	return c.q.Query(ctx, filter)
}

func (c *countingQuerier) Fingerprint() string { return c.fp }

// mapSaved is an in-memory Saved.
type mapSaved map[string][]byte

func (m mapSaved) Get(_ context.Context, key string) ([]byte, bool, error) {
	b, ok := m[key]
	return b, ok, nil
}

func (m mapSaved) Set(_ context.Context, key string, value []byte, _ time.Duration) error {
	m[key] = append([]byte(nil), value...)
	return nil
}

// TestLoadRunsEachDistinctQueryOnceAndReusesTheSavedFiguresPerFingerprint
// checks that a load runs each distinct counter-query once, that a second
// load of the same runs reads the saved figures instead of querying and
// builds the same base, and that changed runs (another fingerprint) or a
// damaged saved copy are computed again.
func TestLoadRunsEachDistinctQueryOnceAndReusesTheSavedFiguresPerFingerprint(t *testing.T) {
	st := openStore(t)
	saved := mapSaved{}
	cq := &countingQuerier{q: st, fp: st.Fingerprint()}
	first, err := LoadWith(t.Context(), cq, Options{Saved: saved})
	if err != nil {
		t.Fatal(err)
	}
	distinct := cq.queries
	if distinct == 0 || len(saved) != 1 {
		t.Fatalf("first load ran %d queries and saved %d copies", distinct, len(saved))
	}
	plain, err := Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, plain) {
		t.Fatal("a load through the memo differs from a plain load")
	}

	cq.queries = 0
	second, err := LoadWith(t.Context(), cq, Options{Saved: saved})
	if err != nil {
		t.Fatal(err)
	}
	if cq.queries != 0 {
		t.Errorf("a load with saved figures for the same runs ran %d queries", cq.queries)
	}
	if !reflect.DeepEqual(first, second) {
		t.Error("the base built from saved figures differs from the computed one")
	}

	cq.fp, cq.queries = "changed-runs", 0
	if _, err := LoadWith(t.Context(), cq, Options{Saved: saved}); err != nil {
		t.Fatal(err)
	}
	if cq.queries != distinct || len(saved) != 2 {
		t.Errorf("after the runs changed: %d queries (want %d) and %d saved copies (want 2)", cq.queries, distinct, len(saved))
	}

	for k := range saved {
		saved[k] = []byte(`{"results": {"session == 1": {"cells": [`)
	}
	cq.queries = 0
	damaged, err := LoadWith(t.Context(), cq, Options{Saved: saved})
	if err != nil {
		t.Fatalf("a damaged saved copy failed the load: %v", err)
	}
	if cq.queries != distinct || !reflect.DeepEqual(first, damaged) {
		t.Errorf("a damaged saved copy: %d queries (want %d), same base %v", cq.queries, distinct, reflect.DeepEqual(first, damaged))
	}
}
