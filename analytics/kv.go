package analytics

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// KV is a namespaced key-value space in the store's Badger database, for
// small bot state. Keys live under "kv/{namespace}/"; values are copied in
// and out, so callers may reuse their slices. It is safe for concurrent use.
type KV struct {
	s      *Store
	prefix string
}

// ErrBadKey is returned for an empty key.
var ErrBadKey = errors.New("kv: empty key")

// maxConflictRetries bounds how often SetIfAbsent retries after a
// transaction conflict with a concurrent writer.
const maxConflictRetries = 8

// KV returns a small persistent key-value space for bot state (thread
// memory, rate-limit counters, event de-duplication, digest markers),
// stored in the same Badger database under its own prefix. The namespace
// must not be empty or contain "/"; such a namespace panics, as it is a
// programming error.
func (s *Store) KV(namespace string) *KV {
	if namespace == "" || strings.Contains(namespace, "/") {
		panic(fmt.Sprintf("analytics: invalid KV namespace %q", namespace))
	}
	return &KV{s: s, prefix: kvPrefix + namespace + "/"}
}

func (kv *KV) key(key string) ([]byte, error) {
	if key == "" {
		return nil, ErrBadKey
	}
	return []byte(kv.prefix + key), nil
}

// Get returns the value and whether it exists (and has not expired).
func (kv *KV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	kv.s.dbMu.RLock()
	defer kv.s.dbMu.RUnlock()
	return kv.get(ctx, key)
}

// get is Get with dbMu held for reading.
func (kv *KV) get(ctx context.Context, key string) ([]byte, bool, error) {
	k, err := kv.key(key)
	if err != nil {
		return nil, false, err
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if e, ok := kv.s.disk.held(string(k)); ok {
		if e.deleted {
			return nil, false, nil
		}
		return append([]byte{}, e.value...), true, nil
	}
	var val []byte
	err = kv.s.viewLocked(func(txn *badger.Txn) error {
		item, err := txn.Get(k)
		if err != nil {
			return err
		}
		val, err = item.ValueCopy(nil)
		return err
	})
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("kv get %s: %w", key, err)
	}
	if val == nil {
		val = []byte{}
	}
	return val, true, nil
}

func entry(k, value []byte, ttl time.Duration) *badger.Entry {
	e := badger.NewEntry(k, append([]byte(nil), value...))
	if ttl > 0 {
		e = e.WithTTL(ttl)
	}
	return e
}

// Set writes the value; ttl 0 means no expiry. Badger expires entries at
// whole-second granularity, rounding the expiry time down.
func (kv *KV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	kv.s.dbMu.RLock()
	defer kv.s.dbMu.RUnlock()
	k, err := kv.key(key)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if kv.s.disk.hold(string(k), memEntry{value: append([]byte(nil), value...), expires: expiry(ttl)}) {
		return nil
	}
	if err := errors.Join(fault("badger.kv"), kv.s.db.Update(func(txn *badger.Txn) error { return txn.SetEntry(entry(k, value, ttl)) })); err != nil {
		return fmt.Errorf("kv set %s: %w", key, err)
	}
	return nil
}

// SetIfAbsent writes the value only if the key does not exist, atomically,
// and reports whether it wrote.
func (kv *KV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	kv.s.dbMu.RLock()
	defer kv.s.dbMu.RUnlock()
	k, err := kv.key(key)
	if err != nil {
		return false, err
	}
	for range maxConflictRetries {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if wrote, held := kv.s.disk.holdIfAbsent(ctx, kv, key, string(k), memEntry{value: append([]byte(nil), value...), expires: expiry(ttl)}); held {
			return wrote, nil
		}
		wrote := false
		err = kv.s.db.Update(func(txn *badger.Txn) error {
			_, err := txn.Get(k)
			if err == nil {
				return nil // present
			}
			if !errors.Is(err, badger.ErrKeyNotFound) {
				return err
			}
			wrote = true
			return txn.SetEntry(entry(k, value, ttl))
		})
		if errors.Is(err, badger.ErrConflict) {
			continue // a concurrent writer touched the key: look again
		}
		if err != nil {
			return false, fmt.Errorf("kv set-if-absent %s: %w", key, err)
		}
		return wrote, nil
	}
	return false, fmt.Errorf("kv set-if-absent %s: %w", key, badger.ErrConflict)
}

// Delete removes the key. Deleting a missing key is not an error.
func (kv *KV) Delete(ctx context.Context, key string) error {
	kv.s.dbMu.RLock()
	defer kv.s.dbMu.RUnlock()
	k, err := kv.key(key)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if kv.s.disk.hold(string(k), memEntry{deleted: true}) {
		return nil
	}
	if err := kv.s.db.Update(func(txn *badger.Txn) error { return txn.Delete(k) }); err != nil {
		return fmt.Errorf("kv delete %s: %w", key, err)
	}
	return nil
}

// Keys lists the live keys with the given prefix, sorted.
func (kv *KV) Keys(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	err := kv.s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(kv.prefix + prefix)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			keys = append(keys, strings.TrimPrefix(string(it.Item().Key()), kv.prefix))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("kv keys %q: %w", prefix, err)
	}
	keys = kv.s.disk.mergeKeys(keys, kv.prefix, prefix)
	sort.Strings(keys)
	return keys, nil
}
