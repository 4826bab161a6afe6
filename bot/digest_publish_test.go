package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// digestMemKV is an in-memory bot.KV for digest tests (expiry is not needed).
type digestMemKV struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newDigestMemKV() *digestMemKV { return &digestMemKV{m: map[string][]byte{}} }

func (kv *digestMemKV) Get(_ context.Context, key string) ([]byte, bool, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	v, ok := kv.m[key]
	return v, ok, nil
}

func (kv *digestMemKV) Set(_ context.Context, key string, value []byte, _ time.Duration) error {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	kv.m[key] = value
	return nil
}

func (kv *digestMemKV) SetIfAbsent(_ context.Context, key string, value []byte, _ time.Duration) (bool, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	if _, ok := kv.m[key]; ok {
		return false, nil
	}
	kv.m[key] = value
	return true, nil
}

func (kv *digestMemKV) Delete(_ context.Context, key string) error {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	delete(kv.m, key)
	return nil
}

func (kv *digestMemKV) Keys(_ context.Context, prefix string) ([]string, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	var out []string
	for k := range kv.m {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// recordingPoster records posts with the time they happened; failTop makes
// the first N top-level posts fail.
type recordingPoster struct {
	platform string
	mu       sync.Mutex
	posts    []recordedPost
	failTop  int
}

type recordedPost struct {
	At      time.Time
	Channel string
	Thread  string
	Text    string
}

func (p *recordingPoster) Platform() string { return p.platform }

func (p *recordingPoster) PostTop(_ context.Context, channel, markdown string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failTop > 0 {
		p.failTop--
		return "", errors.New("channel_not_found")
	}
	p.posts = append(p.posts, recordedPost{At: time.Now(), Channel: channel, Text: markdown})
	return fmt.Sprintf("ts-%d", len(p.posts)), nil
}

func (p *recordingPoster) PostReply(_ context.Context, channel, thread, markdown string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, recordedPost{At: time.Now(), Channel: channel, Thread: thread, Text: markdown})
	return nil
}

func (p *recordingPoster) snapshot() []recordedPost {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.posts)
}

// staticComposer returns a fixed digest whose headline names the previous state.
type staticComposer struct{}

func (staticComposer) Compose(_ context.Context, last *DigestState) (Digest, error) {
	prefix := "first digest"
	if last != nil {
		prefix = "after " + last.Fingerprint
	}
	return Digest{
		Headline: "headline (" + prefix + ")",
		Details:  "details",
		State:    DigestState{Fingerprint: "fp1", Runs: map[string]RunTag{}},
	}, nil
}

func newTestPublisher(kv KV, log *slog.Logger, targets ...DigestTarget) *DigestPublisher {
	return NewDigestPublisher(DigestPublisherConfig{
		Composer: staticComposer{}, KV: kv, Targets: targets, Logger: log,
		Backoff: func(int) time.Duration { return time.Second },
	})
}

func TestDigestScheduleFiresAtTheConfiguredInstantsInItsTimeZone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts at 2000-01-01 00:00 UTC, a Saturday.
		berlin, err := time.LoadLocation("Europe/Berlin")
		if err != nil {
			t.Skip("no time zone data:", err)
		}
		slack := &recordingPoster{platform: "slack"}
		p := newTestPublisher(newDigestMemKV(), nil, DigestTarget{slack, "C1"})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- p.Run(ctx, DigestSchedule{Cron: "0 9 * * MON", Location: berlin}) }()

		time.Sleep(15 * 24 * time.Hour) // two Mondays and change
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		var tops []time.Time
		for _, post := range slack.snapshot() {
			if post.Thread == "" {
				tops = append(tops, post.At.UTC())
			}
		}
		want := []time.Time{
			time.Date(2000, 1, 3, 8, 0, 0, 0, time.UTC), // 09:00 in Berlin (CET, UTC+1)
			time.Date(2000, 1, 10, 8, 0, 0, 0, time.UTC),
		}
		if !slices.Equal(tops, want) {
			t.Fatalf("headlines posted at %v, want %v", tops, want)
		}
	})
}

