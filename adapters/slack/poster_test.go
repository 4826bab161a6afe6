package slack

import (
	"context"
	"strings"
	"testing"
	"time"
)

func newTestPoster(t *testing.T, fs *fakeSlack) *Poster {
	t.Helper()
	p, err := NewPoster(Config{BotToken: NewSecret(testBotToken), APIURL: fs.apiURL(), Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPosterPutsTheHeadlineAtTheTopAndDetailsInItsThread(t *testing.T) {
	fs := newFakeSlack(t)
	p := newTestPoster(t, fs)
	if p.Platform() != "slack" {
		t.Fatal(p.Platform())
	}
	ts, err := p.PostTop(t.Context(), "C9", "**Weekly findings** — Dragonfly 15.5M ops/s at 48 cores, 3.4× a realistic Redis Cluster (4.6M).")
	if err != nil {
		t.Fatal(err)
	}
	top := fs.callsOf("chat.postMessage")[0]
	if ts != top.TS || top.Form.Get("channel") != "C9" || top.Form.Get("thread_ts") != "" {
		t.Fatalf("PostTop returned %q for %v", ts, top.Form)
	}
	if !strings.Contains(top.textOf(t), "*Weekly findings* — Dragonfly 15.5M") {
		t.Fatalf("Markdown not turned into mrkdwn:\n%s", top.textOf(t))
	}
	details := "## Headline at 48 cores\n\n| Series | Median ops/s |\n|---|---:|\n| Dragonfly (single process) | 15.5M |\n| Redis Cluster — realistic (one normal client) | 4.6M |\n\nSee [the claim](https://www.dragonflydb.io/)."
	if err := p.PostReply(t.Context(), "C9", ts, details); err != nil {
		t.Fatal(err)
	}
	replies := fs.callsOf("chat.postMessage")[1:]
	reply, text := replies[0], textOfAll(t, replies)
	if reply.Form.Get("thread_ts") != ts || !strings.Contains(text, "*Headline at 48 cores*") ||
		!strings.Contains(text, "Median ops/s") || strings.Contains(text, "```") || strings.Contains(text, "|---") || !strings.Contains(text, "<https://www.dragonflydb.io/|the claim>") {
		t.Fatalf("reply %v:\n%s", reply.Form.Get("thread_ts"), text)
	}
}

func TestPosterSplitsALongDigestWithinLimits(t *testing.T) {
	fs := newFakeSlack(t)
	p := newTestPoster(t, fs)
	var md strings.Builder
	md.WriteString("| Engine | Cores | Median ops/s |\n|---|---|---|\n")
	for i := range 900 {
		md.WriteString("| dragonfly | " + strings.Repeat("4", 1+i%3) + " | 1.0M |\n")
	}
	for i := range 60 {
		md.WriteString("\nParagraph " + strings.Repeat("x", 10) + " number " + string(rune('A'+i%26)) + strings.Repeat(" measured", 200) + "\n")
	}
	ts, err := p.PostTop(t.Context(), "C9", "Digest")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.PostReply(t.Context(), "C9", ts, md.String()); err != nil {
		t.Fatal(err)
	}
	posts := fs.callsOf("chat.postMessage")[1:]
	if len(posts) < 2 {
		t.Fatalf("a long digest in %d message(s)", len(posts))
	}
	rows := 0
	for _, c := range posts {
		if c.Form.Get("thread_ts") != ts || len(c.blocksOf(t)) > maxBlocks {
			t.Fatal("a part left the thread or exceeded 50 blocks")
		}
		for _, b := range c.blocksOf(t) {
			if b["type"] == "table" {
				rows += len(b["rows"].([]any)) - 1 // the header
				continue
			}
			tx := b["text"].(map[string]any)["text"].(string)
			if len([]rune(tx)) > maxSectionText {
				t.Fatal("section over 3,000 characters")
			}
			rows += strings.Count(tx, "dragonfly")
		}
	}
	if rows != 900 {
		t.Fatalf("%d of 900 table rows posted", rows)
	}
}
