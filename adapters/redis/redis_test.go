package redis_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// lockedBuffer collects logs written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func open(t testing.TB, srv *redistest.Server, logs *lockedBuffer) *redis.Store {
	t.Helper()
	opts := redis.Options{URL: srv.URL(), Probe: 50 * time.Millisecond, Timeout: 300 * time.Millisecond}
	if logs != nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	s, err := redis.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestKVConformance(t *testing.T) {
	st := open(t, redistest.Start(t), nil)
	var n atomic.Int64
	bottest.TestKV(t, func(t *testing.T) bottest.KVHarness {
		return bottest.KVHarness{KV: st.KV(fmt.Sprintf("kv%d", n.Add(1)))}
	})
}

func TestThreadStoreConformance(t *testing.T) {
	st := open(t, redistest.Start(t), nil)
	var n atomic.Int64
	bottest.TestThreadStore(t, func(t *testing.T) bottest.ThreadHarness {
		return bottest.ThreadHarness{Store: bot.NewKVThreads(st.KV(fmt.Sprintf("threads%d", n.Add(1))), 4, time.Hour), MaxPlans: 4, TTL: time.Hour}
	})
}

func TestAValueExpiresOnTheServerAfterItsTimeToLive(t *testing.T) {
	kv := open(t, redistest.Start(t), nil).KV("ttl")
	if err := kv.Set(t.Context(), "k", []byte("v"), 150*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := kv.Get(t.Context(), "k"); !ok {
		t.Fatal("expired at once")
	}
	eventually(t, 2*time.Second, "the key to expire", func() bool {
		_, ok, _ := kv.Get(t.Context(), "k")
		return !ok
	})
	if ok, _ := kv.SetIfAbsent(t.Context(), "k", []byte("w"), 0); !ok {
		t.Fatal("an expired key must count as absent")
	}
}

func TestKeysWithPatternCharactersAreListedLiterally(t *testing.T) {
	kv := open(t, redistest.Start(t), nil).KV("glob")
	for _, k := range []string{"a*/1", "a*/2", "ab/1", "a?/1"} {
		_ = kv.Set(t.Context(), k, []byte("x"), 0)
	}
	got, err := kv.Keys(t.Context(), "a*/")
	if err != nil || strings.Join(got, ",") != "a*/1,a*/2" {
		t.Fatalf("Keys = %v, %v", got, err)
	}
}

func TestAnACLUserWithAPasswordConnects(t *testing.T) {
	srv := redistest.Start(t)
	admin := open(t, srv, nil)
	if err := admin.KV("x").Set(t.Context(), "probe", []byte("1"), 0); err != nil {
		t.Fatal(err)
	}
	if err := redistest.AddUser(t, srv, "oracle", "s3cret"); err != nil {
		t.Fatal(err)
	}
	st, err := redis.Open(t.Context(), redis.Options{URL: "redis://oracle:s3cret@" + srv.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(t.Context()); err != nil || !st.Up() {
		t.Fatalf("the ACL user is refused: %v", err)
	}
	bad, err := redis.Open(t.Context(), redis.Options{URL: "redis://oracle:wrong@" + srv.Addr()})
	if err == nil {
		bad.Close()
		t.Fatal("a wrong password is accepted at start")
	}
	if !errors.Is(err, redis.ErrMisconfigured) || !strings.Contains(err.Error(), "login refused") ||
		strings.Contains(err.Error(), "wrong") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a wrong password: Open = %q, want one line saying the login was refused, without the password", err)
	}
	if _, err := redis.Open(t.Context(), redis.Options{URL: "http://user:pw@host"}); err == nil || strings.Contains(err.Error(), "pw") {
		t.Fatalf("a bad URL: %v", err)
	}
}

func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
