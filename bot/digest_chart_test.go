package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// chartRecordingPoster is a recordingPoster that also takes charts, with
// the post they followed (how many text posts came before them).
type chartRecordingPoster struct {
	recordingPoster
	chartErr error

	cmu    sync.Mutex
	charts []postedChart
}

type postedChart struct {
	Channel, Thread, Alt, Title string
	PNG                         []byte
	After                       int // text posts before the chart
}

func (p *chartRecordingPoster) PostChart(_ context.Context, channel, thread string, png []byte, alt, title string) error {
	after := len(p.snapshot())
	p.cmu.Lock()
	defer p.cmu.Unlock()
	if p.chartErr != nil {
		return p.chartErr
	}
	p.charts = append(p.charts, postedChart{Channel: channel, Thread: thread, Alt: alt, Title: title, PNG: png, After: after})
	return nil
}

func (p *chartRecordingPoster) posted() []postedChart {
	p.cmu.Lock()
	defer p.cmu.Unlock()
	return append([]postedChart(nil), p.charts...)
}

// chartComposer composes a digest that carries a headline chart.
type chartComposer struct{}

func digestTestChart() *Chart {
	return &Chart{Kind: ChartBar, Title: "Throughput at 48 cores", YLabel: "median ops/s",
		AltText: "Bar chart: Dragonfly 15.5M ops/s, Redis Cluster realistic 4.6M.",
		Series:  []ChartSeries{{Name: "Dragonfly", Points: []ChartPoint{{X: 48, XLabel: "48", Y: 15.5e6, Label: "15.5M"}}}}}
}

func (chartComposer) Compose(context.Context, *DigestState) (Digest, error) {
	return Digest{Headline: "headline", Details: "details", Chart: digestTestChart(),
		State: DigestState{Fingerprint: "fp1", Runs: map[string]RunTag{}}}, nil
}

// countingRenderer counts its calls and returns png or err.
type countingRenderer struct {
	mu    sync.Mutex
	calls int
	png   []byte
	err   error
}

func (r *countingRenderer) render(Chart) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return r.png, r.err
}

func TestTheDigestChartFollowsTheDetailsIntoTheThreadOfPostersThatTakeCharts(t *testing.T) {
	withCharts := &chartRecordingPoster{recordingPoster: recordingPoster{platform: "slack"}}
	textOnly := &recordingPoster{platform: "discord"}
	r := &countingRenderer{png: []byte("\x89PNG fake")}
	p := NewDigestPublisher(DigestPublisherConfig{
		Composer: chartComposer{}, KV: newDigestMemKV(), RenderChart: r.render,
		Targets: []DigestTarget{{withCharts, "C1"}, {withCharts, "C2"}, {textOnly, "D1"}},
	})
	rep, err := p.Publish(t.Context(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if r.calls != 1 {
		t.Errorf("the chart was rendered %d times, want once for every target", r.calls)
	}
	charts := withCharts.posted()
	if len(charts) != 2 {
		t.Fatalf("%d charts posted, want one per chart-taking channel", len(charts))
	}
	posts := withCharts.snapshot()
	for _, c := range charts {
		var top, details string
		for i, post := range posts {
			switch {
			case post.Channel == c.Channel && post.Thread == "":
				top = fmt.Sprintf("ts-%d", i+1) // recordingPoster's reference for the headline
			case post.Channel == c.Channel && post.Text == "details":
				details = post.Thread
			}
		}
		if c.Thread != top || details != top {
			t.Errorf("%s: chart in thread %q, details in %q, want both in the headline's thread %q", c.Channel, c.Thread, details, top)
		}
		if c.Alt != digestTestChart().AltText || c.Title != digestTestChart().Title || !bytes.Equal(c.PNG, r.png) {
			t.Errorf("%s: chart posted as %+v, want the rendered PNG with the chart's alt text and title", c.Channel, c)
		}
		if c.After < 2 {
			t.Errorf("%s: the chart came after %d text posts, want it after the headline and the details", c.Channel, c.After)
		}
	}
	for i, want := range []bool{true, true, false} {
		if rep.Results[i].Chart != want || !rep.Results[i].Posted {
			t.Errorf("result %d = %+v, want posted with chart %v", i, rep.Results[i], want)
		}
	}
	if got := len(textOnly.snapshot()); got != 2 {
		t.Errorf("the text-only poster got %d posts, want the headline and the details", got)
	}
}

func TestAChartFailureNeverFailsTheDigest(t *testing.T) {
	tests := []struct {
		name     string
		render   *countingRenderer
		chartErr error
		wantLog  string
	}{
		{name: "a renderer error is logged and the text is posted",
			render: &countingRenderer{err: errors.New("no fonts")}, wantLog: "digest chart not rendered"},
		{name: "an empty image is treated as a rendering failure",
			render: &countingRenderer{}, wantLog: "digest chart not rendered"},
		{name: "a refused upload is logged and the text stands",
			render: &countingRenderer{png: []byte("png")}, chartErr: errors.New("not_allowed_token_type"), wantLog: "digest chart not posted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			poster := &chartRecordingPoster{recordingPoster: recordingPoster{platform: "slack"}, chartErr: tt.chartErr}
			kv := newDigestMemKV()
			p := NewDigestPublisher(DigestPublisherConfig{
				Composer: chartComposer{}, KV: kv, RenderChart: tt.render.render,
				Targets: []DigestTarget{{poster, "C1"}}, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
			})
			slot := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
			rep, err := p.Publish(t.Context(), slot)
			if err != nil {
				t.Fatalf("Publish = %v, want the digest posted without its chart", err)
			}
			if r := rep.Results[0]; !r.Posted || r.Chart || r.Attempts != 1 || r.Err != "" {
				t.Errorf("result %+v, want posted once, no chart, no error", r)
			}
			if got := len(poster.snapshot()); got != 2 {
				t.Errorf("%d text posts, want the headline and the details", got)
			}
			if len(poster.posted()) != 0 {
				t.Error("a chart was recorded as posted")
			}
			if !strings.Contains(logs.String(), tt.wantLog) {
				t.Errorf("log lacks %q:\n%s", tt.wantLog, logs.String())
			}
			if last, err := p.LastState(t.Context()); err != nil || last == nil {
				t.Errorf("the digest state was not saved (%v, %v)", last, err)
			}
		})
	}
}

func TestWithoutARendererOrAChartTakingPosterNothingIsDrawn(t *testing.T) {
	r := &countingRenderer{png: []byte("png")}
	text := &recordingPoster{platform: "discord"}
	p := NewDigestPublisher(DigestPublisherConfig{
		Composer: chartComposer{}, KV: newDigestMemKV(), RenderChart: r.render,
		Targets: []DigestTarget{{text, "D1"}},
	})
	if _, err := p.Publish(t.Context(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	if r.calls != 0 {
		t.Errorf("rendered %d times for posters that cannot take a chart", r.calls)
	}
	withCharts := &chartRecordingPoster{recordingPoster: recordingPoster{platform: "slack"}}
	p = NewDigestPublisher(DigestPublisherConfig{
		Composer: chartComposer{}, KV: newDigestMemKV(), Targets: []DigestTarget{{withCharts, "C1"}},
	})
	if _, err := p.Publish(t.Context(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	if len(withCharts.posted()) != 0 {
		t.Error("a chart was posted without a renderer")
	}
}
