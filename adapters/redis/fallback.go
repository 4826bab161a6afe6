package redis

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// maxPending bounds the keys a replica remembers writing locally during an
// outage, to hand to the server when it is back; beyond it the rest stay
// local only.
const maxPending = 10_000

// Shared returns a bot.KV (and bot.Appender) for namespace that lives on
// the server while it is usable and in local (the replica's own store,
// same namespace) while it is not: a replica that loses the server keeps
// answering, with its thread memory, limits and de-duplication per replica
// until the server is back.
//
// So that an outage loses as little as possible, while the server is up
// the markers set (SetIfAbsent) and the list entries appended are mirrored
// into local — a thread started before an outage keeps its context on this
// replica during it, and an event seen before it is still recognised —
// and what is written locally during an outage is handed to the server
// when it is back: markers set if still absent there, list entries
// appended. An event answered during the outage is not answered again
// after it.
func (s *Store) Shared(namespace string, local bot.KV) bot.KV {
	f := &fallbackKV{s: s, shared: s.KV(namespace), local: local, list: bot.NewLocalList(local), pending: map[string]*pendingWrite{}}
	s.onResume(f.replay)
	return f
}

type fallbackKV struct {
	s      *Store
	shared *KV
	local  bot.KV
	list   *bot.LocalList // local's lists

	mu      sync.Mutex
	pending map[string]*pendingWrite // written locally while the server was not usable
}

// pendingWrite is what one key received locally during an outage.
type pendingWrite struct {
	marker  []byte    // a SetIfAbsent that won locally (nil: none)
	expires time.Time // the marker's (zero: never)
	entries [][]byte  // list entries appended, oldest first
	max     int
	ttl     time.Duration
}

// use runs op on the server when it is usable and answers; otherwise (or
// when it fails) it runs local on the replica's own store and reports that
// it did.
func use[T any](f *fallbackKV, op func() (T, error), local func() (T, error)) (T, bool, error) {
	if f.s.usable() == nil {
		v, err := op()
		if !failed(err) && !errors.Is(err, ErrUnavailable) { // it may have gone down since
			return v, false, err
		}
	}
	f.s.fallbacks.Add(1)
	v, err := local()
	return v, true, err
}

func (f *fallbackKV) Get(ctx context.Context, key string) ([]byte, bool, error) {
	type got struct {
		v  []byte
		ok bool
	}
	r, _, err := use(f, func() (got, error) {
		v, ok, err := f.shared.Get(ctx, key)
		return got{v, ok}, err
	}, func() (got, error) {
		v, ok, err := f.local.Get(ctx, key)
		return got{v, ok}, err
	})
	return r.v, r.ok, err
}

func (f *fallbackKV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	_, _, err := use(f, func() (struct{}, error) { return struct{}{}, f.shared.Set(ctx, key, value, ttl) },
		func() (struct{}, error) { return struct{}{}, f.local.Set(ctx, key, value, ttl) })
	return err
}

func (f *fallbackKV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	first, local, err := use(f, func() (bool, error) { return f.shared.SetIfAbsent(ctx, key, value, ttl) },
		func() (bool, error) { return f.local.SetIfAbsent(ctx, key, value, ttl) })
	if err != nil || !first {
		return first, err
	}
	if local {
		f.remember(key, func(p *pendingWrite) {
			p.marker = value
			if ttl > 0 {
				p.expires = time.Now().Add(ttl)
			}
		})
	} else if merr := f.local.Set(ctx, key, value, ttl); merr != nil {
		f.s.log.DebugContext(ctx, "mirroring a marker locally", "key", key, "err", merr)
	}
	return true, nil
}

func (f *fallbackKV) Delete(ctx context.Context, key string) error {
	_, local, err := use(f, func() (struct{}, error) { return struct{}{}, f.shared.Delete(ctx, key) },
		func() (struct{}, error) { return struct{}{}, f.local.Delete(ctx, key) })
	if err == nil && !local {
		err = f.local.Delete(ctx, key) // the mirror too
	}
	f.mu.Lock()
	delete(f.pending, key)
	f.mu.Unlock()
	return err
}

func (f *fallbackKV) Keys(ctx context.Context, prefix string) ([]string, error) {
	keys, _, err := use(f, func() ([]string, error) { return f.shared.Keys(ctx, prefix) },
		func() ([]string, error) { return f.local.Keys(ctx, prefix) })
	return keys, err
}

// AppendBounded implements bot.Appender: atomically on the server, mirrored
// locally; locally alone (and remembered) while the server is not usable.
func (f *fallbackKV) AppendBounded(ctx context.Context, key string, value []byte, max int, ttl time.Duration) error {
	_, local, err := use(f, func() (struct{}, error) { return struct{}{}, f.shared.AppendBounded(ctx, key, value, max, ttl) },
		func() (struct{}, error) { return struct{}{}, f.list.AppendBounded(ctx, key, value, max, ttl) })
	if err != nil {
		return err
	}
	if local {
		f.remember(key, func(p *pendingWrite) {
			p.entries = append(p.entries, value)
			if max > 0 && len(p.entries) > max {
				p.entries = p.entries[len(p.entries)-max:]
			}
			p.max, p.ttl = max, ttl
		})
	} else if merr := f.list.AppendBounded(ctx, key, value, max, ttl); merr != nil {
		f.s.log.DebugContext(ctx, "mirroring a list entry locally", "key", key, "err", merr)
	}
	return nil
}

// List implements bot.Appender.
func (f *fallbackKV) List(ctx context.Context, key string) ([][]byte, error) {
	l, _, err := use(f, func() ([][]byte, error) { return f.shared.List(ctx, key) },
		func() ([][]byte, error) { return f.list.List(ctx, key) })
	return l, err
}

func (f *fallbackKV) remember(key string, update func(*pendingWrite)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.pending[key]
	if !ok {
		if len(f.pending) >= maxPending {
			return
		}
		p = &pendingWrite{}
		f.pending[key] = p
	}
	update(p)
}

// replay hands the server what was written locally during the outage. A
// write the server refuses is kept for the next time it is back.
func (f *fallbackKV) replay(ctx context.Context) {
	f.mu.Lock()
	pending := f.pending
	f.pending = map[string]*pendingWrite{}
	f.mu.Unlock()
	merged := 0
	for key, p := range pending {
		if err := f.replayOne(ctx, key, p); err != nil {
			f.remember(key, func(q *pendingWrite) {
				if q.marker == nil {
					q.marker, q.expires = p.marker, p.expires
				}
				q.entries = append(p.entries, q.entries...)
				q.max, q.ttl = p.max, p.ttl
			})
			continue
		}
		merged++
	}
	if merged > 0 {
		f.s.log.Info("handed the shared state store what was written locally during the outage", "namespace", f.shared.prefix, "keys", merged)
	}
}

func (f *fallbackKV) replayOne(ctx context.Context, key string, p *pendingWrite) error {
	if p.marker != nil {
		ttl := time.Duration(0)
		if !p.expires.IsZero() {
			if ttl = time.Until(p.expires); ttl <= 0 {
				return nil
			}
		}
		if _, err := f.shared.SetIfAbsent(ctx, key, p.marker, ttl); err != nil {
			return err
		}
	}
	for i, e := range p.entries {
		if err := f.shared.AppendBounded(ctx, key, e, p.max, p.ttl); err != nil {
			p.entries = p.entries[i:]
			return err
		}
	}
	return nil
}

var _ bot.Appender = (*fallbackKV)(nil)
