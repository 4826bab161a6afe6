package knowledge

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Saved keeps the results of the base's counter-queries between processes
// (analytics.KV satisfies it). Load reads them back when the runs have not
// changed since they were saved, so a process computes its figures once
// per store fingerprint rather than once per start.
type Saved interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// Fingerprinted is a Querier that names the runs it holds: the fingerprint
// changes whenever the runs do (analytics.Store satisfies it).
type Fingerprinted interface {
	Querier
	Fingerprint() string
}

// Options tune LoadWith.
type Options struct {
	// Saved, when set and the Querier is Fingerprinted, keeps the
	// counter-query results under the store's fingerprint.
	Saved Saved
}

// savedVersion is part of the key the results are saved under; raise it
// when the meaning of a saved result changes (the aggregation, the Result
// shape), so an older copy is recomputed rather than trusted.
const savedVersion = "v1"

// savedTTL bounds how long a saved copy outlives the runs it belongs to: an
// import changes the fingerprint, and the old copy is then never read again.
const savedTTL = 30 * 24 * time.Hour

// queryMemo runs each distinct counter-query once per Load (the data files
// repeat the same cells across claims, findings and notes) and hands every
// caller its own copy of the result.
type queryMemo struct {
	q     Querier
	saved savedResults
	// computed counts the results run against the store rather than read
	// from a saved copy; nonzero means the saved copy needs writing.
	computed int
}

// savedResults is what a saved copy holds: whole results for the measures,
// and only the two counts for the session and engine totals (their results
// hold every cell, which nothing else reads).
type savedResults struct {
	Results map[string]analytics.Result `json:"results"`
	Counts  map[string]runCount         `json:"counts"`
}

// runCount is how many runs and cells a filter matches.
type runCount struct {
	Runs  int `json:"runs"`
	Cells int `json:"cells"`
}

// memoOf returns q as a memo, wrapping it unless it is one already.
func memoOf(q Querier) *queryMemo {
	if m, ok := q.(*queryMemo); ok {
		return m
	}
	return &queryMemo{q: q, saved: savedResults{
		Results: map[string]analytics.Result{}, Counts: map[string]runCount{}}}
}

// Query implements Querier. Errors are not remembered: a failing
// counter-query fails the load anyway.
func (m *queryMemo) Query(ctx context.Context, filter string) (analytics.Result, error) {
	if r, ok := m.saved.Results[filter]; ok {
		return cloneResult(r), nil
	}
	r, err := m.q.Query(ctx, filter)
	if err != nil {
		return r, err
	}
	m.saved.Results[filter] = r
	m.computed++
	return cloneResult(r), nil
}

// count returns how many runs and cells the filter matches.
func (m *queryMemo) count(ctx context.Context, filter string) (runCount, error) {
	if c, ok := m.saved.Counts[filter]; ok {
		return c, nil
	}
	r, err := m.q.Query(ctx, filter)
	if err != nil {
		return runCount{}, err
	}
	c := runCount{Runs: r.Runs, Cells: len(r.Cells)}
	m.saved.Counts[filter] = c
	m.computed++
	return c, nil
}

// savedKey is where the results for the querier's runs are kept; "" when
// the querier cannot name its runs.
func savedKey(q Querier) string {
	fq, ok := q.(Fingerprinted)
	if !ok || fq.Fingerprint() == "" {
		return ""
	}
	return savedVersion + "/" + fq.Fingerprint()
}

// HasSaved says whether saved holds the figures for the runs q holds, so
// that LoadWith with it computes none and writes nothing.
func HasSaved(ctx context.Context, saved Saved, q Querier) bool {
	key := savedKey(q)
	if saved == nil || key == "" {
		return false
	}
	_, ok, err := saved.Get(ctx, key)
	return ok && err == nil
}

// restore fills the memo from a saved copy. A missing, unreadable or
// damaged copy is not an error: the figures are computed again.
func (m *queryMemo) restore(ctx context.Context, saved Saved, key string) {
	if saved == nil || key == "" {
		return
	}
	b, ok, err := saved.Get(ctx, key)
	if err != nil || !ok {
		return
	}
	var copied savedResults
	if json.Unmarshal(b, &copied) != nil || copied.Results == nil || copied.Counts == nil {
		return
	}
	m.saved = copied
}

// save writes the results when some were computed. A failed write (a full
// disk, a read-only store) costs only the next start its speed.
func (m *queryMemo) save(ctx context.Context, saved Saved, key string) {
	if saved == nil || key == "" || m.computed == 0 {
		return
	}
	b, err := json.Marshal(m.saved)
	if err != nil {
		return
	}
	_ = saved.Set(ctx, key, b, savedTTL)
}

func cloneResult(r analytics.Result) analytics.Result {
	r.Cells = slices.Clone(r.Cells)
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.HitRate != nil {
			h := *c.HitRate
			c.HitRate = &h
		}
		c.RunIDs = slices.Clone(c.RunIDs)
	}
	return r
}
