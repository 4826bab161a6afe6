package knowledge

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
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

// copies counts the saved copies (their heads).
func (m mapSaved) copies() int {
	n := 0
	for k := range m {
		if strings.HasSuffix(k, "/head") {
			n++
		}
	}
	return n
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
	if distinct == 0 || saved.copies() != 1 {
		t.Fatalf("first load ran %d queries and saved %d copies", distinct, saved.copies())
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
	if cq.queries != distinct || saved.copies() != 2 {
		t.Errorf("after the runs changed: %d queries (want %d) and %d saved copies (want 2)", cq.queries, distinct, saved.copies())
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

// failingSaved reads like mapSaved and fails every write.
type failingSaved struct{ mapSaved }

var errNoWrite = errors.New("the disk refused the write")

func (failingSaved) Set(context.Context, string, []byte, time.Duration) error { return errNoWrite }

// TestLoadReportsAFailedSaveAndAReadOnlyLoadWritesNothing checks that a
// write error on the saved figures fails the load (it was discarded, and
// every later process recomputed them), and that a read-only load
// computes what is missing without writing.
func TestLoadReportsAFailedSaveAndAReadOnlyLoadWritesNothing(t *testing.T) {
	st := openStore(t)
	if _, err := LoadWith(t.Context(), st, Options{Saved: failingSaved{mapSaved{}}}); !errors.Is(err, errNoWrite) {
		t.Errorf("a failed save: the load returned %v, want the write's error", err)
	}
	if _, err := LoadWith(t.Context(), st, Options{Saved: failingSaved{mapSaved{}}, ReadOnly: true}); err != nil {
		t.Errorf("a read-only load failed: %v", err)
	}
	saved := mapSaved{}
	if _, err := LoadWith(t.Context(), st, Options{Saved: saved}); err != nil {
		t.Fatal(err)
	}
	if !HasSaved(t.Context(), saved, st) {
		t.Fatal("after a load that saved, HasSaved is false")
	}
	if _, err := LoadWith(t.Context(), st, Options{Saved: failingSaved{saved}}); err != nil {
		t.Errorf("a load with every figure saved wrote anyway: %v", err)
	}
}

// TestSavedFiguresDoNotGrowWithTheRuns loads the base over stores holding
// the embedded session-1 runs 3 and 24 times over (more repetitions of the
// same cells), saving the figures in the store's own KV, and checks that
// the saved figures keep their size (each cell names at most
// analytics.ShownRunIDs runs; Reps counts them all) and that no value the
// store holds exceeds 1 MiB. Before, the figures were one value holding
// every run ID: about 6 MB at 60 times, so about 2.4 MB at 24, still
// twice the limit (24 rather than 60 copies: the same check in a third
// of the time under the race detector).
func TestSavedFiguresDoNotGrowWithTheRuns(t *testing.T) {
	copies := []int{3, 24}
	sizes := make([]int, len(copies))
	for i, n := range copies {
		st := openStore(t)
		if _, err := st.Import(t.Context(), "repeated.csv", repeatedSession1(t, n-1), 1); err != nil {
			t.Fatal(err)
		}
		counted := &countingSets{Saved: st.KV("figures")}
		b, err := LoadWith(t.Context(), st, Options{Saved: counted})
		if err != nil {
			t.Fatal(err)
		}
		sizes[i] = counted.bytes
		for _, c := range b.claims {
			for _, m := range c.Measures {
				if m.FromRuns() && m.Across == "" && (len(m.Cell.RunIDs) > analytics.ShownRunIDs || m.Cell.Session == 1 && m.Runs() < n) {
					t.Errorf("%d copies: %s: measure %s names %d runs of %d", n, c.ID, m.Name, len(m.Cell.RunIDs), m.Runs())
				}
			}
		}
		key, size, err := st.LargestValue(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if size > 1<<20 {
			t.Errorf("%d copies: the value of %q is %d bytes, over 1 MiB", n, key, size)
		}
	}
	// The run IDs of later copies are a digit longer; nothing else may grow.
	if sizes[1] > sizes[0]*21/20 {
		t.Errorf("saved figures: %d bytes over %d copies of the runs, %d bytes over %d", sizes[0], copies[0], sizes[1], copies[1])
	}
}

// countingSets counts the bytes written through it.
type countingSets struct {
	Saved
	bytes int
}

func (c *countingSets) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	c.bytes += len(value)
	return c.Saved.Set(ctx, key, value, ttl)
}

// repeatedSession1 is the embedded session-1 capture file's rows n times
// over, each copy with its own run IDs: more repetitions of the same cells.
func repeatedSession1(t *testing.T, n int) io.Reader {
	t.Helper()
	raw, err := analytics.DefaultDataset()[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(rows[0]); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for _, r := range rows[1:] {
			r = slices.Clone(r)
			r[0] += "-copy" + strconv.Itoa(i)
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.Flush()
	return &buf
}
