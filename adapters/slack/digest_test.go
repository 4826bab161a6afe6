package slack

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheDigestReachesEveryChannelThroughSlack publishes the real digest
// (composed from the embedded runs) through the Slack poster to the fake
// Slack: headline at the top of each channel, details in its thread; a
// channel Slack refuses is retried and logged without holding up the others.
func TestTheDigestReachesEveryChannelThroughSlack(t *testing.T) {
	fs := newFakeSlack(t)
	fs.mu.Lock()
	fs.refuse["C-gone"] = "channel_not_found"
	fs.mu.Unlock()
	p := newTestPoster(t, fs)
	env := bottest.NewEnv(t, nil)
	var logs bytes.Buffer
	pub := bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: bot.NewDigestSource(env.Store, env.Knowledge),
		KV:       bottest.NewMemKV(time.Now),
		Targets:  []bot.DigestTarget{{Poster: p, Channel: "C-infra"}, {Poster: p, Channel: "C-gone"}, {Poster: p, Channel: "C-db"}},
		Logger:   slog.New(slog.NewTextHandler(&logs, nil)),
		Backoff:  func(int) time.Duration { return time.Millisecond },
	})
	rep, err := pub.Publish(t.Context(), time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err == nil || !strings.Contains(err.Error(), "slack:C-gone") {
		t.Fatalf("Publish error = %v, want one naming the refused channel", err)
	}
	if r := rep.Results[1]; r.Posted || r.Attempts != 3 {
		t.Errorf("refused channel: %+v, want 3 attempts and nothing posted", r)
	}
	if !strings.Contains(logs.String(), "digest not posted") {
		t.Errorf("the failure was not logged:\n%s", logs.String())
	}
	for _, ch := range []string{"C-infra", "C-db"} {
		var posts []call
		for _, c := range fs.callsOf("chat.postMessage") {
			if c.Form.Get("channel") == ch {
				posts = append(posts, c)
			}
		}
		if len(posts) < 2 {
			t.Fatalf("%s got %d messages, want the headline and its details", ch, len(posts))
		}
		top := posts[0]
		if top.Form.Get("thread_ts") != "" || !strings.Contains(top.textOf(t), "Dragonfly (single process) 15.5M ops/s") {
			t.Errorf("%s: first message is not the headline at top level:\n%s", ch, top.textOf(t))
		}
		for _, reply := range posts[1:] {
			if reply.Form.Get("thread_ts") != top.TS {
				t.Errorf("%s: a details message went to thread %q, want the headline's %q", ch, reply.Form.Get("thread_ts"), top.TS)
			}
		}
		if !strings.Contains(posts[1].textOf(t), "What changed since the last digest") {
			t.Errorf("%s: the thread does not start with the details", ch)
		}
	}
}
