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
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
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
	reason    string     // why the store is down (under mu); "" while up

	resumed    []func(context.Context) // run when the store is usable again (under mu)
	refused    atomic.Uint64           // import records refused (Imports.Get)
	refusedIDs sync.Map                // their IDs, so each is counted and logged once
	stop       context.CancelFunc
	done       chan struct{}
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
	err = s.probeWrite(pctx)
	cancel()
	if why := misconfigured(err); why != "" {
		_ = s.c.Close()
		return nil, fmt.Errorf("%w: %s at %s: %v", ErrMisconfigured, why, ro.Addr, err)
	}
	s.up.Store(err == nil)
	if err != nil {
		s.reason = failureReason(err)
		log.Warn("shared state store not usable; using local state until it answers", "addr", ro.Addr, "reason", s.reason, "err", err)
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

// Check proves the server takes a write, for /healthz and the probe: a
// PING is answered by a server that refuses every write (out of memory, a
// read-only replica, a failing disk), so it would say healthy when the
// replica's state is not being kept.
func (s *Store) Check(ctx context.Context) error {
	err := s.probeWrite(ctx)
	if err != nil && ctx.Err() == nil {
		s.transition(false, err)
	} else if err == nil && s.transition(true, nil) {
		s.mu.Lock()
		hooks := s.resumed
		s.mu.Unlock()
		for _, h := range hooks {
			h(ctx)
		}
	}
	return err
}

// onResume registers h to run each time the store becomes usable again.
func (s *Store) onResume(h func(context.Context)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resumed = append(s.resumed, h)
}

// probeWrite writes a short-lived key in this deployment's space.
func (s *Store) probeWrite(ctx context.Context) error {
	return s.c.Set(ctx, s.key("health"), "1", 10*time.Second).Err()
}

// Reason says why the store is not used ("out of memory", "unreachable",
// …), or "" while it is up.
func (s *Store) Reason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
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

// observe records the outcome of one command: a failure (see failed)
// marks the store down; an answer, or an error that is the command's own
// (a wrong type, a missing key), leaves it as it is — only the probe and
// Check bring a store back, after a write they made went through.
func (s *Store) observe(err error) {
	if failed(err) {
		s.transition(false, err)
	}
}

// transition sets the store up or down, logging each change once; a store
// that stays down for a different reason (out of memory, then unreachable)
// logs the new reason once too. It reports whether the store came up.
func (s *Store) transition(up bool, err error) bool {
	reason := ""
	if !up {
		reason = failureReason(err)
	}
	if up == s.up.Load() && up {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if up == s.up.Load() && reason == s.reason {
		return false
	}
	s.up.Store(up)
	s.reason = reason
	if up {
		s.log.Info("shared state store usable again; shared state resumed")
	} else {
		s.log.Error("shared state store not usable; using local state (thread memory, limits and de-duplication are per replica until it is back)",
			"reason", reason, "err", err)
	}
	return up
}

// ErrMisconfigured is returned by Open when the server refuses this
// deployment for a reason waiting will not fix: a refused login, a TLS
// certificate that is not trusted, a host name that does not resolve.
var ErrMisconfigured = errors.New("shared state store misconfigured")

// refusals are the error replies that mean the server cannot keep state
// now: each is a failure like a lost connection. The value is the reason
// logged and shown.
var refusals = map[string]string{
	"OOM":         "out of memory (maxmemory reached)",
	"READONLY":    "read-only replica",
	"NOAUTH":      "authentication required",
	"WRONGPASS":   "authentication refused",
	"NOPERM":      "permission denied (ACL)",
	"LOADING":     "loading its dataset",
	"MISCONF":     "persistence failing (MISCONF)",
	"MASTERDOWN":  "replica without its primary",
	"BUSY":        "busy running a script",
	"CLUSTERDOWN": "cluster down",
	"TRYAGAIN":    "cluster resharding",
	"NOREPLICAS":  "not enough replicas",
}

// refusalCode returns the error code of a server reply that is one of the
// refusals ("" for any other error). A script's error carries the code of
// the command that failed inside it, after Redis's own prefix.
func refusalCode(err error) string {
	e, replied := errors.AsType[goredis.Error](err)
	if !replied {
		return ""
	}
	msg := e.Error()
	code, _, _ := strings.Cut(msg, " ")
	if _, ok := refusals[code]; ok {
		return code
	}
	if strings.HasPrefix(msg, "ERR ") || strings.HasPrefix(msg, "-") {
		for c := range refusals {
			if strings.Contains(msg, " "+c+" ") || strings.Contains(msg, "-"+c+" ") {
				return c
			}
		}
	}
	return ""
}

// failed says whether err means the server cannot be used: it could not be
// reached (go-redis reports timeouts, refused or broken connections and an
// exhausted pool as transport errors), or it replied with one of the
// refusals. A missing key, the caller's own cancellation and any other
// error reply are the command's own outcome.
func failed(err error) bool {
	if err == nil || errors.Is(err, goredis.Nil) || errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) {
		return false
	}
	if _, replied := errors.AsType[goredis.Error](err); replied {
		return refusalCode(err) != ""
	}
	return true
}

// failureReason names why err made the store unusable.
func failureReason(err error) string {
	if code := refusalCode(err); code != "" {
		return refusals[code]
	}
	return "unreachable"
}

// misconfigured names a failure at start that waiting will not fix, or "".
func misconfigured(err error) string {
	if err == nil {
		return ""
	}
	switch refusalCode(err) {
	case "NOAUTH", "WRONGPASS", "NOPERM":
		return "login refused (check the user and password in MEMDB_ORACLE_STATE_URL)"
	}
	if dns, ok := errors.AsType[*net.DNSError](err); ok && dns.IsNotFound {
		return "unknown host"
	}
	var unknownCA x509.UnknownAuthorityError
	var badCert x509.CertificateInvalidError
	var badHost x509.HostnameError
	var notTLS tls.RecordHeaderError
	if errors.As(err, &unknownCA) || errors.As(err, &badCert) || errors.As(err, &badHost) {
		return "TLS certificate not trusted (check MEMDB_ORACLE_STATE_CA_FILE)"
	}
	if errors.As(err, &notTLS) {
		return "the server does not speak TLS (use redis:// or enable TLS on the server)"
	}
	if _, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return "TLS certificate not trusted (check MEMDB_ORACLE_STATE_CA_FILE)"
	}
	return ""
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
