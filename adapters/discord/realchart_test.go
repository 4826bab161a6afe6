package discord

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestARealChartIsDrawnAndAttachedToTheAnswer asks the real bot a scaling
// question with the real renderer: the attachment decodes as a chat-size
// PNG and the embed shows it.
func TestARealChartIsDrawnAndAttachedToTheAnswer(t *testing.T) {
	t.Parallel()
	env := bottest.NewEnv(t, nil)
	a, fd := restOnly(t, env.Bot, chart.Renderer{})
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> How does Dragonfly scale compared with Redis?", "900")))
	r := fd.waitFor(t, "the answer with its chart", isMessagePost("1001"))
	if len(r.Files) != 1 {
		t.Fatalf("%d files attached, want the chart", len(r.Files))
	}
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	if err != nil {
		t.Fatalf("the attached chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("chart is %dx%d, want chat size", b.Dx(), b.Dy())
	}
	img0, _ := embedsOf(t, r)[0]["image"].(map[string]any)
	if img0["url"] != "attachment://chart.png" {
		t.Errorf("the embed's image is %v, want the attachment", img0)
	}
}
