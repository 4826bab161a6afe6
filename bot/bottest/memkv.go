// Package bottest provides what tests of the bot and its adapters need: an
// in-memory KV with a controllable clock, conformance tests every
// ThreadStore and KV implementation runs, and a real Bot over the embedded
// dataset, knowledge base and planner.
package bottest

import (
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// MemKV is the bot's in-memory KV (bot.MemoryKV), under the name tests use.
type MemKV = bot.MemoryKV

// NewMemKV returns an empty MemKV reading time from now (time.Now when nil).
func NewMemKV(now func() time.Time) *MemKV { return bot.NewMemoryKV(now) }

// Clock is a manual clock for MemKV, limiters and bots in tests.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
