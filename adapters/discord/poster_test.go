package discord

import (
	"net/http"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestTheDigestHeadlineGoesToTheChannelAndTheDetailsIntoItsThread(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	var p bot.Poster = a
	if p.Platform() != "discord" {
		t.Errorf("platform %q", p.Platform())
	}
	ref, err := p.PostTop(t.Context(), "100", "**Weekly findings:** Dragonfly 15.5M ops/s at 48 cores @everyone")
	if err != nil {
		t.Fatal(err)
	}
	top := fd.waitFor(t, "the headline", isMessagePost("100"))
	if !strings.HasPrefix(top.JSON["content"].(string), "**Weekly findings:**") {
		t.Errorf("headline content %q", top.JSON["content"])
	}
	details := "## Details\n\n" + strings.Repeat("Redis Cluster — realistic: 4.6M ops/s at 48 cores (median of 2 runs).\n", 60)
	if err := p.PostReply(t.Context(), "100", ref, details); err != nil {
		t.Fatal(err)
	}
	th := fd.waitFor(t, "the thread from the headline", is(http.MethodPost, "/channels/100/messages/"+ref+"/threads"))
	if th.JSON["name"] != "Details" {
		t.Errorf("thread name %q", th.JSON["name"])
	}
	var got strings.Builder
	for got.Len() < len(details)-2 {
		r := fd.waitFor(t, "details in the thread", isMessagePost(ref))
		c := r.JSON["content"].(string)
		if textLen(c) > maxContent {
			t.Errorf("a details message of %d characters", textLen(c))
		}
		got.WriteString(c + "\n")
	}
	if strings.TrimSpace(got.String()) != strings.TrimSpace(details) {
		t.Errorf("details posted differ from the digest's")
	}

	// A retry after a failed reply reuses the thread.
	if err := p.PostReply(t.Context(), "100", ref, "again"); err != nil {
		t.Fatal(err)
	}
	fd.waitFor(t, "the retried details in the same thread", isMessagePost(ref))
}

func TestWithoutThreadPermissionTheDigestDetailsReplyInTheChannel(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	fd.failNext(1, is(http.MethodPost, "/threads"), http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)
	if err := a.PostReply(t.Context(), "100", "4242", "details"); err != nil {
		t.Fatal(err)
	}
	r := fd.waitFor(t, "the details in the channel", isMessagePost("100"))
	ref, _ := r.JSON["message_reference"].(map[string]any)
	if ref["message_id"] != "4242" {
		t.Errorf("message_reference %v, want a reply to the headline", ref)
	}
}

func TestAFailedHeadlineIsAnError(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	fd.failNext(1, isMessagePost("100"), http.StatusForbidden, `{"message":"Missing Access","code":50001}`, nil)
	if _, err := a.PostTop(t.Context(), "100", "headline"); err == nil {
		t.Error("PostTop succeeded although Discord refused the message")
	}
}
