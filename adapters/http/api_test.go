package http

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// fakeBot answers by keyword so each kind can be reached, and remembers
// the messages it was given.
type fakeBot struct {
	mu   sync.Mutex
	msgs []bot.Message
}

func (f *fakeBot) Handle(_ context.Context, m bot.Message) bot.Answer {
	f.mu.Lock()
	f.msgs = append(f.msgs, m)
	f.mu.Unlock()
	switch {
	case strings.Contains(m.Text, "postgres"):
		return bot.Answer{Kind: bot.KindOutOfScope, Headline: "Only the five engines are covered."}
	case strings.Contains(m.Text, "pipeline 64"):
		return bot.Answer{Kind: bot.KindNoData, Headline: "Pipeline 64 was never measured.",
			Nearest: []bot.Row{{RowCell: bot.RowCell{Engine: "redis", Mode: "cluster", Cores: 8, Pipeline: 16}, RunIDs: []string{"run-b"}}},
			Sources: bot.Sources{RunIDs: []string{"run-b"}}}
	case strings.Contains(m.Text, "again"):
		return bot.Answer{Kind: bot.KindRateLimited, Headline: "Slow down."}
	case strings.Contains(m.Text, "boom"):
		return bot.Answer{Kind: bot.KindError, Headline: "internal error (ref abc)"}
	}
	return bot.Answer{
		Kind:           bot.KindAnswer,
		Interpretation: "Dragonfly, 8 cores",
		Headline:       "Dragonfly at 8 cores.",
		Rows:           []bot.Row{{RowCell: bot.RowCell{Engine: "dragonfly", Mode: "single", Session: 1, Cores: 8, OpsPerSec: 1234.5}, RunIDs: []string{"run-a"}}},
		Sources:        bot.Sources{Filters: []string{`engine == "dragonfly" && cores == 8`}, RunIDs: []string{"run-a"}},
		Chart:          &bot.Chart{Title: "Dragonfly"},
	}
}

func (f *fakeBot) messages() []bot.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bot.Message(nil), f.msgs...)
}

