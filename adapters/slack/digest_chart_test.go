package slack

import (
	"bytes"
	"encoding/json"
	"image/png"
	"strconv"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheDigestChartIsUploadedIntoTheDigestsThreadAfterTheDetails publishes
// the real digest with the real renderer through the Slack poster: after
// the headline and the details, the headline comparison's PNG goes through
// files.getUploadURLExternal and files.completeUploadExternal into the
// headline's thread, with the chart's alt text and title.
func TestTheDigestChartIsUploadedIntoTheDigestsThreadAfterTheDetails(t *testing.T) {
	fs := newFakeSlack(t)
	p := newTestPoster(t, fs)
	env := bottest.NewEnv(t, nil)
	src := bot.NewDigestSource(env.Store, env.Knowledge)
	d, err := src.Compose(t.Context(), nil)
	if err != nil || d.Chart == nil {
		t.Fatalf("the digest has no chart to post (%v)", err)
	}
	pub := bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: src, KV: bottest.NewMemKV(time.Now), RenderChart: chart.Render,
		Targets: []bot.DigestTarget{{Poster: p, Channel: "C-infra"}},
	})
	rep, err := pub.Publish(t.Context(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Results[0].Chart {
		t.Errorf("result %+v does not report the chart", rep.Results[0])
	}

	fs.mu.Lock()
	calls := append([]call(nil), fs.calls...)
	fs.mu.Unlock()
	var order []string
	var top, get, up, done call
	for _, c := range calls {
		switch c.Method {
		case "chat.postMessage":
			if top.TS == "" {
				top = c
			}
		case "files.getUploadURLExternal":
			get = c
		case "upload":
			up = c
		case "files.completeUploadExternal":
			done = c
		default:
			continue
		}
		order = append(order, c.Method)
	}
	if len(order) < 5 || order[len(order)-3] != "files.getUploadURLExternal" || order[len(order)-4] != "chat.postMessage" {
		t.Fatalf("calls %v, want the headline and details first, then the upload flow", order)
	}
	if get.Form.Get("filename") != "chart.png" || get.Form.Get("alt_txt") != d.Chart.AltText || get.Form.Get("length") != strconv.Itoa(len(up.Body)) {
		t.Errorf("getUploadURLExternal %v, want chart.png with the chart's alt text", get.Form)
	}
	img, err := png.Decode(bytes.NewReader(up.Body))
	if err != nil {
		t.Fatalf("the uploaded chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("chart is %dx%d, want chat size", b.Dx(), b.Dy())
	}
	if done.Form.Get("channel_id") != "C-infra" || done.Form.Get("thread_ts") != top.TS || top.Form.Get("thread_ts") != "" {
		t.Errorf("chart shared to %v, want the headline's thread %q", done.Form, top.TS)
	}
	var files []map[string]string
	if err := json.Unmarshal([]byte(done.Form.Get("files")), &files); err != nil || len(files) != 1 || files[0]["title"] != d.Chart.Title {
		t.Errorf("files %s, want one titled %q", done.Form.Get("files"), d.Chart.Title)
	}
}

func TestPostChartRefusesAnEmptyImage(t *testing.T) {
	fs := newFakeSlack(t)
	if err := newTestPoster(t, fs).PostChart(t.Context(), "C1", "1.2", nil, "alt", "title"); err == nil {
		t.Fatal("an empty image was accepted")
	}
	if n := len(fs.callsOf("files.getUploadURLExternal")); n != 0 {
		t.Fatalf("%d upload calls for an empty image", n)
	}
}
