// Package bottest provides what tests of the bot and its adapters need: an
// in-memory KV with a controllable clock, conformance tests every
// ThreadStore and KV implementation runs, and a real Bot over the embedded
// dataset, knowledge base and planner.
package bottest

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// MemKV is an in-memory bot.KV whose expiry follows an injected clock.
// It is safe for concurrent use.
type MemKV struct {
	mu   sync.Mutex
	now  func() time.Time
	data map[string]memEntry
}

type memEntry struct {
	value   []byte
	expires time.Time // zero: never
}

// NewMemKV returns an empty MemKV reading time from now (time.Now when nil).
func NewMemKV(now func() time.Time) *MemKV {
	if now == nil {
		now = time.Now
	}
	return &MemKV{now: now, data: map[string]memEntry{}}
}

func (m *MemKV) live(key string) (memEntry, bool) {
	e, ok := m.data[key]
	if !ok {
		return memEntry{}, false
	}
	if !e.expires.IsZero() && !m.now().Before(e.expires) {
		delete(m.data, key)
		return memEntry{}, false
	}
	return e, true
}

// Get returns a copy of the value and whether it exists and has not expired.
func (m *MemKV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(key)
	if !ok {
		return nil, false, nil
	}
	return slices.Clone(e.value), true, nil
}

// Set writes a copy of the value; ttl 0 means no expiry.
func (m *MemKV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[key] = m.entry(value, ttl)
	return nil
}

func (m *MemKV) entry(value []byte, ttl time.Duration) memEntry {
	e := memEntry{value: slices.Clone(value)}
	if ttl > 0 {
		e.expires = m.now().Add(ttl)
	}
	return e
}

// SetIfAbsent writes the value only when the key is absent or expired.
func (m *MemKV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.live(key); ok {
		return false, nil
	}
	m.data[key] = m.entry(value, ttl)
	return true, nil
}

// Delete removes the key (absent keys are fine).
func (m *MemKV) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.data, key)
	return nil
}

// Keys lists the live keys with the prefix, sorted.
func (m *MemKV) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []string
	for k := range m.data {
		if _, ok := m.live(k); ok && strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

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
