package discord

import (
	"bytes"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheDigestChartFollowsTheDetailsIntoTheDigestsThread publishes the
// real digest with the real renderer through the adapter: after the details
// the thread gets one message carrying chart.png, described by the chart's
// alt text and shown by an embed pointing at the attachment, with mentions
// disabled (restOnly asserts that on every message).
func TestTheDigestChartFollowsTheDetailsIntoTheDigestsThread(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	env := bottest.NewEnv(t, nil)
	src := bot.NewDigestSource(env.Store, env.Knowledge)
	d, err := src.Compose(t.Context(), nil)
	if err != nil || d.Chart == nil {
		t.Fatalf("the digest has no chart to post (%v)", err)
	}
	pub := bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: src, KV: bottest.NewMemKV(time.Now), RenderChart: chart.Render,
		Targets: []bot.DigestTarget{{Poster: a, Channel: "100"}},
	})
	rep, err := pub.Publish(t.Context(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Results[0].Chart {
		t.Errorf("result %+v does not report the chart", rep.Results[0])
	}
	reqs := fd.requests()
	var headline string // the thread started from the headline shares its id
	for _, r := range reqs {
		if r.Method == http.MethodPost && strings.Contains(r.Path, "/channels/100/messages/") && strings.HasSuffix(r.Path, "/threads") {
			parts := strings.Split(r.Path, "/")
			headline = parts[len(parts)-2]
			break
		}
	}
	if headline == "" {
		t.Fatal("no thread was started from the headline")
	}
	var inThread []*request
	for _, r := range reqs {
		if isMessagePost(headline)(r) {
			inThread = append(inThread, r)
		}
	}
	if len(inThread) < 2 {
		t.Fatalf("thread %s got %d messages, want the details and the chart", headline, len(inThread))
	}
	for _, r := range inThread[:len(inThread)-1] {
		if len(r.Files) != 0 {
			t.Error("a file came before the end of the details")
		}
	}
	last := inThread[len(inThread)-1]
	if len(last.Files) != 1 || last.Files[0].Name != "chart.png" || last.Files[0].ContentType != "image/png" {
		t.Fatalf("the last thread message carries %+v, want chart.png", last.Files)
	}
	img, err := png.Decode(bytes.NewReader(last.Files[0].Data))
	if err != nil {
		t.Fatalf("the attached chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("chart is %dx%d, want chat size", b.Dx(), b.Dy())
	}
	embeds, _ := last.JSON["embeds"].([]any)
	if len(embeds) != 1 {
		t.Fatalf("embeds %v", last.JSON["embeds"])
	}
	e := embeds[0].(map[string]any)
	image, _ := e["image"].(map[string]any)
	if image["url"] != "attachment://chart.png" || e["title"] != d.Chart.Title {
		t.Errorf("embed %v, want the chart's title and image attachment://chart.png", e)
	}
	atts, _ := last.JSON["attachments"].([]any)
	if len(atts) != 1 || atts[0].(map[string]any)["description"] != d.Chart.AltText {
		t.Errorf("attachments %v, want chart.png described by the alt text", atts)
	}
}

func TestWithoutThreadPermissionTheDigestChartRepliesInTheChannel(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, nil, nil)
	fd.failNext(1, is(http.MethodPost, "/threads"), http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)
	if err := a.PostChart(t.Context(), "100", "4242", []byte("\x89PNG"), "Bar chart: …", "Throughput @everyone"); err != nil {
		t.Fatal(err)
	}
	r := fd.waitFor(t, "the chart in the channel", isMessagePost("100"))
	ref, _ := r.JSON["message_reference"].(map[string]any)
	if ref["message_id"] != "4242" || len(r.Files) != 1 {
		t.Errorf("message_reference %v with %d files, want a reply to the headline carrying the chart", ref, len(r.Files))
	}
	if err := a.PostChart(t.Context(), "100", "4242", nil, "alt", "title"); err == nil || !strings.Contains(err.Error(), "no chart image") {
		t.Errorf("an empty image: %v", err)
	}
}
