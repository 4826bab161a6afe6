package analytics_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

func openKVStore(t *testing.T) *analytics.Store {
	t.Helper()
	s, err := analytics.Open(t.Context(), analytics.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestKVStoresGetsAndDeletesValues(t *testing.T) {
	ctx := t.Context()
	kv := openKVStore(t).KV("threads")
	if _, ok, err := kv.Get(ctx, "t1"); ok || err != nil {
		t.Fatalf("Get of a missing key = %v, %v", ok, err)
	}
	val := []byte("plan-1")
	if err := kv.Set(ctx, "t1", val, 0); err != nil {
		t.Fatal(err)
	}
	val[0] = 'X' // the store keeps its own copy
	got, ok, err := kv.Get(ctx, "t1")
	if err != nil || !ok || string(got) != "plan-1" {
		t.Fatalf("Get = %q, %v, %v; want plan-1", got, ok, err)
	}
	if err := kv.Set(ctx, "t1", []byte("plan-2"), 0); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := kv.Get(ctx, "t1"); string(got) != "plan-2" {
		t.Errorf("after overwrite Get = %q", got)
	}
	if err := kv.Delete(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := kv.Get(ctx, "t1"); ok {
		t.Error("deleted key still present")
	}
	if err := kv.Delete(ctx, "never-set"); err != nil {
		t.Errorf("deleting a missing key: %v", err)
	}
	if err := kv.Set(ctx, "", nil, 0); err == nil {
		t.Error("empty key accepted")
	}
}

func TestKVNamespacesDoNotSeeEachOtherOrTheRuns(t *testing.T) {
	ctx := t.Context()
	s := openKVStore(t)
	a, b := s.KV("a"), s.KV("ab")
	for _, k := range []string{"x/2", "x/1", "y"} {
		if err := a.Set(ctx, k, []byte(k), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Set(ctx, "x/3", []byte("b"), 0); err != nil {
		t.Fatal(err)
	}
	keys, err := a.Keys(ctx, "x/")
	if err != nil || !slices.Equal(keys, []string{"x/1", "x/2"}) {
		t.Errorf("a.Keys(x/) = %v, %v", keys, err)
	}
	keys, err = b.Keys(ctx, "")
	if err != nil || !slices.Equal(keys, []string{"x/3"}) {
		t.Errorf("b.Keys() = %v, %v", keys, err)
	}
	if _, ok, _ := b.Get(ctx, "y"); ok {
		t.Error("namespace ab sees a's key")
	}
	if _, err := s.ImportDefault(ctx); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs()) != 478 {
		t.Errorf("runs = %d after KV writes, want 478", len(s.Runs()))
	}
}

func TestSetIfAbsentWritesOnlyOnceUnderContention(t *testing.T) {
	ctx := t.Context()
	kv := openKVStore(t).KV("dedup")
	var wg sync.WaitGroup
	wins := make(chan int, 16)
	for i := range 16 {
		wg.Go(func() {
			ok, err := kv.SetIfAbsent(ctx, "event-1", []byte{byte(i)}, 0)
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins <- i
			}
		})
	}
	wg.Wait()
	close(wins)
	var winners []int
	for w := range wins {
		winners = append(winners, w)
	}
	if len(winners) != 1 {
		t.Fatalf("%d writers won, want exactly 1", len(winners))
	}
	got, _, _ := kv.Get(ctx, "event-1")
	if len(got) != 1 || int(got[0]) != winners[0] {
		t.Errorf("stored %v, winner %d", got, winners[0])
	}
}

func TestKVEntriesExpireAfterTheirTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s, err := analytics.Open(ctx, analytics.Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		kv := s.KV("ratelimit")
		if err := kv.Set(ctx, "u1", []byte("1"), 10*time.Second); err != nil {
			t.Fatal(err)
		}
		if ok, err := kv.SetIfAbsent(ctx, "u2", []byte("1"), 10*time.Second); !ok || err != nil {
			t.Fatalf("SetIfAbsent = %v, %v", ok, err)
		}
		if err := kv.Set(ctx, "forever", []byte("1"), 0); err != nil {
			t.Fatal(err)
		}
		time.Sleep(9 * time.Second)
		if _, ok, _ := kv.Get(ctx, "u1"); !ok {
			t.Error("u1 expired before its TTL")
		}
		time.Sleep(2 * time.Second)
		if _, ok, _ := kv.Get(ctx, "u1"); ok {
			t.Error("u1 still present after its TTL")
		}
		if ok, err := kv.SetIfAbsent(ctx, "u2", []byte("2"), 0); !ok || err != nil {
			t.Errorf("SetIfAbsent on an expired key = %v, %v; want a write", ok, err)
		}
		keys, _ := kv.Keys(ctx, "")
		if !slices.Equal(keys, []string{"forever", "u2"}) {
			t.Errorf("keys = %v", keys)
		}
	})
}