// startServer serves the API on a real loopback listener until the test
// ends and returns its base URL.
func startServer(t testing.TB, h Handler, opts Options) string {
	t.Helper()
	mux := http.NewServeMux()
	NewAPI(h, opts).Register(mux)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, Root(mux, opts.Metrics, nil), ServeOptions{}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

func post(t testing.TB, url, contentType, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestAskAnswersWithTheAskJSONObject(t *testing.T) {
	fb := &fakeBot{}
	base := startServer(t, fb, Options{})
	status, body := post(t, base+"/api/ask", "application/json", `{"question": " Dragonfly at 8 cores ", "thread": "t1"}`)
	if status != http.StatusOK {
		t.Fatalf("status %d, body %s", status, body)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	wantKeys := []string{"kind", "interpretation", "text", "filters", "rows", "nearest", "run_ids", "run_count", "sources", "reply"}
	for _, k := range wantKeys {
		if _, ok := got[k]; !ok {
			t.Errorf("body lacks %q: %s", k, body)
		}
	}
	if len(got) != len(wantKeys) {
		t.Errorf("body has %d keys, want exactly %v: %s", len(got), wantKeys, body)
	}
	var want bytesJSON
	want.encode(t, bot.JSON(fb.Handle(t.Context(), bot.Message{Text: "Dragonfly at 8 cores"})))
	if strings.TrimSpace(body) != want.s {
		t.Errorf("body differs from bot.JSON of the answer:\n got: %s\nwant: %s", body, want.s)
	}
	msgs := fb.messages()
	m := msgs[0]
	if m.Platform != "http" || m.Channel != "" || m.Thread != "t1" || m.Text != "Dragonfly at 8 cores" || m.User != "" {
		t.Errorf("bot got %+v, want platform http, thread t1, trimmed text, no user or channel (the guard limits clients)", m)
	}
}

type bytesJSON struct{ s string }

func (b *bytesJSON) encode(t testing.TB, v any) {
	t.Helper()
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	b.s = strings.TrimSpace(sb.String())
}

func TestAskStatusAndReasons(t *testing.T) {
	base := startServer(t, &fakeBot{}, Options{MaxBodyBytes: 256})
	tests := []struct {
		name        string
		contentType string
		body        string
		wantStatus  int
		wantInBody  string
	}{
		{"a refusal is still a 200 answer", "application/json", `{"question":"MySQL or postgres?"}`, 200, `"kind":"out_of_scope"`},
		{"a never-measured combination is a 200 answer with nearest rows", "application/json", `{"question":"redis pipeline 64"}`, 200, `"nearest":[{"engine":"redis"`},
		{"a rate-limited question is 429 with the answer", "application/json", `{"question":"again"}`, 429, `"kind":"rate_limited"`},
		{"an internal error is 500 with the answer", "application/json", `{"question":"boom"}`, 500, `internal error (ref abc)`},
		{"broken JSON is 400 with the reason", "application/json", `{"question": "x"`, 400, `not valid JSON: it ends too early`},
		{"a syntax error is 400 with its position", "application/json", `{"question" "x"}`, 400, `not valid JSON (at byte`},
		{"an empty body is 400", "application/json", ``, 400, `request body is empty`},
		{"an unknown field is 400 naming it", "application/json", `{"q":"x"}`, 400, `unknown field \"q\"`},
		{"a question of the wrong type is 400", "application/json", `{"question":42}`, 400, `field \"question\" must be a string`},
		{"a missing question is 400", "application/json", `{"thread":"t"}`, 400, `\"question\" is missing or empty`},
		{"two JSON values are 400", "application/json", `{"question":"a"} {"question":"b"}`, 400, `more than one JSON value`},
		{"a too long thread id is 400", "application/json", `{"question":"a","thread":"` + strings.Repeat("t", 129) + `"}`, 400, `"thread\" is longer than 128 bytes`},
		{"a body over the cap is 413", "application/json", `{"question":"` + strings.Repeat("x", 300) + `"}`, 413, `larger than 256 bytes`},
		{"a body that is not JSON is 400 whatever its content type", "text/plain", `question`, 400, `not valid JSON`},
		{"curl's default form content type is read as JSON", "application/x-www-form-urlencoded", `{"question":"Dragonfly"}`, 200, `"kind":"answer"`},
		{"no content type is read as JSON", "", `{"question":"Dragonfly"}`, 200, `"kind":"answer"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, base+"/api/ask", tt.contentType, tt.body)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Errorf("got %d %s\nwant %d with %s", status, body, tt.wantStatus, tt.wantInBody)
			}
			if status >= 400 && status < 500 && status != http.StatusTooManyRequests {
				var p problem
				if err := json.Unmarshal([]byte(body), &p); err != nil || p.Error == "" {
					t.Errorf("4xx body is not {\"error\": reason}: %s", body)
				}
			}
		})
	}
}

func TestAskWithChart(t *testing.T) {
	png := []byte("\x89PNG fake")
	render := func(_ context.Context, c bot.Chart) ([]byte, error) {
		if c.Title != "Dragonfly" {
			return nil, errors.New("wrong chart")
		}
		return png, nil
	}
	tests := []struct {
		name   string
		render func(context.Context, bot.Chart) ([]byte, error)
		query  string
		want   string
	}{
		{"chart=1 with a renderer adds the PNG as base64", render, "?chart=1", base64.StdEncoding.EncodeToString(png)},
		{"without chart=1 no PNG is added", render, "", ""},
		{"chart=1 without a renderer adds nothing", nil, "?chart=1", ""},
		{"a failing renderer leaves the answer without a chart", func(context.Context, bot.Chart) ([]byte, error) { return nil, errors.New("no fonts") }, "?chart=1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := startServer(t, &fakeBot{}, Options{RenderChart: tt.render})
			status, body := post(t, base+"/api/ask"+tt.query, "application/json", `{"question":"Dragonfly"}`)
			var got AskResponse
			if err := json.Unmarshal([]byte(body), &got); err != nil || status != 200 {
				t.Fatalf("status %d, body %s, err %v", status, body, err)
			}
			if got.ChartPNG != tt.want {
				t.Errorf("chart_png = %q, want %q", got.ChartPNG, tt.want)
			}
			if got.Kind != bot.KindAnswer {
				t.Errorf("kind = %q, want answer", got.Kind)
			}
		})
	}
}

func TestRoutes(t *testing.T) {
	base := startServer(t, &fakeBot{}, Options{Metrics: NewMetrics()})
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantInBody         string
	}{
		{"healthz says ok", "GET", "/healthz", 200, `{"status":"ok"}`},
		{"metrics are served", "GET", "/metrics", 200, "go_goroutines"},
		{"ask only takes POST", "GET", "/api/ask", 405, `{"error":"method not allowed here; allowed: POST"}`},
		{"unknown paths are 404", "GET", "/nope", 404, `{"error":"no such route"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, base+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus || !strings.Contains(string(b), tt.wantInBody) {
				t.Errorf("got %d %.200s, want %d with %q", resp.StatusCode, b, tt.wantStatus, tt.wantInBody)
			}
		})
	}
}

func TestAChartIsDrawnOncePerAnswer(t *testing.T) {
	var draws atomic.Int64
	render := func(context.Context, bot.Chart) ([]byte, error) { draws.Add(1); return []byte("png"), nil }
	base := startServer(t, &fakeBot{}, Options{RenderChart: render})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			resp, err := http.Post(base+"/api/ask?chart=1", "application/json", strings.NewReader(`{"question":"Dragonfly"}`))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	if draws.Load() != 1 {
		t.Fatalf("the same chart was drawn %d times for 20 requests", draws.Load())
	}
}
