package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
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
	// ReadOnly reads saved figures but never writes them: a process that
	// only reads its store (ask) computes missing figures for itself.
	ReadOnly bool
}

// savedVersion is part of the key the results are saved under; raise it
// when the meaning of a saved result changes (the aggregation, the Result
// shape), so an older copy is recomputed rather than trusted. v2: cells
// carry at most analytics.ShownRunIDs run IDs, saved in bounded chunks.
const savedVersion = "v2"

// savedTTL bounds how long a saved copy outlives the runs it belongs to: an
// import changes the fingerprint, and the old copy is then never read again.
const savedTTL = 30 * 24 * time.Hour

// Saved figures are kept as chunks of at most savedChunkBytes (an entry
// larger than that alone in its chunk, and none over maxSavedValue) and a
// head naming how many, written last:
//
//	v2/{fingerprint}/head      {"chunks": n}
//	v2/{fingerprint}/{i}       savedResults, for i in [0, n)
//
// No value grows with the number of runs: a result holds the cells its
// filter selects, each with at most analytics.ShownRunIDs run IDs.
const (
	savedChunkBytes = 64 << 10
	maxSavedValue   = 1 << 20
)

// ErrFigureTooLarge is returned when one counter-query's saved result
// would exceed the bound on a stored value.
var ErrFigureTooLarge = errors.New("a saved figure exceeds the bound on a stored value")

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

// savedHead is the head of a saved copy.
type savedHead struct {
	Chunks int `json:"chunks"`
}

// counter is a Querier that counts a filter's runs and cells without
// building its result (whose run IDs, for a whole session, grow with the
// store).
type counter interface {
	CountRuns(ctx context.Context, filter string) (runs, cells int, err error)
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
// counter-query fails the load anyway. Cells keep at most
// analytics.ShownRunIDs run IDs (Reps counts them all), whether computed
// or read from a saved copy, so both give the same base.
func (m *queryMemo) Query(ctx context.Context, filter string) (analytics.Result, error) {
	if r, ok := m.saved.Results[filter]; ok {
		return cloneResult(r), nil
	}
	r, err := m.q.Query(ctx, filter)
	if err != nil {
		return r, err
	}
	shown := r
	shown.Cells = make([]analytics.Cell, len(r.Cells))
	for i, c := range r.Cells {
		shown.Cells[i] = c.Shown()
	}
	m.saved.Results[filter] = shown
	m.computed++
	return cloneResult(shown), nil
}

// count returns how many runs and cells the filter matches.
func (m *queryMemo) count(ctx context.Context, filter string) (runCount, error) {
	if c, ok := m.saved.Counts[filter]; ok {
		return c, nil
	}
	var c runCount
	if cq, ok := m.q.(counter); ok {
		runs, cells, err := cq.CountRuns(ctx, filter)
		if err != nil {
			return runCount{}, err
		}
		c = runCount{Runs: runs, Cells: cells}
	} else {
		r, err := m.q.Query(ctx, filter)
		if err != nil {
			return runCount{}, err
		}
		c = runCount{Runs: r.Runs, Cells: len(r.Cells)}
	}
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
	_, ok, err := saved.Get(ctx, key+"/head")
	return ok && err == nil
}

// restore fills the memo from a saved copy. A missing, unreadable or
// damaged copy is not an error: the figures are computed again.
func (m *queryMemo) restore(ctx context.Context, saved Saved, key string) {
	if saved == nil || key == "" {
		return
	}
	b, ok, err := saved.Get(ctx, key+"/head")
	if err != nil || !ok {
		return
	}
	var head savedHead
	if json.Unmarshal(b, &head) != nil || head.Chunks < 1 {
		return
	}
	all := savedResults{Results: map[string]analytics.Result{}, Counts: map[string]runCount{}}
	for i := range head.Chunks {
		b, ok, err := saved.Get(ctx, key+"/"+strconv.Itoa(i))
		if err != nil || !ok {
			return
		}
		var chunk savedResults
		if json.Unmarshal(b, &chunk) != nil || chunk.Results == nil || chunk.Counts == nil {
			return
		}
		maps.Copy(all.Results, chunk.Results)
		maps.Copy(all.Counts, chunk.Counts)
	}
	m.saved = all
}

// save writes the results when some were computed: the chunks, then the
// head that makes them a copy. A failed write is an error.
func (m *queryMemo) save(ctx context.Context, saved Saved, key string) error {
	if saved == nil || key == "" || m.computed == 0 {
		return nil
	}
	chunks, err := m.chunks()
	if err != nil {
		return err
	}
	for i, c := range chunks {
		if err := saved.Set(ctx, key+"/"+strconv.Itoa(i), c, savedTTL); err != nil {
			return fmt.Errorf("saving the knowledge figures: %w", err)
		}
	}
	head, err := json.Marshal(savedHead{Chunks: len(chunks)})
	if err != nil {
		return err
	}
	if err := saved.Set(ctx, key+"/head", head, savedTTL); err != nil {
		return fmt.Errorf("saving the knowledge figures: %w", err)
	}
	m.computed = 0
	return nil
}

// chunks encodes the memo's results as savedResults values of about
// savedChunkBytes each, in filter order.
func (m *queryMemo) chunks() ([][]byte, error) {
	var out [][]byte
	cur := savedResults{Results: map[string]analytics.Result{}, Counts: map[string]runCount{}}
	size := 0
	flush := func() error {
		if len(cur.Results)+len(cur.Counts) == 0 {
			return nil
		}
		b, err := json.Marshal(cur)
		if err != nil {
			return fmt.Errorf("encoding the knowledge figures: %w", err)
		}
		out = append(out, b)
		cur = savedResults{Results: map[string]analytics.Result{}, Counts: map[string]runCount{}}
		size = 0
		return nil
	}
	add := func(filter string, v any, put func()) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding the knowledge figures of %q: %w", filter, err)
		}
		n := len(b) + len(filter) + 8
		if n > maxSavedValue {
			return fmt.Errorf("filter %q: %d bytes: %w", filter, n, ErrFigureTooLarge)
		}
		if size > 0 && size+n > savedChunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
		put()
		size += n
		return nil
	}
	for _, f := range slices.Sorted(maps.Keys(m.saved.Results)) {
		if err := add(f, m.saved.Results[f], func() { cur.Results[f] = m.saved.Results[f] }); err != nil {
			return nil, err
		}
	}
	for _, f := range slices.Sorted(maps.Keys(m.saved.Counts)) {
		if err := add(f, m.saved.Counts[f], func() { cur.Counts[f] = m.saved.Counts[f] }); err != nil {
			return nil, err
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
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
