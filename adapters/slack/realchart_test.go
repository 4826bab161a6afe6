package slack

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestARealChartIsDrawnAndUploadedIntoTheAnswersThread asks the real bot a
// scaling question through the slash command with the real renderer: the
// PNG Slack receives decodes at chat size and carries the chart's alt text.
func TestARealChartIsDrawnAndUploadedIntoTheAnswersThread(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	fs.noTables = true // a workspace without the chart block: the PNG goes instead
	h := newHarness(t, fs, newMemStore(), env.Bot, func(c *Config) { c.Charts = chart.Renderer{} })
	h.command("C1", "U1", "How does Dragonfly scale compared with Redis?", "T700")

	top := fs.waitFor("chat.postMessage")
	get := fs.waitFor("files.getUploadURLExternal")
	if get.Form.Get("alt_txt") == "" {
		t.Error("the upload has no alt text")
	}
	up := fs.waitFor("upload")
	img, err := png.Decode(bytes.NewReader(up.Body))
	if err != nil {
		t.Fatalf("the uploaded chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("chart is %dx%d, want chat size", b.Dx(), b.Dy())
	}
	done := fs.waitFor("files.completeUploadExternal")
	if done.Form.Get("thread_ts") != top.TS {
		t.Errorf("chart shared into thread %q, want the answer's %q", done.Form.Get("thread_ts"), top.TS)
	}
}
