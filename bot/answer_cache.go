package bot

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// DefaultAnswerCacheSize is how many composed answers a Bot keeps when
// Config.AnswerCacheSize is 0.
const DefaultAnswerCacheSize = 1024

// Fingerprinted is a Querier that names the runs it holds; the fingerprint
// changes whenever the runs do (*analytics.Store satisfies it). Only a Bot
// whose Querier is Fingerprinted caches answers: without a fingerprint an
// import could not be told apart from the runs before it.
type Fingerprinted interface {
	Fingerprint() string
}

// answerCache keeps composed answers by (data fingerprint, plan). The plan
// is everything composition reads from a message and its thread (the
// inherited slots, the previous plan's intent for a follow-up are already
// in it), so an equal plan over equal runs composes an equal answer. An
// import changes the fingerprint: the first lookup after it drops every
// entry of the old runs.
type answerCache struct {
	lru *lru.Cache[string, Answer]

	mu sync.Mutex
	fp string // the fingerprint the entries belong to
}

// newAnswerCache returns a cache of size entries, or nil (no caching) for
// a negative size.
func newAnswerCache(size int) *answerCache {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultAnswerCacheSize
	}
	c, err := lru.New[string, Answer](size)
	if err != nil { // only for a size ≤ 0
		panic(err)
	}
	return &answerCache{lru: c}
}

// key is the plan's canonical form under the fingerprint; "" when the plan
// cannot be encoded (it then is composed every time).
func (c *answerCache) key(fp string, p planner.Plan) string {
	b, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	return fp + "\x00" + string(b)
}

// sameRuns notes the current fingerprint and empties the cache when it
// changed since the entries were made.
func (c *answerCache) sameRuns(fp string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fp != fp {
		c.lru.Purge()
		c.fp = fp
	}
}

// answerFor composes the plan's answer, or returns a copy of the one
// composed for an equal plan over the same runs. Errors are never cached.
func (b *Bot) answerFor(ctx context.Context, p planner.Plan) (Answer, error) {
	fq, ok := b.cfg.Querier.(Fingerprinted)
	if b.answers == nil || !ok {
		return b.compose.Compose(ctx, p)
	}
	fp := fq.Fingerprint()
	b.answers.sameRuns(fp)
	key := b.answers.key(fp, p)
	if key == "" {
		return b.compose.Compose(ctx, p)
	}
	if a, ok := b.answers.lru.Get(key); ok {
		return cloneAnswer(a), nil
	}
	a, err := b.compose.Compose(ctx, p)
	if err != nil || ctx.Err() != nil {
		return a, err
	}
	b.answers.lru.Add(key, cloneAnswer(a))
	return a, nil
}

// cloneAnswer returns a copy of a that shares no memory with it, so a
// caller may change its answer without changing the cached one.
func cloneAnswer(a Answer) Answer {
	a.Body = slices.Clone(a.Body)
	if a.Table != nil {
		t := *a.Table
		t.Columns = slices.Clone(t.Columns)
		t.Rows = slices.Clone(t.Rows)
		for i := range t.Rows {
			t.Rows[i] = slices.Clone(t.Rows[i])
		}
		a.Table = &t
	}
	a.Rows = cloneRows(a.Rows)
	a.Nearest = cloneRows(a.Nearest)
	if a.Claim != nil {
		c := *a.Claim
		a.Claim = &c
	}
	a.Caveats = slices.Clone(a.Caveats)
	a.Terms = slices.Clone(a.Terms)
	a.Sources.Filters = slices.Clone(a.Sources.Filters)
	a.Sources.RunIDs = slices.Clone(a.Sources.RunIDs)
	a.Sources.Entries = slices.Clone(a.Sources.Entries)
	if a.Chart != nil {
		c := *a.Chart
		c.Series = slices.Clone(c.Series)
		for i := range c.Series {
			c.Series[i].Points = slices.Clone(c.Series[i].Points)
		}
		a.Chart = &c
	}
	a.Examples = slices.Clone(a.Examples)
	a.Choices = slices.Clone(a.Choices)
	return a
}

func cloneRows(rows []Row) []Row {
	rows = slices.Clone(rows)
	for i := range rows {
		r := &rows[i]
		if r.HitRate != nil {
			h := *r.HitRate
			r.HitRate = &h
		}
		r.Differs = slices.Clone(r.Differs)
		r.RunIDs = slices.Clone(r.RunIDs)
	}
	return rows
}
