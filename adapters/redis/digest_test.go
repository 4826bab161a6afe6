package redis_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

type fixedDigest struct{}

func (fixedDigest) Compose(context.Context, *bot.DigestState) (bot.Digest, error) {
	return bot.Digest{Headline: "weekly digest", Details: "the details"}, nil
}

// channelPoster is one Slack channel both replicas post to. crashOnReply
// ends the posting goroutine between the headline and the details, as a
// kill -9 would: nothing after it runs, no marker is released.
type channelPoster struct {
	mu           sync.Mutex
	tops         []string
	replies      []string
	crashOnReply bool
}

func (p *channelPoster) Platform() string { return "slack" }

func (p *channelPoster) PostTop(_ context.Context, _, md string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tops = append(p.tops, md)
	return fmt.Sprintf("ts-%d", len(p.tops)), nil
}

func (p *channelPoster) PostReply(_ context.Context, _, thread, md string) error {
	p.mu.Lock()
	crash := p.crashOnReply
	p.crashOnReply = false
	if !crash {
		p.replies = append(p.replies, thread+": "+md)
	}
	p.mu.Unlock()
	if crash {
		runtime.Goexit()
	}
	return nil
}

func (p *channelPoster) counts() (int, int, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.tops), len(p.replies), append([]string(nil), p.replies...)
}

func publisher(st *redis.Store, poster bot.Poster) *bot.DigestPublisher {
	return bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: fixedDigest{}, KV: st.KV("digest"), Targets: []bot.DigestTarget{{Poster: poster, Channel: "CDIG"}},
		Attempts: 1, RetryEvery: 50 * time.Millisecond, ClaimStale: 300 * time.Millisecond,
	})
}

// Two replicas whose slot falls during a Redis outage post nothing during
// it (failing closed: a late digest beats a double one) and post the slot
// exactly once when the server is back.
func TestADigestSlotDuringAnOutageIsPostedOnceAfterIt(t *testing.T) {
	srv := redistest.Start(t)
	poster := &channelPoster{}
	replicas := []*bot.DigestPublisher{publisher(open(t, srv, nil), poster), publisher(open(t, srv, nil), poster)}
	srv.Stop()
	slot := time.Now().Truncate(time.Minute)
	errs := make(chan error, 2)
	for _, p := range replicas {
		go func() { errs <- p.PublishUntilPosted(t.Context(), slot, time.Now().Add(time.Minute)) }()
	}
	time.Sleep(400 * time.Millisecond) // both try, and fail, during the outage
	if tops, _, _ := poster.counts(); tops != 0 {
		t.Fatalf("%d digests posted during the outage", tops)
	}
	srv.Restart()
	for range replicas {
		if err := <-errs; err != nil {
			t.Fatalf("after the outage: %v", err)
		}
	}
	if tops, replies, _ := poster.counts(); tops != 1 || replies != 1 {
		t.Fatalf("the slot posted %d headlines and %d details, want one of each", tops, replies)
	}
}

// A run that stopped between the headline and its details leaves the
// slot marker saying so; the next run (after the restart) completes the
// details under that headline once, and later runs skip the slot.
func TestADigestCutBetweenItsTwoPostsIsCompletedOnceAfterARestart(t *testing.T) {
	srv := redistest.Start(t)
	poster := &channelPoster{crashOnReply: true}
	slot := time.Now().Truncate(time.Minute)
	_, _ = publisher(open(t, srv, nil), poster).Publish(t.Context(), slot)
	if tops, replies, _ := poster.counts(); tops != 1 || replies != 0 {
		t.Fatalf("before the crash: %d headlines, %d details", tops, replies)
	}

	restarted := publisher(open(t, srv, nil), poster)
	if err := restarted.PublishUntilPosted(t.Context(), slot, time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := publisher(open(t, srv, nil), poster).Publish(t.Context(), slot); err != nil {
		t.Fatal(err)
	}
	tops, replies, got := poster.counts()
	if tops != 1 || replies != 1 || got[0] != "ts-1: the details" {
		t.Fatalf("after the restart: %d headlines, details %q; want the details once, under the first headline", tops, got)
	}
}
