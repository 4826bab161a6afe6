package redis

import (
	"context"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Shared returns a bot.KV for namespace that lives on the server while it
// answers and in local (the replica's own store, same namespace) while it
// does not: a replica that loses the server keeps answering, with its
// thread memory, limits and de-duplication per replica until the server is
// back. Nothing is copied between the two when the server returns.
func (s *Store) Shared(namespace string, local bot.KV) bot.KV {
	return &fallbackKV{s: s, shared: s.KV(namespace), local: local}
}

type fallbackKV struct {
	s      *Store
	shared *KV
	local  bot.KV
}

// use runs op on the server when it is up and answers; otherwise (or when
// it fails to answer) it runs local on the replica's own store.
func use[T any](f *fallbackKV, op func() (T, error), local func() (T, error)) (T, error) {
	if f.s.usable() == nil {
		v, err := op()
		if !failed(err) {
			return v, err
		}
	}
	f.s.fallbacks.Add(1)
	return local()
}

func (f *fallbackKV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	type got struct {
		v  []byte
		ok bool
	}
	r, err := use(f, func() (got, error) {
		v, ok, err := f.shared.Get(ctx, key)
		return got{v, ok}, err
	}, func() (got, error) {
		v, ok, err := f.local.Get(ctx, key)
		return got{v, ok}, err
	})
	return r.v, r.ok, err
}

func (f *fallbackKV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	_, err := use(f, func() (struct{}, error) { return struct{}{}, f.shared.Set(ctx, key, value, ttl) },
		func() (struct{}, error) { return struct{}{}, f.local.Set(ctx, key, value, ttl) })
	return err
}

func (f *fallbackKV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	return use(f, func() (bool, error) { return f.shared.SetIfAbsent(ctx, key, value, ttl) },
		func() (bool, error) { return f.local.SetIfAbsent(ctx, key, value, ttl) })
}

func (f *fallbackKV) Delete(ctx context.Context, key string) error {
	_, err := use(f, func() (struct{}, error) { return struct{}{}, f.shared.Delete(ctx, key) },
		func() (struct{}, error) { return struct{}{}, f.local.Delete(ctx, key) })
	return err
}

func (f *fallbackKV) Keys(ctx context.Context, prefix string) ([]string, error) {
	return use(f, func() ([]string, error) { return f.shared.Keys(ctx, prefix) },
		func() ([]string, error) { return f.local.Keys(ctx, prefix) })
}
