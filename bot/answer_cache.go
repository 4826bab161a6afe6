package bot

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// DefaultAnswerCacheSize is how many composed answers a Bot keeps when
// Config.AnswerCacheSize is 0.
const DefaultAnswerCacheSize = 1024

// DefaultAnswerCacheBytes is about how much memory the kept answers take
// at most when Config.AnswerCacheBytes is 0: an entry bound alone let
// 1,024 answers of a million-run store hold 2 GB.
const DefaultAnswerCacheBytes = 32 << 20

// Fingerprinted is a Querier that names the runs it holds; the fingerprint
// changes whenever the runs do (*analytics.Store satisfies it). Only a Bot
// whose Querier is Fingerprinted caches answers: without a fingerprint an
// import could not be told apart from the runs before it.
type Fingerprinted interface {
	Fingerprint() string
}

// Repeatable is a Planner that can say it plans alike every time: the
// same question, without a previous plan, over the same runs gives an
// equal plan (*planner.Planner without a language model). Only then does
// a Bot serve a repeated question from the cache without planning it.
type Repeatable interface {
	Repeatable() bool
}

// answerCache keeps composed answers by (data fingerprint, plan). The plan
// is everything composition reads from a message and its thread (the
// inherited slots, the previous plan's intent for a follow-up are already
// in it), so an equal plan over equal runs composes an equal answer. When
// the planner is Repeatable, a question asked with no previous plan is
// also kept by its text, so asking it again skips planning as well. An
// import changes the fingerprint: the first lookup after it drops every
// entry of the old runs.
type answerCache struct {
	lru *lru.Cache[string, *answered]
	// bytes is what the kept entries cost (answered.cost), at most
	// maxBytes once an add has evicted down to it.
	bytes    atomic.Int64
	maxBytes int64

	mu sync.Mutex
	fp string // the fingerprint the entries belong to
}

// answered is one answer with its plan and, once a caller asked for it,
// its JSON object encoded. Cached ones are shared: never changed.
type answered struct {
	plan   planner.Plan
	answer Answer
	cost   int64 // answerCost, fixed when made

	once    sync.Once
	encoded []byte
	err     error
}

// json is the answer's docs/design.md#json-answers object, encoded on first use.
func (e *answered) json() ([]byte, error) {
	e.once.Do(func() { e.encoded, e.err = JSON(e.answer).Encode() })
	return e.encoded, e.err
}

// newAnswerCache returns a cache of at most size entries and about
// maxBytes of answers, or nil (no caching) for a negative size.
func newAnswerCache(size, maxBytes int) *answerCache {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultAnswerCacheSize
	}
	if maxBytes <= 0 {
		maxBytes = DefaultAnswerCacheBytes
	}
	c := &answerCache{maxBytes: int64(maxBytes)}
	l, err := lru.NewWithEvict(size, func(_ string, e *answered) { c.bytes.Add(-e.cost) })
	if err != nil { // only for a size ≤ 0
		panic(err)
	}
	c.lru = l
	return c
}

// add keeps e under key unless the key is kept already, then evicts the
// oldest entries until the kept ones fit maxBytes (the newest always
// stays).
func (c *answerCache) add(key string, e *answered) {
	if present, _ := c.lru.ContainsOrAdd(key, e); present {
		return
	}
	c.bytes.Add(e.cost)
	for c.bytes.Load() > c.maxBytes && c.lru.Len() > 1 {
		if _, _, ok := c.lru.RemoveOldest(); !ok {
			return
		}
	}
}

// planKey is the plan's canonical form under the fingerprint; "" when the
// plan cannot be encoded (it then is composed every time).
func planKey(fp string, p planner.Plan) string {
	b, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	return "p" + fp + "\x00" + string(b)
}

