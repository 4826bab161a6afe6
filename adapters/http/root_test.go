package http

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestErrorBodiesAreJSONWithoutGoNamesOrAddresses(t *testing.T) {
	emoji := strings.Repeat("😀", maxQuestionRunes)
	escaped, _ := json.Marshal(map[string]string{"question": emoji})
	escapedASCII := bytes.ReplaceAll(escaped, []byte("😀"), []byte(`\ud83d\ude00`))
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantInBody string
	}{
		{"an array instead of an object says what to send", `[]`, 400, `must be a JSON object like {\"question\": \"...\"}, not an array`},
		{"a number for the question names both JSON types", `{"question": 42}`, 400, `field \"question\" must be a string, not a number`},
		{"a question at the character limit is never refused for its bytes, however escaped", string(escapedASCII), 200, `"kind":"answer"`},
		{"a question over the character limit is refused for its characters", `{"question":"` + strings.Repeat("x", maxQuestionRunes+1) + `"}`, 400, `longer than 2000 characters`},
	}
	base := startServer(t, &fakeBot{}, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, base+"/api/ask", "application/json", tt.body)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Fatalf("got %d %.300s\nwant %d with %s", status, body, tt.wantStatus, tt.wantInBody)
			}
			for _, leak := range []string{"http.", "AskRequest", "127.0.0.1", "tcp"} {
				if strings.Contains(body, leak) && status != 200 {
					t.Errorf("body leaks %q: %s", leak, body)
				}
			}
		})
	}
}

func TestAStalledBodyIsA408(t *testing.T) {
	base := startServer(t, &fakeBot{}, Options{BodyTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Promise 100 bytes, send 10, then stall.
	io.WriteString(conn, "POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"question")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, _ := io.ReadAll(conn)
	resp := string(raw)
	if !strings.HasPrefix(resp, "HTTP/1.1 408") || !strings.Contains(resp, `{"error":"the request body did not arrive in time"}`) {
		t.Fatalf("got %q", resp)
	}
	if strings.Contains(resp, "127.0.0.1") || strings.Contains(resp, "i/o timeout") {
		t.Errorf("the reply leaks the socket: %q", resp)
	}
}

func TestRootCountsEveryResponseAndContainsPanics(t *testing.T) {
	m := NewMetrics()
	var logs bytes.Buffer
	mux := http.NewServeMux()
	NewAPI(&fakeBot{}, Options{Metrics: m}).Register(mux)
	mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("kaboom") })
	srv := &http.Server{Handler: Root(mux, m, slog.New(slog.NewJSONHandler(&logs, nil)))}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	get := func(method, path string) (int, string) {
		req, _ := http.NewRequestWithContext(t.Context(), method, base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("GET", "/boom"); code != 500 || !strings.HasPrefix(body, `{"error":"internal error (ref `) || strings.Contains(body, "kaboom") {
		t.Fatalf("panic got %d %s", code, body)
	}
	if !strings.Contains(logs.String(), "kaboom") || !strings.Contains(logs.String(), `"ref":`) {
		t.Errorf("the panic is not logged with its ref:\n%s", logs.String())
	}
	get("GET", "/nope")
	get("DELETE", "/api/ask")
	get("GET", "/healthz")
	text := scrape(t, m)
	for _, want := range []string{
		`memdb_oracle_http_requests_total{code="500",route="/boom"} 1`,
		`memdb_oracle_http_requests_total{code="404",route="unmatched"} 1`,
		`memdb_oracle_http_requests_total{code="405",route="unmatched"} 1`,
		`memdb_oracle_http_requests_total{code="200",route="/healthz"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestAnEmptyKeyIsAConfigurationError(t *testing.T) {
	if _, err := NewGuard(GuardOptions{Keys: []string{"a-long-enough-key-0123456789abcdef", " "}}); err == nil || !strings.Contains(err.Error(), "API key 2 is empty") {
		t.Fatalf("err = %v", err)
	}
}

func TestAPostFromAnotherSiteIsRefusedAndOneFromTheSameSiteOrAToolIsNot(t *testing.T) {
	base := startServer(t, &fakeBot{}, Options{})
	post := func(headers ...string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", base+"/api/ask", strings.NewReader(`{"question":"x"}`))
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"a tool without browser headers", nil, http.StatusOK},
		{"the site's own page", []string{"Origin", base}, http.StatusOK},
		{"another site's page (Origin)", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"another site's page (Sec-Fetch-Site)", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
	} {
		if got := post(tc.headers...); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTextResponsesAreCompressedForClientsThatAcceptIt(t *testing.T) {
	m := NewMetrics()
	base := startServer(t, &fakeBot{}, Options{Metrics: m})
	get := func(path, accept string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "GET", base+path, nil)
		req.Header.Set("Accept-Encoding", accept)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	// /metrics is large, and Prometheus gzips it itself.
	resp := get("/metrics", "gzip")
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatalf("/metrics: %q: %v", resp.Header.Get("Content-Encoding"), err)
	}
	if body, err := io.ReadAll(zr); err != nil || !strings.Contains(string(body), "memdb_oracle_") {
		t.Errorf("/metrics: %d bytes, %v", len(body), err)
	}
	// /healthz and a 404 are a few hundred bytes: not worth compressing.
	for _, path := range []string{"/healthz", "/nope"} {
		resp := get(path, "br, gzip")
		body, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("Content-Encoding") != "" || !strings.Contains(string(body), `"`) || resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Content-Encoding %q, Vary %q, body %q; want a tiny body as it is, still varying by encoding",
				path, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), body)
		}
	}
}
