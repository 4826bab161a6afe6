package bottest

import (
	"slices"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// KVHarness is one fresh, empty KV under test. Advance moves the KV's
// clock; nil when the KV follows real time, which skips the expiry cases.
type KVHarness struct {
	KV      bot.KV
	Advance func(time.Duration)
}

// TestKV is the conformance test every bot.KV implementation runs (the
// Badger-backed analytics.KV, MemKV, a shared Redis/Valkey store).
func TestKV(t *testing.T, open func(t *testing.T) KVHarness) {
	t.Run("a missing key is absent, not an error", func(t *testing.T) {
		kv := open(t).KV
		v, ok, err := kv.Get(t.Context(), "nope")
		if err != nil || ok || v != nil {
			t.Fatalf("Get = %q, %v, %v", v, ok, err)
		}
	})
	t.Run("a value set comes back intact and later changes to it do not leak in", func(t *testing.T) {
		kv := open(t).KV
		val := []byte("plan")
		if err := kv.Set(t.Context(), "a/1", val, 0); err != nil {
			t.Fatal(err)
		}
		val[0] = 'X'
		got, ok, err := kv.Get(t.Context(), "a/1")
		if err != nil || !ok || string(got) != "plan" {
			t.Fatalf("Get = %q, %v, %v", got, ok, err)
		}
	})
	t.Run("set if absent writes once", func(t *testing.T) {
		kv := open(t).KV
		first, err1 := kv.SetIfAbsent(t.Context(), "once", []byte("1"), 0)
		second, err2 := kv.SetIfAbsent(t.Context(), "once", []byte("2"), 0)
		got, _, _ := kv.Get(t.Context(), "once")
		if err1 != nil || err2 != nil || !first || second || string(got) != "1" {
			t.Fatalf("first %v %v, second %v %v, value %q", first, err1, second, err2, got)
		}
	})
	t.Run("delete removes a key and deleting a missing one is fine", func(t *testing.T) {
		kv := open(t).KV
		_ = kv.Set(t.Context(), "gone", []byte("x"), 0)
		if err := kv.Delete(t.Context(), "gone"); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := kv.Get(t.Context(), "gone"); ok {
			t.Fatal("still there")
		}
		if err := kv.Delete(t.Context(), "never"); err != nil {
			t.Fatalf("deleting a missing key: %v", err)
		}
	})
	t.Run("keys lists one prefix, sorted", func(t *testing.T) {
		kv := open(t).KV
		for _, k := range []string{"t/b", "t/a", "u/a", "t/c"} {
			_ = kv.Set(t.Context(), k, []byte("x"), 0)
		}
		got, err := kv.Keys(t.Context(), "t/")
		if err != nil || !slices.Equal(got, []string{"t/a", "t/b", "t/c"}) {
			t.Fatalf("Keys = %v, %v", got, err)
		}
	})
	t.Run("a value expires after its time to live", func(t *testing.T) {
		h := open(t)
		if h.Advance == nil {
			t.Skip("KV follows real time")
		}
		_ = h.KV.Set(t.Context(), "ttl", []byte("x"), time.Minute)
		h.Advance(59 * time.Second)
		if _, ok, _ := h.KV.Get(t.Context(), "ttl"); !ok {
			t.Fatal("expired early")
		}
		h.Advance(2 * time.Second)
		if _, ok, _ := h.KV.Get(t.Context(), "ttl"); ok {
			t.Fatal("did not expire")
		}
		if ok, _ := h.KV.SetIfAbsent(t.Context(), "ttl", []byte("y"), 0); !ok {
			t.Fatal("an expired key must count as absent")
		}
	})
}
