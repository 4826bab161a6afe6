package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// fakePNG stands in for the chart renderer: the pages only link the image.
var fakePNG = []byte("\x89PNG\r\n\x1a\nfake")

// TestPages runs every page's cases over one real bot (embedded dataset,
// rules planner, in-memory thread memory): building it is most of the
// cost, so the cases share it.
func TestPages(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	cases := []struct {
		name string
		run  func(*testing.T, *bottest.Env)
	}{
		{"the ask page", askPageCases},
		{"asking without JavaScript", askWithoutJavaScriptCases},
		{"asking from the script", askFragmentCases},
		{"escaping", escapingCases},
		{"a run's page", runPageCases},
		{"a filter's page", runsPageCases},
		{"the dataset page", dataPageCases},
		{"the embedded assets", staticFileCases},
		{"a base path", basePathCases},
		{"the API's gate", guardCases},
		{"the gate's refusals as pages", refusalCases},
		{"a clarify's choices", clarifyChoiceCases},
		{"feedback on an answer", feedbackCases},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, env) })
	}
}

// siteFor serves the pages over env's bot with a fake chart renderer.
func siteFor(tb testing.TB, env *bottest.Env, opts Options) *http.ServeMux {
	tb.Helper()
	if opts.RenderChart == nil {
		opts.RenderChart = func(context.Context, bot.Chart) ([]byte, error) { return fakePNG, nil }
	}
	s, err := New(env.Bot, bot.NewDataset(env.Store, env.Knowledge), opts)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	return mux
}

// do sends one request to mux and returns the response and its body.
func do(tb testing.TB, mux http.Handler, r *http.Request) (*http.Response, string) {
	tb.Helper()
	r.RemoteAddr = "192.0.2.7:4321"
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, r)
	resp := rec.Result()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func get(tb testing.TB, mux http.Handler, target string) (*http.Response, string) {
	tb.Helper()
	return do(tb, mux, httptest.NewRequest(http.MethodGet, target, nil))
}

func postForm(tb testing.TB, mux http.Handler, form url.Values, fragment bool) (*http.Response, string) {
	tb.Helper()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if fragment {
		r.Header.Set(fragmentHeader, "1")
	}
	return do(tb, mux, r)
}

func mustContain(tb testing.TB, body string, wants ...string) {
	tb.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			tb.Errorf("page lacks %q", w)
		}
	}
}

func mustStatus(tb testing.TB, resp *http.Response, want int) {
	tb.Helper()
	if resp.StatusCode != want {
		tb.Fatalf("status %d, want %d", resp.StatusCode, want)
	}
}

var hiddenConversation = regexp.MustCompile(`name="c" value="([A-Za-z0-9_-]+)"`)

func askPageCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})

	t.Run("the empty page offers a labelled box and eight example chips", func(t *testing.T) {
		resp, body := get(t, mux, "/")
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, body, `<label for="q">`, `id="q" name="q"`, `action="/"`, `method="post"`)
		if n := strings.Count(body, `name="chip"`); n != 8 {
			t.Errorf("%d chips, want 8", n)
		}
		if strings.Contains(body, `<li class="turn`) {
			t.Error("an empty page shows a conversation")
		}
	})

	t.Run("every page carries the security headers", func(t *testing.T) {
		for _, target := range []string{"/", "/data", "/runs?filter=true", "/static/site.css", "/runs/nope"} {
			resp, _ := get(t, mux, target)
			h := resp.Header
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") ||
				!strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
				t.Errorf("%s: CSP %q", target, csp)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
				t.Errorf("%s: headers %v", target, h)
			}
		}
	})

	t.Run("an unchanged page is answered 304 to its ETag", func(t *testing.T) {
		resp, _ := get(t, mux, "/")
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("If-None-Match", etag)
		resp, _ = do(t, mux, r)
		mustStatus(t, resp, http.StatusNotModified)
	})

	t.Run("the empty page with its stylesheet, script and icon weighs under 100 KB", func(t *testing.T) {
		_, page := get(t, mux, "/")
		total := len(page)
		for _, asset := range regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`).FindAllStringSubmatch(page, -1) {
			_, body := get(t, mux, strings.ReplaceAll(asset[1], "&amp;", "&"))
			total += len(body)
		}
		if total > 100<<10 {
			t.Errorf("the ask page weighs %d bytes before the answer", total)
		}
	})

	t.Run("a link with ?q= fills the box without asking", func(t *testing.T) {
		_, body := get(t, mux, "/?q="+url.QueryEscape("What is pipelining?"))
		mustContain(t, body, `value="What is pipelining?"`)
		if strings.Contains(body, `<li class="turn`) {
			t.Error("a ?q= link asked the question")
		}
	})
}

func askWithoutJavaScriptCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})

	t.Run("a plain form post returns the whole page with the answer, its evidence and links", func(t *testing.T) {
		resp, body := postForm(t, mux, url.Values{"q": {"Is Dragonfly 25x faster than Redis?"}}, false)
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, body, "<!doctype html>", `<li class="turn" data-kind="claim">`,
			`<details class="evidence">`, "Verdict", `href="/runs/run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1"`,
			`href="/runs?filter=engine&#43;%3D%3D&#43;%22dragonfly%22`, `<label for="q">Follow-up question</label>`,
			`name="h" value="Is Dragonfly 25x faster than Redis?"`)
		if !hiddenConversation.MatchString(body) {
			t.Error("no conversation id for follow-ups")
		}
	})

	t.Run("every filter and run ID of the answer links to its runs", func(t *testing.T) {
		for _, q := range []string{"Is Dragonfly 25x faster than Redis?", "Redis at pipeline 64", "How does Valkey scale without pipelining?"} {
			a := env.Ask(t, "", q)
			_, body := postForm(t, mux, url.Values{"q": {q}}, false)
			for _, id := range a.Sources.RunIDs {
				mustContain(t, body, `href="/runs/`+id+`"`)
			}
			for _, f := range a.Sources.Filters {
				// html/template writes the query's "+" as "&#43;".
				mustContain(t, body, `href="`+strings.ReplaceAll((links{}).Filter(f), "+", "&#43;")+`"`)
			}
			if len(a.Sources.RunIDs) == 0 {
				t.Errorf("%q: no run IDs to check", q)
			}
		}
	})

	t.Run("a follow-up in the same conversation keeps the thread and lists the earlier question", func(t *testing.T) {
		_, first := postForm(t, mux, url.Values{"q": {"How fast is Dragonfly at 48 cores?"}}, false)
		conv := hiddenConversation.FindStringSubmatch(first)[1]
		_, body := postForm(t, mux, url.Values{"q": {"and at 16 cores?"}, "c": {conv}, "h": {"How fast is Dragonfly at 48 cores?"}}, false)
		mustContain(t, body, `<li class="turn earlier">`, "How fast is Dragonfly at 48 cores?", "Dragonfly (single process)", "16 cores",
			`name="c" value="`+conv+`"`)
	})

	t.Run("a chip asks its question", func(t *testing.T) {
		_, body := postForm(t, mux, url.Values{"q": {""}, "chip": {"How many bytes per key does Redis use?"}}, false)
		mustContain(t, body, "How many bytes per key does Redis use?", "bytes")
	})

	t.Run("an empty question is refused next to the box", func(t *testing.T) {
		resp, body := postForm(t, mux, url.Values{"q": {"   "}}, false)
		mustStatus(t, resp, http.StatusBadRequest)
		mustContain(t, body, `role="alert"`, "Type a question first", `aria-invalid="true"`)
	})

	t.Run("a question over 2000 characters is refused and kept in the box", func(t *testing.T) {
		resp, body := postForm(t, mux, url.Values{"q": {strings.Repeat("a", 2001)}}, false)
		mustStatus(t, resp, http.StatusBadRequest)
		mustContain(t, body, "longer than 2000 characters")
	})
}

func askFragmentCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})
	resp, body := postForm(t, mux, url.Values{"q": {"How does Valkey scale without pipelining?"}}, true)
	mustStatus(t, resp, http.StatusOK)
	if strings.Contains(body, "<html") || !strings.HasPrefix(strings.TrimSpace(body), `<li class="turn"`) {
		t.Errorf("the script's request got more than the answer: %.200s", body)
	}
	if !conversationID().MatchString(resp.Header.Get("X-Conversation")) {
		t.Errorf("X-Conversation = %q", resp.Header.Get("X-Conversation"))
	}
	img := regexp.MustCompile(`<img src="(/charts/[0-9a-f]+\.png)" alt="([^"]+)"`).FindStringSubmatch(body)
	if img == nil {
		t.Fatalf("the scaling answer shows no chart with alt text: %.400s", body)
	}
	resp, png := get(t, mux, img[1])
	mustStatus(t, resp, http.StatusOK)
	if resp.Header.Get("Content-Type") != "image/png" || png != string(fakePNG) {
		t.Errorf("chart image: %s %q", resp.Header.Get("Content-Type"), png)
	}
	resp, _ = get(t, mux, "/charts/0123456789abcdef.png")
	mustStatus(t, resp, http.StatusNotFound)
}

func escapingCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})
	const evil = `<script>alert("x")</script> is <b>dragonfly</b> fast?`
	for _, fragment := range []bool{false, true} {
		_, body := postForm(t, mux, url.Values{"q": {evil}}, fragment)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>dragonfly") {
			t.Errorf("fragment=%v: the question's markup reached the page unescaped", fragment)
		}
		mustContain(t, body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; is &lt;b&gt;dragonfly&lt;/b&gt; fast?")
	}
	_, body := get(t, mux, "/runs?filter="+url.QueryEscape(`engine == "<script>"`))
	if strings.Contains(body, `"<script>"`) {
		t.Error("a filter's markup reached the page unescaped")
	}
}

func runPageCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})
	const id = "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1"

	t.Run("a run shows every field, its cell's repetitions and median, the session and its line", func(t *testing.T) {
		resp, body := get(t, mux, "/runs/"+id)
		mustStatus(t, resp, http.StatusOK)
		for _, f := range []string{"run_id", "note", "engine", "mode", "shards", "server_threads", "cores", "client_threads",
			"client_conns", "pipeline", "ratio", "value_bytes", "key_max", "test_time_s", "rep", "ops_per_sec", "ops_per_core",
			"p50_ms", "p99_ms", "p999_ms", "hit_rate", "conn_errors", "kb_per_sec"} {
			mustContain(t, body, "<code>"+f+"</code>")
		}
		mustContain(t, body, "15,503,060.15", // this repetition, exactly
			`href="/runs/run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2"`, "Median (cell)", "15,473,658.395",
			"Session 1", "c7i.metal-24xl", "Dragonfly v1.40.1", "Software versions",
			"runs-aws.csv", "results/runs-aws.csv#L", "ops_per_sec</code></th><td>15503060.15")
	})

	t.Run("an unknown run is a 404 that says how run IDs look", func(t *testing.T) {
		resp, body := get(t, mux, "/runs/run-s9-nothing")
		mustStatus(t, resp, http.StatusNotFound)
		mustContain(t, body, "No measured run is called", "run-s9-nothing")
	})
}

func runsPageCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})

	t.Run("a filter lists per-cell medians and its runs", func(t *testing.T) {
		resp, body := get(t, mux, "/runs?filter="+url.QueryEscape(`engine == "keydb" && cores == 16 && ratio == "1:10" && pipeline == 16`))
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, body, "Per-cell medians", "KeyDB (single process)", `class="runid" href="/runs/run-s2-`)
		if strings.Contains(body, "page 1 of") {
			t.Error("a short list is paged")
		}
	})

	t.Run("all runs are paged fifty at a time", func(t *testing.T) {
		_, body := get(t, mux, "/runs?filter=true&page=2")
		mustContain(t, body, "478 runs", "254 cells", "(page 2 of 10)", `rel="prev"`, `rel="next"`)
		if n := strings.Count(body, `<tr><td><a class="runid"`); n != runsPerPage {
			t.Errorf("%d runs on the page, want %d", n, runsPerPage)
		}
	})

	t.Run("a refused filter is explained inline with a caret", func(t *testing.T) {
		resp, body := get(t, mux, "/runs?filter="+url.QueryEscape(`core == 48`))
		mustStatus(t, resp, http.StatusBadRequest)
		mustContain(t, body, "This filter was refused", `did you mean`, "core == 48\n^", `value="core == 48"`)
	})

	t.Run("a filter matching nothing says so and points at the coverage", func(t *testing.T) {
		_, body := get(t, mux, "/runs?filter="+url.QueryEscape(`cores == 7`))
		mustContain(t, body, "No measured run matches", "#coverage")
	})

	t.Run("without a filter the page offers the box", func(t *testing.T) {
		resp, body := get(t, mux, "/runs")
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, body, `<label for="filter">`)
	})
}

func dataPageCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})
	resp, body := get(t, mux, "/data")
	mustStatus(t, resp, http.StatusOK)
	mustContain(t, body, "478 measured runs", "254 cells",
		`id="sessions"`, "Session 1", "Session 2",
		`id="engines"`, "Garnet", `href="/runs?filter=engine&#43;%3D%3D&#43;%22garnet%22"`,
		`id="coverage"`, "Valkey Cluster", `aria-label="2 repetitions"`,
		`id="memory"`, "bytes per key", `id="failover"`, "down-after",
		`id="glossary"`, `id="term:pipelining"`, `id="claims"`, `id="claim:dragonfly-25x"`, "Verdict:",
		`href="/?q=`)
}

func staticFileCases(t *testing.T, env *bottest.Env) {
	mux := siteFor(t, env, Options{})
	_, home := get(t, mux, "/")
	for _, name := range []string{"site.css", "ask.js"} {
		var v string
		if m := regexp.MustCompile(`"/static/([0-9a-f]+)/` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(home); m != nil {
			v = m[1]
		}
		resp, body := get(t, mux, "/static/"+v+"/"+name)
		mustStatus(t, resp, http.StatusOK)
		if v == "" || body == "" || resp.Header.Get("ETag") == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s at its version %q: %v", name, v, resp.Header)
		}
		// A version that is not this file's is never pinned for a year.
		for _, wrong := range []string{"/static/" + name + "?v=1", "/static/0123abcd/" + name} {
			if resp, _ := get(t, mux, wrong); strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("%s (a wrong version) is cached as immutable", wrong)
			}
		}
		r := httptest.NewRequest(http.MethodGet, "/static/"+name, nil)
		r.Header.Set("If-None-Match", resp.Header.Get("ETag"))
		resp, _ = do(t, mux, r)
		mustStatus(t, resp, http.StatusNotModified)
	}
	resp, _ := get(t, mux, "/static/missing.js")
	mustStatus(t, resp, http.StatusNotFound)
}

