package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sync"
	"time"
)

// Appender keeps bounded lists whose appends never lose one another: two
// replicas (or two goroutines) appending to the same list at the same
// instant both land. Thread memory uses it when its KV provides it; the
// shared Redis/Valkey store does, in one script on the server.
//
// Entries are JSON values (a thread's plans), so a list reads as a JSON
// array wherever it is stored as one value.
type Appender interface {
	// AppendBounded adds value as the list's newest entry, drops the
	// oldest beyond max and restarts the list's expiry (ttl), atomically.
	AppendBounded(ctx context.Context, key string, value []byte, max int, ttl time.Duration) error
	// List returns the list's entries oldest first; none for an unknown key.
	List(ctx context.Context, key string) ([][]byte, error)
}

// LocalList is an Appender over a KV only this process writes (the data
// directory's Badger store, which one process holds at a time): each list
// is one JSON array value, and its read-modify-write is serialised per key
// inside the process, so no append is lost.
type LocalList struct {
	kv    KV
	seed  maphash.Seed
	locks [64]sync.Mutex // striped by key
}

// NewLocalList returns the lists kept in kv.
func NewLocalList(kv KV) *LocalList { return &LocalList{kv: kv, seed: maphash.MakeSeed()} }

func (l *LocalList) lock(key string) *sync.Mutex {
	return &l.locks[maphash.String(l.seed, key)%uint64(len(l.locks))]
}

// AppendBounded implements Appender.
func (l *LocalList) AppendBounded(ctx context.Context, key string, value []byte, max int, ttl time.Duration) error {
	if !json.Valid(value) {
		return fmt.Errorf("list %q: an entry must be a JSON value", key)
	}
	mu := l.lock(key)
	mu.Lock()
	defer mu.Unlock()
	entries, err := l.list(ctx, key)
	if err != nil {
		return err
	}
	entries = append(entries, json.RawMessage(value))
	if max > 0 && len(entries) > max {
		entries = entries[len(entries)-max:]
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		return fmt.Errorf("list %q: encoding: %w", key, err)
	}
	return l.kv.Set(ctx, key, raw, ttl)
}

// List implements Appender.
func (l *LocalList) List(ctx context.Context, key string) ([][]byte, error) {
	entries, err := l.list(ctx, key)
	out := make([][]byte, len(entries))
	for i, e := range entries {
		out[i] = e
	}
	return out, err
}

func (l *LocalList) list(ctx context.Context, key string) ([]json.RawMessage, error) {
	raw, ok, err := l.kv.Get(ctx, key)
	if err != nil || !ok {
		return nil, err
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("list %q: decoding: %w", key, err)
	}
	return entries, nil
}
