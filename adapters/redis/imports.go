package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

// ImportRecord is one validated capture CSV, published once so every
// replica applies it to its own store.
type ImportRecord struct {
	// ID is the record's fingerprint (a digest of session, name and bytes);
	// publishing the same file twice is one record.
	ID      string `json:"id"`
	Name    string `json:"name"`
	Session int    `json:"session"`
	CSV     []byte `json:"csv"`
}

// Imports is the feed of imported runs on the server.
type Imports struct{ s *Store }

// Imports returns the feed.
func (s *Store) Imports() Imports { return Imports{s} }

func (f Imports) channel() string { return f.s.key("imports") }

// Publish stores rec unless a record with its ID exists, and notifies the
// replicas listening. It reports whether rec was new.
func (f Imports) Publish(ctx context.Context, rec ImportRecord) (bool, error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return false, fmt.Errorf("encoding import %s: %w", rec.ID, err)
	}
	res, err := f.s.c.SetArgs(ctx, f.s.key("import", rec.ID), raw, goredis.SetArgs{Mode: "NX"}).Result()
	f.s.observe(err)
	if err == goredis.Nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("publishing import %s: %w", rec.ID, err)
	}
	if err := f.s.c.Publish(ctx, f.channel(), rec.ID).Err(); err != nil {
		// The record is stored; replicas find it on their next look.
		return true, fmt.Errorf("notifying replicas of import %s: %w", rec.ID, err)
	}
	return res == "OK", nil
}

// IDs lists the published records, sorted.
func (f Imports) IDs(ctx context.Context) ([]string, error) {
	prefix := f.s.key("import", "")
	var ids []string
	iter := f.s.c.Scan(ctx, 0, escapeGlob(prefix)+"*", 500).Iterator()
	for iter.Next(ctx) {
		ids = append(ids, strings.TrimPrefix(iter.Val(), prefix))
	}
	err := iter.Err()
	f.s.observe(err)
	if err != nil {
		return nil, fmt.Errorf("listing imports: %w", err)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// Get returns one published record.
func (f Imports) Get(ctx context.Context, id string) (ImportRecord, error) {
	raw, err := f.s.c.Get(ctx, f.s.key("import", id)).Bytes()
	f.s.observe(err)
	if err != nil {
		return ImportRecord{}, fmt.Errorf("reading import %s: %w", id, err)
	}
	var rec ImportRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return ImportRecord{}, fmt.Errorf("decoding import %s: %w", id, err)
	}
	return rec, nil
}

// Notifications returns a channel that receives a value whenever a replica
// publishes a record, until ctx ends. go-redis subscribes again by itself
// after a lost connection; a notification missed meanwhile is caught by
// the caller's periodic look at IDs.
func (f Imports) Notifications(ctx context.Context) <-chan struct{} {
	out := make(chan struct{}, 1)
	sub := f.s.c.Subscribe(ctx, f.channel())
	// Wait for the server to confirm, so a record published after this
	// returns is announced; an unreachable server is retried by go-redis.
	_, _ = sub.Receive(ctx)
	go func() {
		defer close(out)
		defer sub.Close()
		ch := sub.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-ch:
				if !ok {
					return
				}
				select {
				case out <- struct{}{}:
				default: // one pending notification is enough
				}
			}
		}
	}()
	return out
}
