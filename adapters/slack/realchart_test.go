package slack

import (
	"bytes"
	"encoding/json"
	"image/png"
	"strconv"
	"strings"
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

// TestAnEffectCardChartsTheLatencyCostBesideTheGain asks the real bot
// what pipelining does to Dragonfly's throughput: the card carries two
// chart blocks, throughput and then the p99 of the same cells, whose
// values are the answer's own rows; a workspace without the chart block
// gets the PNG with both panels, taller than a single chart.
func TestAnEffectCardChartsTheLatencyCostBesideTheGain(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	const q = "What does pipelining do to Dragonfly's throughput?"
	a := env.Ask(t, "", q)
	if a.Chart == nil || a.Chart.Cost == nil {
		t.Fatalf("the effect answer has no cost panel: %+v", a.Chart)
	}
	for _, noTables := range []bool{false, true} {
		fs := newFakeSlack(t)
		fs.noTables = noTables
		h := newHarness(t, fs, newMemStore(), env.Bot, func(c *Config) { c.Charts = chart.Renderer{} })
		h.command("C1", "U1", q, "T701")
		card := fs.waitFor("chat.postMessage")
		var charts []map[string]any
		for _, b := range card.blocksOf(t) {
			if b["type"] == "data_visualization" {
				charts = append(charts, b)
			}
		}
		if noTables {
			if len(charts) != 0 {
				t.Fatalf("chart blocks in a workspace that refuses them")
			}
			up := fs.waitFor("upload")
			img, err := png.Decode(bytes.NewReader(up.Body))
			if err != nil || img.Bounds().Dy() != chart.DefaultPanelsHeight {
				t.Errorf("the PNG (%v) is not the two-panel chart", err)
			}
			continue
		}
		if len(charts) != 2 || charts[1]["block_id"] != "oracle_chart_cost" || !strings.HasPrefix(charts[1]["title"].(string), "p99 latency") {
			t.Fatalf("chart blocks %v", charts)
		}
		raw, _ := json.Marshal(charts[1])
		for _, r := range a.Rows {
			if v := strconv.FormatFloat(r.P99Ms, 'f', -1, 64); !strings.Contains(string(raw), v) {
				t.Errorf("the p99 %s of %s at pipeline %d is not in the cost chart: %s", v, r.Engine, r.Pipeline, raw)
			}
		}
	}
}
