// Package redis keeps the state replicas share on Redis or Valkey (docs/design.md#replicas-and-shared-state),
// behind the bot's ports: a bot.KV per namespace (thread memory,
// Slack de-duplication, digest slot markers), a bot.RateStore whose limits
// are applied atomically by one Lua script, leases (the Discord gateway),
// and the feed of imported runs. When the server cannot be reached, each
// KV falls back to the replica's local store, logged once and counted, and
// a probe switches back by itself. go-redis is imported nowhere else.
package redis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Options configure Open. URL is required.
type Options struct {
	// URL is redis://[user:password@]host:port[/db] or rediss:// for TLS
	// (MEMDB_ORACLE_STATE_URL).
	URL string
	// CAFile, for a rediss:// URL, is a PEM file of the certificate
	// authorities to trust instead of the system's (a private CA;
	// MEMDB_ORACLE_STATE_CA_FILE). Empty trusts the system's.
	CAFile string
	// Prefix starts every key, so deployments can share a server; default
	// "memdb-oracle:".
	Prefix string
	// Probe is how often an unreachable server is tried again; default 2 s.
	Probe time.Duration
	// Timeout bounds one command; default 1 s, so a hung server costs a
	// question at most that before the local state takes over.
	Timeout time.Duration
	// Logger receives the down and up transitions; nil discards.
	Logger *slog.Logger
}

// Store is a connection to the shared server and its health. It is safe
// for concurrent use; Close releases it.
type Store struct {
	c      *goredis.Client
	prefix string
	log    *slog.Logger
	probe  time.Duration

	up        atomic.Bool
	fallbacks atomic.Uint64
	mu        sync.Mutex // serialises the transitions, so each is logged once
	stop      context.CancelFunc
	done      chan struct{}
}

// Open parses the URL and connects. It fails when the URL is bad; an
// unreachable server is not an error: the store starts degraded and the
// probe connects when it can.
func Open(ctx context.Context, opts Options) (*Store, error) {
	ro, err := goredis.ParseURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("shared state URL: %w", errors.New(redactURLError(err.Error(), opts.URL)))
	}
	if opts.CAFile != "" {
		if ro.TLSConfig == nil {
			return nil, errors.New("a CA file is set but the shared state URL is redis:// (no TLS): use rediss://")
		}
		if ro.TLSConfig.RootCAs, err = loadCAs(opts.CAFile); err != nil {
			return nil, err
		}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = time.Second
	}
	if opts.Probe <= 0 {
		opts.Probe = 2 * time.Second
	}
	if opts.Prefix == "" {
		opts.Prefix = "memdb-oracle:"
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = opts.Timeout, opts.Timeout, opts.Timeout
	ro.PoolTimeout = opts.Timeout
	ro.MaxRetries = 1
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// go-redis logs each failed dial itself; during an outage that is a
	// line per command. Keep those at debug level: the transitions are
	// logged once, below. (Its logger is process-wide.)
	goredis.SetLogger(debugLogger{log})
	s := &Store{c: goredis.NewClient(ro), prefix: opts.Prefix, log: log, probe: opts.Probe, done: make(chan struct{})}
	pctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	err = s.c.Ping(pctx).Err()
	cancel()
	s.up.Store(err == nil)
	if err != nil {
		log.Warn("shared state store unreachable; using local state until it answers", "addr", ro.Addr, "err", err)
	} else {
		log.Info("shared state store connected", "addr", ro.Addr)
	}
	probeCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	go s.watch(probeCtx)
	return s, nil
}

// redactURLError keeps a password in the URL out of an error message.
func redactURLError(msg, url string) string {
	if url != "" && strings.Contains(msg, url) {
		return strings.ReplaceAll(msg, url, "(the URL)")
	}
	return msg
}

// Close stops the probe and closes the connections.
func (s *Store) Close() error {
	s.stop()
	<-s.done
	return s.c.Close()
}

// Up reports whether the server answered the last time it was used.
func (s *Store) Up() bool { return s.up.Load() }

// Fallbacks counts operations served by local state because the server
// could not be reached.
func (s *Store) Fallbacks() uint64 { return s.fallbacks.Load() }

// Check pings the server, for /healthz.
func (s *Store) Check(ctx context.Context) error {
	err := s.c.Ping(ctx).Err()
	if err != nil && ctx.Err() == nil {
		s.transition(false, err) // a refused login counts as down here too
	} else if err == nil {
		s.transition(true, nil)
	}
	return err
}

// watch probes a server that went away until it answers again.
func (s *Store) watch(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.probe)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if !s.Up() {
				_ = s.Check(ctx)
			}
		}
	}
}

// observe records the outcome of one command: a connection failure marks
// the store down, any answer (errors from the server included) marks it up.
func (s *Store) observe(err error) {
	s.transition(!unreachable(err), err)
}

// transition sets the store up or down, logging each change once.
func (s *Store) transition(up bool, err error) {
	if up == s.up.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if up == s.up.Load() {
		return
	}
	s.up.Store(up)
	if up {
		s.log.Info("shared state store reachable again; shared state resumed")
	} else {
		s.log.Error("shared state store unreachable; using local state (thread memory, limits and de-duplication are per replica until it is back)", "err", err)
	}
}

// unreachable says whether err means the server could not be reached: any
// failure that is not a missing key, an error the server replied with, or
// the caller's own cancellation (go-redis reports the rest — timeouts,
// refused or broken connections, an exhausted pool — as transport errors).
func unreachable(err error) bool {
	if err == nil || errors.Is(err, goredis.Nil) || errors.Is(err, context.Canceled) {
		return false
	}
	_, replied := errors.AsType[goredis.Error](err)
	return !replied
}

// ErrUnavailable is returned while the server is known to be unreachable,
// without waiting for it.
var ErrUnavailable = errors.New("shared state store unavailable")

// usable says whether to try the server; while it is down only the probe does.
func (s *Store) usable() error {
	if !s.Up() {
		return ErrUnavailable
	}
	return nil
}

// key is a name in this deployment's space.
func (s *Store) key(parts ...string) string {
	return s.prefix + strings.Join(parts, ":")
}

// debugLogger hands go-redis's own log lines to slog at debug level.
type debugLogger struct{ log *slog.Logger }

func (d debugLogger) Printf(ctx context.Context, format string, v ...any) {
	d.log.DebugContext(ctx, fmt.Sprintf(format, v...), "source", "go-redis")
}
