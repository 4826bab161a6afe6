package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// linePoster records what a digest posts: top-level lines and replies.
type linePoster struct {
	mu      sync.Mutex
	tops    []string
	replies []string
}

func (p *linePoster) Platform() string { return "slack" }

func (p *linePoster) PostTop(_ context.Context, _, md string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tops = append(p.tops, md)
	return fmt.Sprint("ts-", len(p.tops)), nil
}

func (p *linePoster) PostReply(_ context.Context, _, _, md string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.replies = append(p.replies, md)
	return nil
}

// TestAnUnchangedDigestIsOneLineWithALink publishes the real digest twice
// over the same runs: the first posts its headline and details; the
// second, with nothing changed, posts one line linking to the dataset
// page and nothing in a thread.
func TestAnUnchangedDigestIsOneLineWithALink(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	p := &linePoster{}
	pub := bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: bot.NewDigestSource(env.Store, env.Knowledge), KV: bottest.NewMemKV(time.Now),
		Targets: []bot.DigestTarget{{Poster: p, Channel: "CDIG"}}, PublicURL: "https://oracle.example.com",
	})
	for i := range 2 {
		if _, err := pub.Publish(t.Context(), time.Time{}); err != nil {
			t.Fatalf("publish %d: %v", i+1, err)
		}
	}
	if len(p.tops) != 2 || len(p.replies) != 1 {
		t.Fatalf("%d top posts and %d replies, want 2 and 1 (the unchanged digest has no details)", len(p.tops), len(p.replies))
	}
	line := p.tops[1]
	if strings.Contains(line, "\n") || !strings.Contains(line, "othing changed") || !strings.Contains(line, "[the dataset](https://oracle.example.com/data)") {
		t.Errorf("the unchanged digest: %q, want one line with a link", line)
	}
	if len(line) > 300 {
		t.Errorf("the unchanged digest is %d characters", len(line))
	}
}
