package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// MemoryKV is an in-memory KV whose expiry follows an injected clock: a
// preview's state, and the tests' KV (bottest.MemoryKV). It is safe for
// concurrent use.
type MemoryKV struct {
	mu   sync.Mutex
	now  func() time.Time
	data map[string]memoryEntry
}

type memoryEntry struct {
	value   []byte
	expires time.Time // zero: never
}

// NewMemoryKV returns an empty MemoryKV reading time from now (time.Now when nil).
func NewMemoryKV(now func() time.Time) *MemoryKV {
	if now == nil {
		now = time.Now
	}
	return &MemoryKV{now: now, data: map[string]memoryEntry{}}
}

func (m *MemoryKV) live(key string) (memoryEntry, bool) {
	e, ok := m.data[key]
	if !ok {
		return memoryEntry{}, false
	}
	if !e.expires.IsZero() && !m.now().Before(e.expires) {
		delete(m.data, key)
		return memoryEntry{}, false
	}
	return e, true
}

// Get returns a copy of the value and whether it exists and has not expired.
func (m *MemoryKV) Get(ctx context.Context, key string) ([]byte, bool, error) {
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
func (m *MemoryKV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[key] = m.entry(value, ttl)
	return nil
}

func (m *MemoryKV) entry(value []byte, ttl time.Duration) memoryEntry {
	e := memoryEntry{value: slices.Clone(value)}
	if ttl > 0 {
		e.expires = m.now().Add(ttl)
	}
	return e
}

// SetIfAbsent writes the value only when the key is absent or expired.
func (m *MemoryKV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
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
func (m *MemoryKV) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.data, key)
	return nil
}

// Keys lists the live keys with the prefix, sorted.
func (m *MemoryKV) Keys(ctx context.Context, prefix string) ([]string, error) {
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
