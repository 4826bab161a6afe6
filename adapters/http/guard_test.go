package http

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// ask posts one question with optional headers and returns the response.
func ask(t testing.TB, base string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", base+"/api/ask", strings.NewReader(`{"question":"Dragonfly"}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func guarded(t testing.TB, opts GuardOptions) (string, *Metrics) {
	t.Helper()
	m := NewMetrics()
	opts.Metrics = m
	g, err := NewGuard(opts)
	if err != nil {
		t.Fatal(err)
	}
	return startServer(t, &fakeBot{}, Options{Guard: g, Metrics: m}), m
}

func trustLoopback(t testing.TB) TrustedProxies {
	t.Helper()
	p, err := ParseTrustedProxies("127.0.0.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestThirtyDistinctClientsAreEachAnsweredWithTheDefaultLimits(t *testing.T) {
	base, _ := guarded(t, GuardOptions{Proxies: trustLoopback(t), Limiter: bot.NewLimiter(DefaultClientLimits(), bottest.NewMemKV(nil), nil)})
	for i := range 30 {
		resp, body := ask(t, base, "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("client %d got %d %s", i+1, resp.StatusCode, body)
		}
	}
}

func TestForwardedAddressesFromAnUntrustedPeerShareThePeersBucket(t *testing.T) {
	limits := DefaultClientLimits()
	base, _ := guarded(t, GuardOptions{Limiter: bot.NewLimiter(limits, nil, nil)})
	refused := 0
	for i := range limits.UserBurst + 1 {
		resp, _ := ask(t, base, "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1))
		if resp.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d of %d requests refused; spoofed X-Forwarded-For must not pick a fresh bucket", refused, limits.UserBurst+1)
	}
}

func TestAPIKeys(t *testing.T) {
	limits := bot.Limits{UserPerMinute: 1, UserBurst: 2}
	base, m := guarded(t, GuardOptions{Keys: []string{"alpha-key-0123456789abcdef0123456789", "beta-key-0123456789abcdef01234567890"}, Limiter: bot.NewLimiter(limits, nil, nil)})
	t.Run("a request without a key is refused with a JSON 401", func(t *testing.T) {
		resp, body := ask(t, base)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `"error":"a valid API key is required`) ||
			resp.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("got %d %s %v", resp.StatusCode, body, resp.Header)
		}
	})
	t.Run("a wrong key or another scheme is refused", func(t *testing.T) {
		for _, h := range []string{"Bearer gamma-key", "Basic alpha-key-0123456789abcdef0123456789", "Bearer", "alpha-key-0123456789abcdef0123456789"} {
			if resp, _ := ask(t, base, "Authorization", h); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%q got %d", h, resp.StatusCode)
			}
		}
	})
	t.Run("each key has its own bucket", func(t *testing.T) {
		for range 2 {
			if resp, body := ask(t, base, "Authorization", "Bearer alpha-key-0123456789abcdef0123456789"); resp.StatusCode != http.StatusOK {
				t.Fatalf("alpha got %d %s", resp.StatusCode, body)
			}
		}
		resp, body := ask(t, base, "Authorization", "Bearer alpha-key-0123456789abcdef0123456789")
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("alpha's third request got %d %s", resp.StatusCode, body)
		}
		if resp, body := ask(t, base, "authorization", "bearer beta-key-0123456789abcdef01234567890"); resp.StatusCode != http.StatusOK {
			t.Fatalf("beta got %d %s after alpha was limited", resp.StatusCode, body)
		}
	})
	text := scrape(t, m)
	for _, want := range []string{`memdb_oracle_http_requests_total{code="401",route="/api/ask"} 5`,
		`memdb_oracle_http_requests_total{code="429",route="/api/ask"} 1`} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestARateLimitedRequestSaysWhenToRetry(t *testing.T) {
	base, _ := guarded(t, GuardOptions{Limiter: bot.NewLimiter(bot.Limits{UserPerMinute: 0.5, UserBurst: 1}, nil, nil)})
	ask(t, base)
	resp, body := ask(t, base)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs < 119 || secs > 120 {
		t.Fatalf("Retry-After %q, want whole seconds up to the 120 s refill", resp.Header.Get("Retry-After"))
	}
	var got rateLimited
	if err := json.Unmarshal([]byte(body), &got); err != nil || got.RetryAfter != secs || !strings.Contains(got.Error, "retry in") {
		t.Fatalf("body %s, err %v", body, err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q", ct)
	}
}

func TestRefusalsAreLoggedOncePerClientPerMinuteWithTheirCount(t *testing.T) {
	clock := bottest.NewClock(bottest.Start)
	var logs bytes.Buffer
	g, err := NewGuard(GuardOptions{
		Limiter: bot.NewLimiter(bot.Limits{UserPerMinute: 0.001, UserBurst: 1}, nil, clock.Now),
		Logger:  slog.New(slog.NewJSONHandler(&logs, nil)),
		Now:     clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	hit := func(addr string) int {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/ask", nil)
		req.RemoteAddr = addr
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for range 51 {
		hit("192.0.2.1:1000")
	}
	hit("192.0.2.2:1000")
	hit("192.0.2.2:1000")
	if n := strings.Count(logs.String(), `"msg":"rate limited"`); n != 2 {
		t.Fatalf("%d lines for 51 refusals of two clients, want one per client:\n%s", n, logs.String())
	}
	clock.Advance(time.Minute)
	logs.Reset()
	hit("192.0.2.1:1000")
	if !strings.Contains(logs.String(), `"refused_in_last_minute":50`) {
		t.Fatalf("the next minute's line does not carry the 49 unlogged refusals plus this one:\n%s", logs.String())
	}
}

func TestClientAddr(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8 192.0.2.7 ::1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		proxies TrustedProxies
		peer    string
		headers map[string]string
		want    string
	}{
		{"without trusted proxies the peer is the client whatever it forwards", nil, "203.0.113.5:4000",
			map[string]string{"X-Forwarded-For": "198.51.100.1"}, "203.0.113.5"},
		{"an untrusted peer's X-Forwarded-For is ignored", trusted, "203.0.113.5:4000",
			map[string]string{"X-Forwarded-For": "198.51.100.1"}, "203.0.113.5"},
		{"a trusted proxy's X-Forwarded-For names the client", trusted, "10.1.2.3:4000",
			map[string]string{"X-Forwarded-For": "198.51.100.1"}, "198.51.100.1"},
		{"a chain of trusted proxies is walked to the first untrusted hop", trusted, "10.1.2.3:4000",
			map[string]string{"X-Forwarded-For": "198.51.100.1, 10.9.9.9, 192.0.2.7"}, "198.51.100.1"},
		{"an address the client wrote in front of the chain is not believed", trusted, "10.1.2.3:4000",
			map[string]string{"X-Forwarded-For": "6.6.6.6, 198.51.100.1"}, "198.51.100.1"},
		{"Forwarded for= is read, IPv6 with a port included", trusted, "[::1]:4000",
			map[string]string{"Forwarded": `for="[2001:db8::1]:4711";proto=https`}, "2001:db8::1"},
		{"Forwarded wins over X-Forwarded-For", trusted, "10.1.2.3:4000",
			map[string]string{"Forwarded": "for=198.51.100.9", "X-Forwarded-For": "198.51.100.1"}, "198.51.100.9"},
		{"a trusted proxy without headers is the client itself", trusted, "10.1.2.3:4000", nil, "10.1.2.3"},
		{"an unreadable hop stops the walk at the last trusted address", trusted, "10.1.2.3:4000",
			map[string]string{"X-Forwarded-For": "unknown"}, "10.1.2.3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			if got := tt.proxies.ClientAddr(r); got != tt.want {
				t.Errorf("ClientAddr = %s, want %s", got, tt.want)
			}
		})
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, proxy.local"); err == nil || !strings.Contains(err.Error(), "proxy.local") {
		t.Errorf("a host name must be refused by name, got %v", err)
	}
}

func TestAKeyedThreadBelongsToItsKey(t *testing.T) {
	fb := &fakeBot{}
	g, err := NewGuard(GuardOptions{Keys: []string{"k1-0123456789abcdef0123456789abcdef"}})
	if err != nil {
		t.Fatal(err)
	}
	base := startServer(t, fb, Options{Guard: g})
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/api/ask", strings.NewReader(`{"question":"x","thread":"t1"}`))
	req.Header.Set("Authorization", "Bearer k1-0123456789abcdef0123456789abcdef")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	msgs := fb.messages()
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0].Thread, "key:") || !strings.HasSuffix(msgs[0].Thread, "/t1") {
		t.Fatalf("bot got %+v, want the thread scoped by the key", msgs)
	}
}

