package bot_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chat is a platform that records what was posted, in order.
type chat struct {
	mu     sync.Mutex
	posted []string
	// dieAt ends the posting goroutine as a kill -9 would, before post
	// number dieAt (1-based) reaches the platform; 0 never.
	dieAt int
	fail  error
}

func (c *chat) post(_ context.Context, job *bot.PostJob, i int) (string, error) {
	c.mu.Lock()
	if c.fail != nil {
		c.mu.Unlock()
		return "", c.fail
	}
	if c.dieAt != 0 && len(c.posted)+1 == c.dieAt {
		c.dieAt = 0
		c.mu.Unlock()
		runtime.Goexit()
	}
	defer c.mu.Unlock()
	c.posted = append(c.posted, job.Posts[i].Kind)
	return fmt.Sprintf("ref-%d", len(c.posted)), nil
}

func (c *chat) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.posted)
}

func threePosts() *bot.PostJob {
	return &bot.PostJob{Channel: "C1", Posts: []bot.JobPost{{Kind: "card"}, {Kind: "chart"}, {Kind: "evidence"}}}
}

// postUntilDeath runs one answer's posts on a goroutine that dies before
// post dieAt, as the process would.
func postUntilDeath(t *testing.T, j *bot.Journal, key string, c *chat) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h, first, err := j.Begin(t.Context(), key, bot.JournalEntry{}, time.Hour)
		if err != nil || !first {
			t.Errorf("begin: first %v, %v", first, err)
			return
		}
		_ = h.Post(t.Context(), threePosts(), c.post)
	}()
	<-done
}

func TestAJobCutBetweenPostsIsCompletedOnceFromWhereItStopped(t *testing.T) {
	for _, tc := range []struct {
		name      string
		exclusive bool
		stale     time.Duration
		wait      time.Duration
	}{
		{name: "on a store this process alone opens, at once", exclusive: true, stale: time.Hour},
		{name: "on a shared store, once its holder stopped refreshing it", stale: 50 * time.Millisecond, wait: 80 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kv := bot.NewMemoryKV(nil)
			c := &chat{dieAt: 2}
			postUntilDeath(t, bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "A", Exclusive: tc.exclusive, Stale: tc.stale}), "job/1", c)
			if got := c.got(); !slices.Equal(got, []string{"card"}) {
				t.Fatalf("before the crash: %v", got)
			}
			time.Sleep(tc.wait)
			// Two runs after the crash sweep at once: one completes it.
			var wg sync.WaitGroup
			completed := make([]int, 2)
			for i := range completed {
				j := bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "A", Exclusive: tc.exclusive, Stale: tc.stale})
				wg.Go(func() {
					n, err := j.Resume(t.Context(), "job/", time.Hour, c.post)
					if err != nil {
						t.Error(err)
					}
					completed[i] = n
				})
			}
			wg.Wait()
			if got := c.got(); !slices.Equal(got, []string{"card", "chart", "evidence"}) || completed[0]+completed[1] != 1 {
				t.Fatalf("after the restart: posted %v, completed %v; want each post once, in order, by one run", got, completed)
			}
			again := bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "B", Exclusive: tc.exclusive, Stale: tc.stale})
			if n, _ := again.Resume(t.Context(), "job/", time.Hour, c.post); n != 0 || len(c.got()) != 3 {
				t.Fatalf("a later sweep completed %d more", n)
			}
			if _, res, _ := again.Claim(t.Context(), "job/1", time.Hour); res != bot.ClaimFinished {
				t.Fatalf("a redelivery of the finished job: %v, want finished", res)
			}
		})
	}
}

func TestAJobHeldByALiveRunIsLeftToIt(t *testing.T) {
	kv := bot.NewMemoryKV(nil)
	holder := bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "A", Stale: 100 * time.Millisecond, Renew: 10 * time.Millisecond})
	h, _, err := holder.Begin(t.Context(), "job/1", bot.JournalEntry{}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	other := bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "B", Stale: 100 * time.Millisecond})
	time.Sleep(250 * time.Millisecond) // past Stale: only the heartbeat keeps it
	if _, res, err := other.Claim(t.Context(), "job/1", time.Hour); res != bot.ClaimPending || err != nil {
		t.Fatalf("claim of a job whose holder renews it: %v %v, want pending", res, err)
	}
}

func TestAFailedPostGivesTheJobUp(t *testing.T) {
	kv := bot.NewMemoryKV(nil)
	j := bot.NewJournal(bot.JournalConfig{KV: kv, Holder: "A", Exclusive: true})
	h, _, _ := j.Begin(t.Context(), "job/1", bot.JournalEntry{}, time.Hour)
	refused := errors.New("channel_not_found")
	if err := h.Post(t.Context(), threePosts(), (&chat{fail: refused}).post); !errors.Is(err, refused) {
		t.Fatalf("post: %v", err)
	}
	if open, _ := bot.NewJournal(bot.JournalConfig{KV: kv, Exclusive: true}).Unfinished(t.Context(), "job/"); len(open) != 0 {
		t.Fatalf("a refused answer is retried after a restart: %v", open)
	}
}
