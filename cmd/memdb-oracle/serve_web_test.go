package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestServeWebPages(t *testing.T) {
	t.Run("the pages sit on the API's listener under the base path; questions share one limit, page views have their own", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		logs := newLogWatch()
		exited := make(chan struct{})
		var served error
		go func() {
			defer close(exited)
			served = run(ctx, []string{"--data", t.TempDir(), "serve", "--http-addr", "127.0.0.1:0"},
				env("MEMDB_ORACLE_BASE_PATH", "/oracle", "MEMDB_ORACLE_HTTP_RATE_BURST", "2", "MEMDB_ORACLE_HTTP_RATE_PER_MINUTE", "0.01"),
				strings.NewReader(""), io.Discard, logs)
		}()
		defer func() { cancel(); <-exited }()
		addr, ok := logs.addr(exited)
		if !ok {
			t.Fatalf("serve stopped before listening: %v\n%s", served, logs.String())
		}
		base := "http://" + addr
		page := get(t, base+"/oracle/")
		if !strings.Contains(page, `action="/oracle/"`) || !strings.Contains(page, `name="chip"`) {
			t.Errorf("the ask page is not served under the base path:\n%.500s", page)
		}
		if css := get(t, base+"/oracle/static/site.css"); !strings.Contains(css, "prefers-color-scheme") {
			t.Errorf("the stylesheet: %.200s", css) // assets cost nothing of the limit
		}
		if page := get(t, base+"/oracle/data"); !strings.Contains(page, "478 measured runs") {
			t.Errorf("the dataset page: %.300s", page)
		}
		post := func() (int, string) {
			resp, err := http.PostForm(base+"/oracle/", url.Values{"q": {"Dragonfly at 8 cores"}})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if code, page := post(); code != http.StatusOK || !strings.Contains(page, "Dragonfly (single process)") {
			t.Errorf("asking on the page: %d\n%.500s", code, page)
		}
		resp, err := http.Post(base+"/api/ask", "application/json", strings.NewReader(`{"question": "Dragonfly at 8 cores"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if code, _ := post(); code != http.StatusTooManyRequests {
			t.Errorf("third question (one on the page, one on the API) with a burst of 2: %d, want 429 — the pages and the API share one question limit", code)
		}
		if page := get(t, base+"/oracle/data"); !strings.Contains(page, "478 measured runs") {
			t.Errorf("a page view once the questions are spent: %.300s — page views have their own bucket", page)
		}
	})

	t.Run("a malformed base path stops serve by name", func(t *testing.T) {
		err := run(t.Context(), []string{"--data", t.TempDir(), "serve", "--http-addr", "127.0.0.1:0"},
			env("MEMDB_ORACLE_BASE_PATH", "oracle/"), strings.NewReader(""), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "MEMDB_ORACLE_BASE_PATH") {
			t.Errorf("serve returned %v, want an error naming MEMDB_ORACLE_BASE_PATH", err)
		}
	})
}
