package main

import (
	"fmt"

	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// shared opens the Redis/Valkey store replicas share, once, when serve
// runs with MEMDB_ORACLE_STATE_URL; nil otherwise (one-shot commands keep
// their state in the data directory). The app closes it.
func (a *app) shared() (*redisadapter.Store, error) {
	if a.sh != nil || !a.serving || a.cfg.State.URL == "" {
		return a.sh, nil
	}
	s, err := redisadapter.Open(a.ctx, redisadapter.Options{
		URL: a.cfg.State.URL, CAFile: a.cfg.State.CAFile, Prefix: a.cfg.State.Prefix, Logger: a.log.With("component", "shared-state"),
	})
	if err != nil {
		// Open fails only on what no retry mends (a refused login, an
		// untrusted certificate, an unknown host; an unreachable server is
		// an outage it rides out): a configuration error, exit 2.
		return nil, usageError{fmt.Errorf("MEMDB_ORACLE_STATE_URL: %w", err)}
	}
	a.closers = append(a.closers, s.Close)
	a.metrics().WatchSharedState(s.Up, s.Fallbacks)
	a.metrics().WatchImportFeed(s.Refused)
	a.sh = s
	return s, nil
}

// feed is the import feed replicas share, and false when it is off: no
// shared store, or no MEMDB_ORACLE_SHARED_KEY to sign it with.
func (a *app) feed() (redisadapter.Imports, bool, error) {
	sh, err := a.shared()
	if err != nil || sh == nil || a.cfg.State.SharedKey == "" {
		return redisadapter.Imports{}, false, err
	}
	var previous []string
	if a.cfg.State.PreviousSharedKey != "" {
		previous = append(previous, a.cfg.State.PreviousSharedKey)
	}
	f, err := sh.Imports(a.cfg.State.SharedKey, previous...)
	if err != nil {
		return f, false, fmt.Errorf("MEMDB_ORACLE_SHARED_KEY: %w", err)
	}
	return f, true, nil
}

// kv is the bot-state namespace: on the shared store (falling back to the
// data directory while it is unreachable) when there is one, else in the
// data directory.
func (a *app) kv(namespace string) (bot.KV, error) { return a.namespaceKV(namespace, false) }

// strictKV is a namespace that fails closed: on the shared store with no
// local fallback when there is one (else in the data directory). The
// digest's slot markers live there, because a digest posted twice (each
// replica claiming the slot locally during an outage) is worse than one
// posted late, once the store is back.
func (a *app) strictKV(namespace string) (bot.KV, error) { return a.namespaceKV(namespace, true) }

// namespaceKV is a namespace on the shared store when there is one —
// strict: with no local fallback — else in the data directory.
func (a *app) namespaceKV(namespace string, strict bool) (bot.KV, error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	sh, err := a.shared()
	if err != nil {
		return nil, err
	}
	switch {
	case sh == nil:
		return st.KV(namespace), nil
	case strict:
		return sh.KV(namespace), nil
	}
	return sh.Shared(namespace, st.KV(namespace)), nil
}

// limiter applies limits with daily counts in the namespace, atomically
// across replicas when there is a shared store.
func (a *app) limiter(limits bot.Limits, namespace string) (*bot.Limiter, error) {
	kv, err := a.kv(namespace)
	if err != nil {
		return nil, err
	}
	l := bot.NewLimiter(limits, kv, nil)
	if sh, _ := a.shared(); sh != nil {
		l.WithStore(sh.Limits())
	}
	return l, nil
}
