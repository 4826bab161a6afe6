package bottest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// ThreadHarness is one fresh ThreadStore under test with the bounds it was
// built with. Advance moves the store's clock; nil when the store follows
// real time, which skips the expiry cases.
type ThreadHarness struct {
	Store    bot.ThreadStore
	MaxPlans int
	TTL      time.Duration
	Advance  func(time.Duration)
}

// TestThreadStore is the conformance test every bot.ThreadStore
// implementation runs (idea: perkeep kvtest). open must return a fresh,
// empty store for each call.
func TestThreadStore(t *testing.T, open func(t *testing.T) ThreadHarness) {
	plan := func(i int) planner.Plan {
		return planner.Plan{Intent: planner.IntentLookup, Question: fmt.Sprintf("question %d", i),
			Slots: planner.Slots{Engines: []string{"valkey"}, Cores: []int{i}}}
	}
	t.Run("an unknown thread has no plans and no error", func(t *testing.T) {
		h := open(t)
		got, err := h.Store.Plans(t.Context(), "cli//nobody")
		if err != nil || len(got) != 0 {
			t.Fatalf("Plans = %v, %v; want none, nil", got, err)
		}
	})
	t.Run("appended plans come back oldest first and intact", func(t *testing.T) {
		h := open(t)
		for i := 1; i <= 2; i++ {
			if err := h.Store.Append(t.Context(), "cli//t1", plan(i)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := h.Store.Plans(t.Context(), "cli//t1")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Question != "question 1" || got[1].Question != "question 2" {
			t.Fatalf("Plans = %+v", got)
		}
		if got[1].Slots.Engines[0] != "valkey" || got[1].Slots.Cores[0] != 2 || got[1].Intent != planner.IntentLookup {
			t.Fatalf("plan slots not kept: %+v", got[1])
		}
	})
	t.Run("a thread keeps only its newest plans up to the bound", func(t *testing.T) {
		h := open(t)
		for i := 1; i <= h.MaxPlans+3; i++ {
			if err := h.Store.Append(t.Context(), "slack/C1/T1", plan(i)); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := h.Store.Plans(t.Context(), "slack/C1/T1")
		if len(got) != h.MaxPlans {
			t.Fatalf("kept %d plans, want %d", len(got), h.MaxPlans)
		}
		if want := fmt.Sprintf("question %d", h.MaxPlans+3); got[len(got)-1].Question != want {
			t.Fatalf("newest = %q, want %q", got[len(got)-1].Question, want)
		}
	})
	t.Run("threads with different keys never share plans", func(t *testing.T) {
		h := open(t)
		_ = h.Store.Append(t.Context(), "discord/C/A", plan(1))
		_ = h.Store.Append(t.Context(), "discord/C/B", plan(2))
		a, _ := h.Store.Plans(t.Context(), "discord/C/A")
		b, _ := h.Store.Plans(t.Context(), "discord/C/B")
		if len(a) != 1 || len(b) != 1 || a[0].Question == b[0].Question {
			t.Fatalf("A = %+v, B = %+v", a, b)
		}
	})
	t.Run("reset forgets a thread and resetting an unknown one is fine", func(t *testing.T) {
		h := open(t)
		_ = h.Store.Append(t.Context(), "cli//t2", plan(1))
		if err := h.Store.Reset(t.Context(), "cli//t2"); err != nil {
			t.Fatal(err)
		}
		if got, _ := h.Store.Plans(t.Context(), "cli//t2"); len(got) != 0 {
			t.Fatalf("after reset: %+v", got)
		}
		if err := h.Store.Reset(t.Context(), "cli//never"); err != nil {
			t.Fatalf("reset unknown: %v", err)
		}
	})
	t.Run("a thread expires after its time to live and each message restarts it", func(t *testing.T) {
		h := open(t)
		if h.Advance == nil {
			t.Skip("store follows real time")
		}
		_ = h.Store.Append(t.Context(), "cli//t3", plan(1))
		h.Advance(h.TTL - time.Second)
		_ = h.Store.Append(t.Context(), "cli//t3", plan(2))
		h.Advance(h.TTL - time.Second)
		if got, _ := h.Store.Plans(t.Context(), "cli//t3"); len(got) != 2 {
			t.Fatalf("thread expired early: %d plans", len(got))
		}
		h.Advance(2 * time.Second)
		if got, _ := h.Store.Plans(t.Context(), "cli//t3"); len(got) != 0 {
			t.Fatalf("thread did not expire: %d plans", len(got))
		}
	})
}

// TestConcurrentFollowUps appends n follow-ups at once to one thread,
// spread over replicas (ThreadStores over the same backing state, each
// bounded to at least n plans), and fails when any of them is lost.
func TestConcurrentFollowUps(t *testing.T, n int, replicas ...bot.ThreadStore) {
	t.Helper()
	const key = "slack/C1/1700000000.000100"
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			p := planner.Plan{Intent: planner.IntentLookup, Question: fmt.Sprintf("follow-up %d", i)}
			errs <- replicas[i%len(replicas)].Append(t.Context(), key, p)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for r, s := range replicas {
		got, err := s.Plans(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, p := range got {
			seen[p.Question] = true
		}
		if len(seen) != n {
			t.Fatalf("replica %d sees %d of %d concurrent follow-ups (%d lost)", r, len(seen), n, n-len(seen))
		}
	}
}
