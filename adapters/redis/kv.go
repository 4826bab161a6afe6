package redis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// KV is a bot.KV in one namespace of the shared server. Its errors are the
// server's, and ErrUnavailable at once while the store is known to be
// unusable; Shared wraps it with the local fallback. Used alone it fails
// closed (the digest's slot markers).
type KV struct {
	s      *Store
	prefix string
}

// KV returns the namespace's key space on the server ("threads", "slack", …).
func (s *Store) KV(namespace string) *KV {
	return &KV{s: s, prefix: s.key(namespace) + ":"}
}

// Get returns the value and whether it exists.
func (kv *KV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := kv.s.usable(); err != nil {
		return nil, false, err
	}
	v, err := kv.s.c.Get(ctx, kv.prefix+key).Bytes()
	kv.s.observe(err)
	if err == goredis.Nil {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("shared kv get %s: %w", key, err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, true, nil
}

// Set writes the value; ttl 0 means no expiry.
func (kv *KV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := kv.s.usable(); err != nil {
		return err
	}
	err := kv.s.c.Set(ctx, kv.prefix+key, value, ttl).Err()
	kv.s.observe(err)
	if err != nil {
		return fmt.Errorf("shared kv set %s: %w", key, err)
	}
	return nil
}

// SetIfAbsent writes the value only if the key is absent, atomically on
// the server, so exactly one replica wins.
func (kv *KV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	if err := kv.s.usable(); err != nil {
		return false, err
	}
	res, err := kv.s.c.SetArgs(ctx, kv.prefix+key, value, goredis.SetArgs{Mode: "NX", TTL: ttl}).Result()
	kv.s.observe(err)
	if err == goredis.Nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("shared kv set-if-absent %s: %w", key, err)
	}
	return res == "OK", nil
}

// Delete removes the key; a missing key is fine.
func (kv *KV) Delete(ctx context.Context, key string) error {
	if err := kv.s.usable(); err != nil {
		return err
	}
	err := kv.s.c.Del(ctx, kv.prefix+key).Err()
	kv.s.observe(err)
	if err != nil {
		return fmt.Errorf("shared kv delete %s: %w", key, err)
	}
	return nil
}

// Keys lists the keys with the prefix, sorted (SCAN, never KEYS, so a
// large server is not blocked).
func (kv *KV) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := kv.s.usable(); err != nil {
		return nil, err
	}
	var keys []string
	iter := kv.s.c.Scan(ctx, 0, escapeGlob(kv.prefix+prefix)+"*", 500).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, strings.TrimPrefix(iter.Val(), kv.prefix))
	}
	err := iter.Err()
	kv.s.observe(err)
	if err != nil {
		return nil, fmt.Errorf("shared kv keys %q: %w", prefix, err)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil // SCAN may return a key twice
}

// escapeGlob quotes the characters SCAN MATCH treats as a pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var _ bot.KV = (*KV)(nil)