// questionKey names a question asked with no previous plan.
func questionKey(fp, question string) string {
	return "q" + fp + "\x00" + question
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

// fingerprint is the runs' fingerprint when answers may be cached.
func (b *Bot) fingerprint() (string, bool) {
	fq, ok := b.cfg.Querier.(Fingerprinted)
	if b.answers == nil || !ok {
		return "", false
	}
	fp := fq.Fingerprint()
	b.answers.sameRuns(fp)
	return fp, true
}

// cachedQuestion is the answer kept for question asked with no previous
// plan, when the planner is Repeatable; nil when there is none.
func (b *Bot) cachedQuestion(question string) *answered {
	if r, ok := b.cfg.Planner.(Repeatable); !ok || !r.Repeatable() {
		return nil
	}
	fp, ok := b.fingerprint()
	if !ok {
		return nil
	}
	e, _ := b.answers.lru.Get(questionKey(fp, question))
	return e
}

// answerFor composes the plan's answer, or returns the one composed for an
// equal plan over the same runs, shared with the cache. Errors are never
// cached. A question asked with no previous plan (fresh, non-empty) is
// also kept under its text.
func (b *Bot) answerFor(ctx context.Context, p planner.Plan, fresh string) (*answered, error) {
	fp, ok := b.fingerprint()
	if !ok {
		return b.composeFor(ctx, p)
	}
	key := planKey(fp, p)
	if key == "" {
		return b.composeFor(ctx, p)
	}
	e, ok := b.answers.lru.Get(key)
	if ok {
		progressFrom(ctx).finish(Step{Stage: StageCompose, Cached: true})
	} else {
		var err error
		if e, err = b.composeFor(ctx, p); err != nil || ctx.Err() != nil {
			return e, err
		}
		b.answers.add(key, e)
	}
	if r, ok := b.cfg.Planner.(Repeatable); fresh != "" && ok && r.Repeatable() {
		b.answers.add(questionKey(fp, fresh), e)
	}
	return e, nil
}

func (b *Bot) composeFor(ctx context.Context, p planner.Plan) (*answered, error) {
	a, err := b.compose.Compose(ctx, p)
	progressFrom(ctx).composed(err)
	return &answered{plan: p, answer: a, cost: answerCost(a)}, err
}

// answerCost is about the memory an answer and its JSON object take: its
// text twice (the JSON holds the Markdown once more), plus a fixed cost per
// row and per string.
func answerCost(a Answer) int64 {
	n := 2 * (len(a.Interpretation) + len(a.Headline) + len(a.PlainWords))
	for _, s := range slices.Concat(a.Body, a.Caveats, a.Examples, a.Choices, a.Sources.Filters, a.Sources.RunIDs) {
		n += 2*len(s) + 16
	}
	if a.Table != nil {
		for _, r := range a.Table.Rows {
			for _, s := range r {
				n += 2*len(s) + 16
			}
		}
	}
	for _, r := range slices.Concat(a.Rows, a.Nearest) {
		n += 2*(len(r.Series)+len(r.RunsFilter)) + 512
		for _, id := range r.RunIDs {
			n += 2*len(id) + 16
		}
	}
	for _, t := range a.Terms {
		n += 2 * (len(t.ID) + len(t.Name) + len(t.Gist))
	}
	for _, e := range a.Sources.Entries {
		n += 2 * (len(e.ID) + len(e.Title) + len(e.URL))
	}
	for c := a.Chart; c != nil; c = c.Cost { // and its latency panel
		for _, s := range c.Series {
			n += 128 * (1 + len(s.Points))
		}
	}
	return int64(n) + 4096 // the plan, the structs, the key
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
	a.Chart = cloneChart(a.Chart)
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

// cloneChart returns a copy of c, its latency panel included, that shares
// no memory with it (nil for nil).
func cloneChart(c *Chart) *Chart {
	if c == nil {
		return nil
	}
	out := *c
	out.Series = slices.Clone(c.Series)
	for i := range out.Series {
		out.Series[i].Points = slices.Clone(out.Series[i].Points)
	}
	out.Cost = cloneChart(c.Cost)
	return &out
}
