package discord

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheDigestReachesEveryChannelThroughDiscord publishes the real digest
// (composed from the embedded runs) through the adapter's poster to the fake
// Discord: the headline in each channel, a thread started from it, the
// details in that thread.
func TestTheDigestReachesEveryChannelThroughDiscord(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	env := bottest.NewEnv(t, nil)
	pub := bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: bot.NewDigestSource(env.Store, env.Knowledge),
		KV:       bottest.NewMemKV(time.Now),
		Targets:  []bot.DigestTarget{{Poster: a, Channel: "100"}, {Poster: a, Channel: "200"}},
	})
	if _, err := pub.Publish(t.Context(), time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	reqs := fd.requests()
	for _, ch := range []string{"100", "200"} {
		var headline *request
		for _, r := range reqs {
			if isMessagePost(ch)(r) {
				headline = r
				break
			}
		}
		if headline == nil || !strings.Contains(headline.JSON["content"].(string), "Dragonfly (single process) 15.5M ops/s") {
			t.Fatalf("channel %s: no headline with the 48-core finding", ch)
		}
		var thread string
		for _, r := range reqs {
			if r.Method == http.MethodPost && strings.Contains(r.Path, "/channels/"+ch+"/messages/") && strings.HasSuffix(r.Path, "/threads") {
				parts := strings.Split(r.Path, "/")
				thread = parts[len(parts)-2]
			}
		}
		if thread == "" {
			t.Fatalf("channel %s: no thread started from the headline", ch)
		}
		var details strings.Builder
		for _, r := range reqs {
			if isMessagePost(thread)(r) {
				details.WriteString(r.JSON["content"].(string))
			}
		}
		if !strings.Contains(details.String(), "What changed since the last digest") || !strings.Contains(details.String(), "Vendor and third-party claims") {
			t.Errorf("channel %s: the thread does not hold the details:\n%.300s", ch, details.String())
		}
		if strings.Contains(details.String(), "| --- |") || strings.Contains(details.String(), "|---") {
			t.Errorf("channel %s: the details show raw Markdown table pipes:\n%s", ch, details.String())
		}
	}
}
