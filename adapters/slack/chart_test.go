package slack

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

type fakeCharts struct {
	mu  sync.Mutex
	png []byte
	err error
	got []bot.Chart
}

func (c *fakeCharts) Render(ch bot.Chart) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, ch)
	return c.png, c.err
}

func scalingAnswer() bot.Answer {
	a := claimAnswer()
	a.Kind = bot.KindAnswer
	a.Claim = nil
	a.Headline = "Dragonfly climbs from 2.0M ops/s at 4 cores to 15.5M at 48; the realistic Redis Cluster stays near 5M."
	a.Chart = &bot.Chart{
		Kind:    bot.ChartLine,
		Title:   "Throughput by cores — SET:GET 1:10, 100 B values, pipeline 16 (session 1)",
		XLabel:  "cores",
		YLabel:  "median ops/s",
		AltText: "Line chart: Dragonfly rises from 2.0M ops/s at 4 cores to 15.5M at 48; Redis Cluster realistic stays between 3.2M and 5.0M; the fully driven ceiling rises from 5.2M to 40.6M.",
		Series: []bot.ChartSeries{
			{Name: "Dragonfly (single process)", Points: []bot.ChartPoint{{X: 4, XLabel: "4", Y: 2.0e6, Label: "2.0M"}, {X: 48, XLabel: "48", Y: 15.5e6, Label: "15.5M"}}},
		},
	}
	return a
}

func TestAnAnswersChartIsDrawnInsideItsCardAsSlacksChartBlock(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer { return scalingAnswer() }
	charts := &fakeCharts{png: []byte("\x89PNG")}
	h := newHarness(t, fs, newMemStore(), fb, func(c *Config) { c.Charts = charts })
	h.command("C1", "U1", "How does Dragonfly scale compared with Redis?", "T601")
	card := fs.waitFor("chat.postMessage")
	var chart map[string]any
	for _, b := range card.blocksOf(t) {
		if b["type"] == "data_visualization" {
			chart = b
		}
	}
	if chart == nil {
		t.Fatalf("the card carries no chart block: %s", card.Form.Get("blocks"))
	}
	inner, _ := chart["chart"].(map[string]any)
	if inner["type"] != "line" || !strings.Contains(card.Form.Get("blocks"), `"categories":["4","48"]`) {
		t.Errorf("chart block %v: want a line over the core counts 4 and 48", chart)
	}
	h.stop()
	if len(fs.callsOf("files.getUploadURLExternal")) != 0 || len(charts.got) != 0 {
		t.Error("the PNG was drawn or uploaded although the card shows the chart")
	}
}

// TestAnAnswersChartIsUploadedIntoItsThreadWithAltText runs in a workspace
// that refuses the newer blocks: the card goes without its chart block and
// the PNG follows in its thread.
func TestAnAnswersChartIsUploadedIntoItsThreadWithAltText(t *testing.T) {
	fs := newFakeSlack(t)
	fs.noTables = true
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer { return scalingAnswer() }
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 5000)...)
	charts := &fakeCharts{png: png}
	h := newHarness(t, fs, newMemStore(), fb, func(c *Config) { c.Charts = charts })
	h.command("C1", "U1", "How does Dragonfly scale compared with Redis?", "T600")

	top := fs.waitFor("chat.postMessage") // the card, refused with its chart block, then without it
	get := fs.waitFor("files.getUploadURLExternal")
	want := scalingAnswer().Chart
	if get.Form.Get("filename") != "chart.png" || get.Form.Get("length") != strconv.Itoa(len(png)) || get.Form.Get("alt_txt") != want.AltText {
		t.Fatalf("getUploadURLExternal %v", get.Form)
	}
	up := fs.waitFor("upload")
	if !bytes.Equal(up.Body, png) {
		t.Fatalf("uploaded %d bytes, want the %d-byte PNG", len(up.Body), len(png))
	}
	done := fs.waitFor("files.completeUploadExternal")
	if done.Form.Get("channel_id") != "C1" || done.Form.Get("thread_ts") != top.TS {
		t.Fatalf("chart not shared into the answer's thread: %v", done.Form)
	}
	var files []map[string]string
	if err := json.Unmarshal([]byte(done.Form.Get("files")), &files); err != nil || len(files) != 1 || files[0]["id"] != "F0CHART" || files[0]["title"] != want.Title {
		t.Fatalf("files %s (%v)", done.Form.Get("files"), err)
	}
	if len(charts.got) != 1 || charts.got[0].AltText != want.AltText {
		t.Fatal("the renderer did not get the answer's chart")
	}
}

func TestAChartThatFailsToRenderCostsOnlyThePicture(t *testing.T) {
	fs := newFakeSlack(t)
	fs.noTables = true // the chart block is refused, so the PNG is needed
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer { return scalingAnswer() }
	h := newHarness(t, fs, newMemStore(), fb, func(c *Config) { c.Charts = &fakeCharts{err: errors.New("no fonts")} })
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> how does Dragonfly scale?"))
	fs.waitFor("chat.postMessage")
	h.stop()
	if len(fs.callsOf("files.getUploadURLExternal")) != 0 {
		t.Fatal("an upload was attempted without a picture")
	}
	if !strings.Contains(h.logs.String(), "chart not rendered") {
		t.Fatal("the chart failure was not logged")
	}
}
