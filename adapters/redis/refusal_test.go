package redis_test

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// A server that answers every write with an error reply is as unusable as
// one that is gone: each refusal below, made on a real redis-server, sends
// the replica to its local state, marks it down for /healthz and
// memdb_oracle_shared_state_up (Up, Check), logs once, and heals by itself.
func TestAServerThatRefusesWritesIsAFailureLikeALostConnection(t *testing.T) {
	cli := func(t *testing.T, srv *redistest.Server, args ...string) {
		t.Helper()
		if _, err := redistest.Command(t, srv, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, reason string
		url          func(srv *redistest.Server) string
		refuse, heal func(t *testing.T, srv *redistest.Server)
	}{
		{name: "out of memory (OOM)", reason: "out of memory",
			refuse: func(t *testing.T, srv *redistest.Server) {
				cli(t, srv, "CONFIG", "SET", "maxmemory-policy", "noeviction")
				cli(t, srv, "CONFIG", "SET", "maxmemory", "1")
			},
			heal: func(t *testing.T, srv *redistest.Server) { cli(t, srv, "CONFIG", "SET", "maxmemory", "0") }},
		{name: "a read-only replica after a failover (READONLY)", reason: "read-only replica",
			refuse: func(t *testing.T, srv *redistest.Server) { cli(t, srv, "REPLICAOF", "127.0.0.1", "1") },
			heal:   func(t *testing.T, srv *redistest.Server) { cli(t, srv, "REPLICAOF", "NO", "ONE") }},
		{name: "a password set on the server (NOAUTH)", reason: "authentication required",
			refuse: func(t *testing.T, srv *redistest.Server) { redistest.RequirePass(t, srv, "rotated-password") },
			heal:   func(t *testing.T, srv *redistest.Server) { cli(t, srv, "CONFIG", "SET", "requirepass", "") }},
		{name: "the replica's password rotated away (WRONGPASS)", reason: "authentication refused",
			url: func(srv *redistest.Server) string {
				if err := redistest.AddUser(t, srv, "oracle", "first-password"); err != nil {
					t.Fatal(err)
				}
				return "redis://oracle:first-password@" + srv.Addr()
			},
			refuse: func(t *testing.T, srv *redistest.Server) {
				cli(t, srv, "ACL", "SETUSER", "oracle", "resetpass", ">second-password")
				cli(t, srv, "CLIENT", "KILL", "USER", "oracle")
			},
			heal: func(t *testing.T, srv *redistest.Server) { cli(t, srv, "ACL", "SETUSER", "oracle", ">first-password") }},
		{name: "snapshots failing on disk (MISCONF)", reason: "persistence failing",
			refuse: func(t *testing.T, srv *redistest.Server) {
				dir, _ := redistest.Command(t, srv, "CONFIG", "GET", "dir")
				lines := strings.Split(dir, "\n")
				if err := os.RemoveAll(strings.TrimSpace(lines[len(lines)-1])); err != nil {
					t.Fatal(err)
				}
				cli(t, srv, "CONFIG", "SET", "save", "3600 1")
				cli(t, srv, "BGSAVE")
				eventually(t, 5*time.Second, "the snapshot to fail", func() bool {
					info, _ := redistest.Command(t, srv, "INFO", "persistence")
					return strings.Contains(info, "rdb_last_bgsave_status:err")
				})
			},
			heal: func(t *testing.T, srv *redistest.Server) {
				cli(t, srv, "CONFIG", "SET", "stop-writes-on-bgsave-error", "no")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.StartWith(t, "--dir", dataDir(t))
			url := srv.URL()
			if tc.url != nil {
				url = tc.url(srv)
			}
			var logs lockedBuffer
			st, err := redis.Open(t.Context(), redis.Options{URL: url, Probe: 50 * time.Millisecond, Timeout: 300 * time.Millisecond,
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			local := bottest.NewMemKV(nil)
			kv := st.Shared("slack", local)
			if ok, err := kv.SetIfAbsent(t.Context(), "event/before", []byte("1"), time.Hour); !ok || err != nil || !st.Up() {
				t.Fatalf("before: %v %v, up %v", ok, err, st.Up())
			}

			tc.refuse(t, srv)
			for i := range 20 {
				if ok, err := kv.SetIfAbsent(t.Context(), fmt.Sprintf("event/%d", i), []byte("1"), time.Hour); !ok || err != nil {
					t.Fatalf("write %d while refused: %v %v, want it kept locally", i, ok, err)
				}
			}
			if _, ok, _ := local.Get(t.Context(), "event/19"); !ok {
				t.Fatal("not written to local state")
			}
			if st.Up() || st.Fallbacks() == 0 || !strings.Contains(st.Reason(), tc.reason) {
				t.Fatalf("up %v, fallbacks %d, reason %q; want down for %q", st.Up(), st.Fallbacks(), st.Reason(), tc.reason)
			}
			if err := st.Check(t.Context()); err == nil {
				t.Fatal("the health check passes while every write is refused")
			}
			// Limits hold on the replica's own buckets: never fail open.
			limiter := bot.NewLimiter(bot.Limits{UserPerMinute: 0.01, UserBurst: 1}, local, nil).WithStore(st.Limits())
			msg := bot.Message{Platform: "http", User: "addr:192.0.2.7"}
			if err := limiter.Allow(t.Context(), msg); err != nil {
				t.Fatalf("the first request while refused: %v", err)
			}
			if _, limited := errors.AsType[*bot.RateLimitError](limiter.Allow(t.Context(), msg)); !limited {
				t.Fatal("the second request within a burst of 1 was admitted: limits fail open")
			}
			if n := strings.Count(logs.String(), "shared state store not usable"); n != 1 {
				t.Fatalf("logged %d times, want once:\n%s", n, logs.String())
			}

			tc.heal(t, srv)
			eventually(t, 5*time.Second, "the probe to find the server usable again", st.Up)
			if ok, err := kv.SetIfAbsent(t.Context(), "event/after", []byte("1"), time.Hour); !ok || err != nil {
				t.Fatalf("after: %v %v", ok, err)
			}
			if _, ok, _ := st.KV("slack").Get(t.Context(), "event/after"); !ok {
				t.Fatal("a write after recovery is not on the server")
			}
			eventually(t, 3*time.Second, "the outage's local writes to be handed to the server", func() bool {
				_, ok, _ := st.KV("slack").Get(t.Context(), "event/19")
				return ok
			})
			if n := strings.Count(logs.String(), "usable again"); n != 1 {
				t.Fatalf("recovery logged %d times:\n%s", n, logs.String())
			}
		})
	}
}

// A server still loading its dataset (LOADING) after a restart is not yet
// usable: the replica starts on local state and switches once it is.
func TestAServerStillLoadingItsDatasetIsUsedOnceLoaded(t *testing.T) {
	dir := dataDir(t)
	srv := redistest.StartWith(t, "--dir", dir, "--loading-process-events-interval-bytes", "1024")
	seed := open(t, srv, nil).KV("seed")
	// Random bytes, so the snapshot does not compress and loading yields
	// to clients after every key.
	value := make([]byte, 2048)
	for i := range 150 {
		_, _ = rand.Read(value)
		if err := seed.Set(t.Context(), fmt.Sprint(i), value, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := redistest.Command(t, srv, "SAVE"); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	srv.RestartWith("--key-load-delay", "20000") // 20 ms a key: 3 s of LOADING

	var logs lockedBuffer
	st, err := redis.Open(t.Context(), redis.Options{URL: srv.URL(), Probe: 50 * time.Millisecond, Timeout: time.Second,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatalf("a loading server is not a misconfiguration: %v", err)
	}
	defer st.Close()
	if st.Up() || !strings.Contains(st.Reason(), "loading") {
		t.Fatalf("up %v, reason %q; want down while loading\n%s", st.Up(), st.Reason(), logs.String())
	}
	local := bottest.NewMemKV(nil)
	if err := st.Shared("threads", local).Set(t.Context(), "t", []byte("plan"), 0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := local.Get(t.Context(), "t"); !ok {
		t.Fatal("not kept locally while loading")
	}
	eventually(t, 10*time.Second, "the server to finish loading", st.Up)
	if v, ok, err := st.KV("seed").Get(t.Context(), "149"); err != nil || !ok || len(v) != len(value) {
		t.Fatalf("after loading: %d bytes, %v, %v", len(v), ok, err)
	}
}

// dataDir is a directory for one server's snapshot.
func dataDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "redis")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}