func basePathCases(t *testing.T, env *bottest.Env) {
	t.Run("every link and route sits under the base path", func(t *testing.T) {
		mux := siteFor(t, env, Options{BasePath: "/oracle"})
		resp, body := get(t, mux, "/oracle/")
		mustStatus(t, resp, http.StatusOK)
		mustContain(t, body, `href="/oracle/static/`, `/site.css"`, `src="/oracle/static/`, `/ask.js"`, `action="/oracle/"`, `href="/oracle/data"`)
		_, body = postForm(t, mux, nil, false) // "/" is outside the base path
		if strings.Contains(body, "<form") {
			t.Error("the page answered outside its base path")
		}
		r := httptest.NewRequest(http.MethodPost, "/oracle/", strings.NewReader("q=What+is+pipelining%3F"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		_, body = do(t, mux, r)
		mustContain(t, body, `action="/oracle/"`, "Pipeline depth")
		resp, _ = get(t, mux, "/oracle/runs/run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1")
		mustStatus(t, resp, http.StatusOK)
		resp, _ = get(t, mux, "/oracle")
		mustStatus(t, resp, http.StatusMovedPermanently)
	})

	t.Run("a malformed base path is refused", func(t *testing.T) {
		for _, bad := range []string{"oracle", "/oracle/", "/a b", "/<x>"} {
			if _, err := New(nil, nil, Options{BasePath: bad}); err == nil {
				t.Errorf("%q accepted", bad)
			}
		}
	})
}

func guardCases(t *testing.T, env *bottest.Env) {
	guard := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer k" {
				http.Error(w, "missing key", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	mux := siteFor(t, env, Options{Guard: guard})
	for _, target := range []string{"/", "/data", "/runs?filter=true", "/runs/run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1"} {
		resp, _ := get(t, mux, target)
		mustStatus(t, resp, http.StatusUnauthorized)
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.Header.Set("Authorization", "Bearer k")
		resp, _ = do(t, mux, r)
		mustStatus(t, resp, http.StatusOK)
	}
	resp, _ := postForm(t, mux, url.Values{"q": {"What is pipelining?"}}, false)
	mustStatus(t, resp, http.StatusUnauthorized)
	// Assets cost no request of the client's limit and hold nothing private.
	resp, _ = get(t, mux, "/static/site.css")
	mustStatus(t, resp, http.StatusOK)
}

// refusalCases: the API's gate refuses in JSON (as adapters/http's Guard
// does); a browser posting the form without the script gets the ask page
// with the reason and its question kept, the script gets the JSON.
func refusalCases(t *testing.T, env *bottest.Env) {
	guard := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			if r.Header.Get("Authorization") == "" {
				w.Header().Set("WWW-Authenticate", `Bearer realm="memdb-oracle"`)
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"a valid API key is required"}` + "\n"))
				return
			}
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":"rate limit reached: this client may make 5 requests in quick succession; retry in 7 s","retry_after_seconds":7}` + "\n"))
		})
	}
	mux := siteFor(t, env, Options{Guard: guard})

	form := url.Values{"q": {"how fast is dragonfly at 8 cores?"}, "c": {"conv-12345678"}, "h": {"what is pipelining?"}}
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Authorization", "Bearer k")
	resp, body := do(t, mux, r)
	mustStatus(t, resp, http.StatusTooManyRequests)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("a rate-limited form post got %s, want the page", ct)
	}
	if resp.Header.Get("Retry-After") != "7" {
		t.Errorf("Retry-After %q, want it kept", resp.Header.Get("Retry-After"))
	}
	for _, want := range []string{
		`role="alert">Not asked: rate limit reached: this client may make 5 requests in quick succession; retry in 7 s. Your question is still in the box; ask again in 7 s.`,
		`value="how fast is dragonfly at 8 cores?"`, // the question, to send again
		`name="c" value="conv-12345678"`,            // the conversation goes on
		`what is pipelining?`,                       // and its earlier questions
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal page lacks %q:\n%s", want, body)
		}
	}

	resp, body = postForm(t, mux, form, true)
	mustStatus(t, resp, http.StatusUnauthorized)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || !strings.Contains(body, `"error":"a valid API key is required"`) {
		t.Errorf("the script's request got %s %q, want the gate's JSON", ct, body)
	}

	resp, body = get(t, mux, "/data")
	mustStatus(t, resp, http.StatusUnauthorized)
	if !strings.Contains(body, "The server refused the page: a valid API key is required.") || resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("a refused page view is not explained on a page (WWW-Authenticate %q):\n%s", resp.Header.Get("WWW-Authenticate"), body)
	}

	// With signing in offered, the refused page holds the form instead of
	// asking for a header a browser cannot send.
	signIn := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusSeeOther) })
	mux = siteFor(t, env, Options{Guard: guard, SignIn: signIn})
	resp, body = get(t, mux, "/data")
	mustStatus(t, resp, http.StatusUnauthorized)
	for _, want := range []string{`action="/signin"`, `name="key" type="password"`, "Sign in with an API key"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused page lacks %q", want)
		}
	}
	if strings.Contains(body, "Authorization") {
		t.Error("the page still tells the browser to send an Authorization header")
	}
}