func TestThirtyAddressesOfOneIPv6NetworkShareOneBucket(t *testing.T) {
	limits := bot.Limits{UserPerMinute: 0.01, UserBurst: 10}
	base, _ := guarded(t, GuardOptions{Proxies: trustLoopback(t), Limiter: bot.NewLimiter(limits, nil, nil)})
	admitted := 0
	for i := range 30 {
		if resp, _ := ask(t, base, "X-Forwarded-For", fmt.Sprintf("2001:db8:1:2::%x", i+1)); resp.StatusCode == http.StatusOK {
			admitted++
		}
	}
	if admitted != limits.UserBurst {
		t.Fatalf("%d of 30 addresses of one /64 admitted; want one bucket's burst of %d", admitted, limits.UserBurst)
	}
	if resp, _ := ask(t, base, "X-Forwarded-For", "2001:db8:1:3::1"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the next /64 got %d; want its own bucket", resp.StatusCode)
	}
}

// Key guesses from one source are refused with 401 up to the limit, then
// with 429 without the key being looked at (the right key included) until
// the minute passes; every refused key is counted, and the log gets a line
// a minute, not a line a guess.
func TestGuessingAPIKeysIsLimitedCountedAndLoggedSampled(t *testing.T) {
	clock := bottest.NewClock(time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC))
	var logs bytes.Buffer
	const key = "the-real-key-0123456789abcdef0123456789"
	base, m := guarded(t, GuardOptions{Keys: []string{key}, MaxKeyFailures: 5, Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	codes := map[int]int{}
	for i := range 200 {
		resp, _ := ask(t, base, "Authorization", fmt.Sprintf("Bearer guess-%d", i))
		codes[resp.StatusCode]++
	}
	if codes[http.StatusUnauthorized] != 5 || codes[http.StatusTooManyRequests] != 195 {
		t.Fatalf("codes %v; want 5 × 401 then 195 × 429", codes)
	}
	if resp, body := ask(t, base, "Authorization", "Bearer "+key); resp.StatusCode != http.StatusTooManyRequests ||
		!strings.Contains(body, "too many refused API keys") {
		t.Fatalf("the right key while blocked: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(scrape(t, m), "memdb_oracle_http_key_failures_total 5") {
		t.Error("the refused keys are not counted")
	}
	if n := strings.Count(logs.String(), "\n"); n > 2 {
		t.Errorf("%d log lines for 201 refusals:\n%s", n, logs.String())
	}
	clock.Advance(time.Minute)
	if resp, body := ask(t, base, "Authorization", "Bearer "+key); resp.StatusCode != http.StatusOK {
		t.Fatalf("the right key a minute later: %d %s", resp.StatusCode, body)
	}
}

func TestAnAPIKeyShorterThan32CharactersIsAConfigurationError(t *testing.T) {
	if _, err := NewGuard(GuardOptions{Keys: []string{"x"}}); err == nil || !strings.Contains(err.Error(), "at least 32") {
		t.Fatalf("err = %v", err)
	}
}

// guardedSite serves a page behind WrapPages, a question behind Wrap and
// the sign-in form, as the web pages use them.
func guardedSite(t *testing.T, opts GuardOptions) (string, *Metrics) {
	t.Helper()
	m := NewMetrics()
	opts.Metrics = m
	g, err := NewGuard(opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok "+ClientOf(r.Context()).ID) })
	mux.Handle("GET /page", g.WrapPages(ok))
	mux.Handle("POST /ask", g.Wrap(ok))
	mux.Handle("POST /signin", g.SignIn("/page"))
	srv := httptest.NewServer(Root(mux, m, nil))
	t.Cleanup(srv.Close)
	return srv.URL, m
}

func send(t *testing.T, method, url string, body string, cookies ...*http.Cookie) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func TestABrowserSignsInOnceWithAKeyAndCarriesAStrictHttpOnlyCookie(t *testing.T) {
	const key = "browser-key-0123456789abcdef0123456789"
	base, m := guardedSite(t, GuardOptions{Keys: []string{key}})
	if resp := send(t, "GET", base+"/page", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a page without signing in: %d", resp.StatusCode)
	}
	if resp := send(t, "POST", base+"/signin", "key=wrong-key-0123456789abcdef0123456789"); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Fatalf("a wrong key: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	resp := send(t, "POST", base+"/signin", "key="+key+"&next=//evil.example/")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/page" {
		t.Fatalf("signing in: %d to %q; want 303 to the site's own page", resp.StatusCode, resp.Header.Get("Location"))
	}
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.MaxAge <= 0 {
		t.Fatalf("session cookie %+v; want HttpOnly, SameSite=Strict, with a lifetime", session)
	}
	for _, r := range []*http.Response{send(t, "GET", base+"/page", "", session), send(t, "POST", base+"/ask", "q=x", session)} {
		if r.StatusCode != http.StatusOK {
			t.Errorf("%s %s with the session: %d", r.Request.Method, r.Request.URL.Path, r.StatusCode)
		}
	}
	forged := &http.Cookie{Name: SessionCookie, Value: "99999999999.00ff"}
	if r := send(t, "GET", base+"/page", "", forged); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a forged session: %d", r.StatusCode)
	}
	if !strings.Contains(scrape(t, m), "memdb_oracle_http_key_failures_total 2") {
		t.Error("the wrong key at sign-in and the forged session are not counted (a first visit without either is not a guess)")
	}
}

func TestPageViewsHaveTheirOwnBucketAndAPublicSiteShowsThemReadOnly(t *testing.T) {
	base, _ := guardedSite(t, GuardOptions{
		Limiter:     bot.NewLimiter(bot.Limits{UserPerMinute: 0.01, UserBurst: 1}, nil, nil),
		PageLimiter: bot.NewLimiter(bot.Limits{UserPerMinute: 0.01, UserBurst: 20}, nil, nil),
	})
	if r := send(t, "POST", base+"/ask", "q=x"); r.StatusCode != http.StatusOK {
		t.Fatalf("the question: %d", r.StatusCode)
	}
	for i := range 20 { // the runs linked from the answer
		if r := send(t, "GET", base+"/page", ""); r.StatusCode != http.StatusOK {
			t.Fatalf("page view %d after a question: %d", i+1, r.StatusCode)
		}
	}

	const key = "public-key-0123456789abcdef0123456789"
	public, _ := guardedSite(t, GuardOptions{Keys: []string{key}, PublicPages: true})
	if r := send(t, "GET", public+"/page", ""); r.StatusCode != http.StatusOK {
		t.Errorf("a public page without a key: %d", r.StatusCode)
	}
	if r := send(t, "POST", public+"/ask", "q=x"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a question on a public site without a key: %d", r.StatusCode)
	}
}