func TestDigestScheduleAcceptsACronTZPrefix(t *testing.T) {
	ps, err := DigestSchedule{Cron: "CRON_TZ=America/New_York 30 8 * * *"}.parse()
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	got := ps.next.Next(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	want := time.Date(2026, 7, 1, 12, 30, 0, 0, time.UTC) // 08:30 EDT
	if !got.Equal(want) {
		t.Fatalf("next = %v, want %v", got, want)
	}
}

func TestDigestScheduleRejectsBadExpressions(t *testing.T) {
	for _, spec := range []string{"", "every monday", "61 9 * * *", "CRON_TZ=Mars/Olympus 0 9 * * *"} {
		t.Run(spec, func(t *testing.T) {
			_, err := DigestSchedule{Cron: spec}.parse()
			if !errors.Is(err, ErrBadSchedule) {
				t.Fatalf("parse(%q) = %v, want ErrBadSchedule", spec, err)
			}
		})
	}
}

func TestDigestSlotPostsOnceAcrossARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		kv := newDigestMemKV()
		slack := &recordingPoster{platform: "slack"}
		slot := time.Date(2000, 1, 1, 9, 0, 0, 0, time.UTC)

		first := newTestPublisher(kv, nil, DigestTarget{slack, "C1"})
		if _, err := first.Publish(t.Context(), slot); err != nil {
			t.Fatal(err)
		}
		// A new publisher on the same KV stands for the process after a restart.
		second := newTestPublisher(kv, nil, DigestTarget{slack, "C1"})
		rep, err := second.Publish(t.Context(), slot)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Results[0].Skipped {
			t.Fatalf("second publish of the same slot was not skipped: %+v", rep.Results)
		}
		if n := len(slack.snapshot()); n != 2 {
			t.Fatalf("got %d posts, want 2 (one headline, one reply)", n)
		}
	})
}

func TestDigestMissedSlotIsCaughtUpOnceOnStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		kv := newDigestMemKV()
		slack := &recordingPoster{platform: "slack"}
		sched := DigestSchedule{Cron: "0 9 * * *", CatchUp: true}

		runFor := func(d time.Duration) {
			p := newTestPublisher(kv, nil, DigestTarget{slack, "C1"})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- p.Run(ctx, sched) }()
			time.Sleep(d)
			synctest.Wait()
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		runFor(10 * time.Hour)     // up 00:00–10:00: posts the 09:00 slot of day 1
		time.Sleep(48 * time.Hour) // down for two days: two slots missed
		runFor(time.Hour)          // start-up posts the latest missed slot once
		runFor(time.Hour)          // a second restart posts nothing new

		var tops []time.Time
		for _, post := range slack.snapshot() {
			if post.Thread == "" {
				tops = append(tops, post.At.UTC())
			}
		}
		want := []time.Time{
			time.Date(2000, 1, 1, 9, 0, 0, 0, time.UTC),
			time.Date(2000, 1, 3, 10, 0, 0, 0, time.UTC), // caught up at start-up
		}
		if !slices.Equal(tops, want) {
			t.Fatalf("headlines at %v, want %v", tops, want)
		}
	})
}

func TestDigestGoesToEveryChannelHeadlineThenDetailsInItsThread(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slack := &recordingPoster{platform: "slack"}
		discord := &recordingPoster{platform: "discord"}
		p := newTestPublisher(newDigestMemKV(), nil,
			DigestTarget{slack, "C-infra"}, DigestTarget{slack, "C-db"}, DigestTarget{discord, "D-1"})
		if _, err := p.Publish(t.Context(), time.Time{}); err != nil {
			t.Fatal(err)
		}
		for _, ch := range []struct {
			p       *recordingPoster
			channel string
		}{{slack, "C-infra"}, {slack, "C-db"}, {discord, "D-1"}} {
			var got []recordedPost
			for _, post := range ch.p.snapshot() {
				if post.Channel == ch.channel {
					got = append(got, post)
				}
			}
			if len(got) != 2 || got[0].Thread != "" || got[1].Thread == "" || got[1].Text != "details" {
				t.Fatalf("%s %s: posts %+v, want headline then details in its thread", ch.p.platform, ch.channel, got)
			}
		}
	})
}

func TestDigestFailingChannelIsRetriedAndLoggedWithoutBlockingOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		broken := &recordingPoster{platform: "slack", failTop: 100}
		healthy := &recordingPoster{platform: "discord"}
		p := newTestPublisher(newDigestMemKV(), log, DigestTarget{broken, "C-gone"}, DigestTarget{healthy, "D-1"})

		start := time.Now()
		rep, err := p.Publish(t.Context(), time.Date(2000, 1, 1, 9, 0, 0, 0, time.UTC))
		if err == nil {
			t.Fatal("want an error naming the failed channel")
		}
		if rep.Results[0].Attempts != 3 || rep.Results[0].Posted {
			t.Fatalf("broken channel result %+v, want 3 attempts and not posted", rep.Results[0])
		}
		posts := healthy.snapshot()
		if len(posts) != 2 || !posts[0].At.Equal(start) {
			t.Fatalf("healthy channel posts %+v, want both at once (not after the retries)", posts)
		}
		if !strings.Contains(logs.String(), "digest not posted") || !strings.Contains(logs.String(), "slack:C-gone") {
			t.Fatalf("failure not logged with its channel:\n%s", logs.String())
		}
		// The failed channel's slot marker was released so a later run may retry it.
		broken.failTop = 0
		rep, err = p.Publish(t.Context(), time.Date(2000, 1, 1, 9, 0, 0, 0, time.UTC))
		if err != nil || !rep.Results[0].Posted || !rep.Results[1].Skipped {
			t.Fatalf("retry of the slot: %+v, %v; want the broken channel posted and the healthy one skipped", rep.Results, err)
		}
	})
}
