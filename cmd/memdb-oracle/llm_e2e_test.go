package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm/llmtest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// A model that accepts the request and never replies, configured with a 60s
// timeout: the timeout is capped inside the (here short) message deadline,
// the cap is logged, and ask answers from the rules' reading with exit 0.
func TestAskWithAStuckModelAnswersInsideTheDeadline(t *testing.T) {
	fp := llmtest.New(t, llmtest.OpenAI, "")
	fp.Block = make(chan struct{})
	t.Cleanup(func() { close(fp.Block) })
	getenv := env("HOME", t.TempDir(), "MEMDB_ORACLE_DEADLINE", "2s",
		"MEMDB_ORACLE_LLM", "openai", "MEMDB_ORACLE_LLM_BASE_URL", fp.URL(), "MEMDB_ORACLE_LLM_TIMEOUT", "60s")
	start := time.Now()
	stdout, stderr, err := runInProcess(t, getenv, "", "--data", t.TempDir(), "ask", "--json", "the nimble one with the tiny blobs, how did it fare")
	if err != nil {
		t.Fatalf("ask exited with %v\nstderr: %s", err, stderr)
	}
	var a bot.AskJSON
	if err := json.Unmarshal([]byte(stdout), &a); err != nil {
		t.Fatalf("no JSON answer: %v\n%s", err, stdout)
	}
	if a.Kind != bot.KindClarify && a.Kind != bot.KindAnswer {
		t.Errorf("kind %s, want clarify or answer:\n%s", a.Kind, a.Text)
	}
	if fp.Requests() == 0 {
		t.Error("the model was never asked")
	}
	for _, want := range []string{"the model's timeout is capped", "setting=1m0s", "timeout=1.5s", "did not answer in time", "outcome=timeout"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if took := time.Since(start); took > time.Minute {
		t.Errorf("ask took %v", took)
	}
}

// serve with a model that fails every request: the start-up check says so,
// a question is still answered, and /metrics counts the failure.
func TestServeChecksTheModelAndCountsItsFailures(t *testing.T) {
	fp := llmtest.New(t, llmtest.Ollama, "")
	fp.Status = http.StatusInternalServerError
	ctx, cancel := context.WithCancel(t.Context())
	logs := newLogWatch()
	exited := make(chan struct{})
	var served error
	go func() {
		defer close(exited)
		served = run(ctx, []string{"--data", t.TempDir(), "serve", "--http-addr", "127.0.0.1:0"},
			env("MEMDB_ORACLE_LLM", "ollama", "MEMDB_ORACLE_LLM_BASE_URL", fp.URL()),
			strings.NewReader(""), io.Discard, logs)
	}()
	addr, ok := logs.addr(exited)
	if !ok {
		cancel()
		t.Fatalf("serve stopped before listening: %v\n%s", served, logs.String())
	}
	defer func() {
		cancel()
		<-exited
	}()
	if !awaitLog(logs, "language model did not answer the start-up check") {
		t.Errorf("no start-up check line:\n%s", logs.String())
	}
	if !logs.has(`"msg":"planner uses a language model`) || !logs.has(`"timeout":"8s"`) {
		t.Errorf("the config line does not show the timeout in force:\n%s", logs.String())
	}
	resp, err := http.Post("http://"+addr+"/api/ask", "application/json", strings.NewReader(`{"question":"the nimble one with the tiny blobs, how did it fare"}`))
	if err != nil {
		t.Fatal(err)
	}
	var a bot.AskJSON
	err = json.NewDecoder(resp.Body).Decode(&a)
	resp.Body.Close()
	if err != nil || a.Kind != bot.KindClarify {
		t.Errorf("answer %q (%v), want clarify", a.Kind, err)
	}
	metrics := get(t, "http://"+addr+"/metrics")
	for _, want := range []string{
		`memdb_oracle_llm_requests_total{outcome="http_error",provider="ollama"} 1`,
		`memdb_oracle_llm_requests_total{outcome="ok",provider="ollama"} 0`,
		`memdb_oracle_llm_request_duration_seconds_count{provider="ollama"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if !logs.has(`"outcome":"http_error"`) {
		t.Errorf("the failure is not in the logs:\n%s", logs.String())
	}
}

// awaitLog waits up to ten seconds for a log line containing s.
func awaitLog(logs *logWatch, s string) bool {
	return awaitLogs(s, logs)
}

// awaitLogs waits up to ten seconds for a log line containing s in any of
// the logs.
func awaitLogs(s string, logs ...*logWatch) bool {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(10 * time.Second)
	for !slices.ContainsFunc(logs, func(l *logWatch) bool { return l.has(s) }) {
		select {
		case <-tick.C:
		case <-timeout:
			return false
		}
	}
	return true
}
