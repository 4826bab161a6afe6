package analytics

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"
)

// filterCacheSize bounds the compiled filters a store keeps. Questions reuse
// a few hundred distinct filters (the knowledge base's counter-queries and
// the planner's cells); raw `runs` filters beyond that evict the oldest.
const filterCacheSize = 1024

// filterCache keeps compiled filters by their text, so a filter is checked
// and compiled once per process rather than once per query. A compiled
// Filter is immutable and safe for concurrent use, so one copy is shared.
// Only filters that compile are kept; a refused filter is checked again
// each time (and fails the same way).
type filterCache struct {
	lru *lru.Cache[string, *Filter]
}

func newFilterCache() *filterCache {
	c, err := lru.New[string, *Filter](filterCacheSize)
	if err != nil { // only for a size ≤ 0
		panic(err)
	}
	return &filterCache{lru: c}
}

// compile returns the compiled filter for text, compiling it on a miss. A
// nil cache compiles every time.
func (c *filterCache) compile(ctx context.Context, text string) (*Filter, error) {
	if c == nil {
		return CompileFilterContext(ctx, text)
	}
	if f, ok := c.lru.Get(text); ok {
		return f, nil
	}
	f, err := CompileFilterContext(ctx, text)
	if err != nil {
		return nil, err
	}
	c.lru.Add(text, f)
	return f, nil
}
