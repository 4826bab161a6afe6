package llm_test

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	"github.com/memdb-oracle/memdb-oracle/adapters/llm/llmtest"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// deadPort is a loopback address nothing listens on.
func deadPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func scrapeMetrics(t *testing.T, m *httpadapter.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// Every outcome of a model call, against each provider's fake, shows in
// /metrics and in one warning (or info) line at the level the commands log
// at by default, and the rules' own reading answers whatever happened.
func TestModelOutcomesAreCountedAndLogged(t *testing.T) {
	st := analyticstest.OpenStore(t)
	const vague = "the nimble one with the tiny blobs, how did it fare"
	type setup func(t *testing.T, provider string) (baseURL string, client *http.Client)
	serving := func(reply string, adjust func(*llmtest.Provider)) setup {
		return func(t *testing.T, provider string) (string, *http.Client) {
			fp := llmtest.New(t, provider, reply)
			if adjust != nil {
				adjust(fp)
			}
			return fp.URL(), fp.Client()
		}
	}
	for _, provider := range []string{llm.ProviderOpenAI, llm.ProviderOllama, llm.ProviderAnthropic} {
		for _, tt := range []struct {
			name    string
			every   bool // run against every provider, not only the OpenAI-compatible one
			setup   setup
			outcome string
			logged  string
			source  string
			budget  time.Duration // zero: long enough for any loopback reply
		}{
			{"a reply inside the schema is ok", true, serving(`{"intent":"lookup","engines":["dragonfly"],"cores":[16]}`, nil),
				planner.CompletionOK, "language model answered", "llm", 0},
			{"an HTTP 500 is an http_error", true, serving("", func(fp *llmtest.Provider) { fp.Status = http.StatusInternalServerError }),
				planner.CompletionHTTPError, "language model failed", "rules", 0},
			{"a dead port is an http_error", true, func(t *testing.T, _ string) (string, *http.Client) { return deadPort(t), nil },
				planner.CompletionHTTPError, "language model failed", "rules", 0},
			{"a reply outside the schema is rejected", false, serving(`{"intent":"lookup","ops_per_sec":99}`, nil),
				planner.CompletionRejected, "language model reply rejected", "rules", 0},
			{"a model past its budget is a timeout", false, serving("", func(fp *llmtest.Provider) {
				fp.Block = make(chan struct{})
				t.Cleanup(func() { close(fp.Block) })
			}), planner.CompletionTimeout, "language model did not answer in time", "rules", 50 * time.Millisecond},
		} {
			if !tt.every && provider != llm.ProviderOpenAI {
				continue // the planner decides these the same way whatever the provider
			}
			t.Run(provider+": "+tt.name, func(t *testing.T) {
				base, client := tt.setup(t, provider)
				c, err := llm.New(llm.Config{Provider: provider, BaseURL: base, APIKey: llm.NewSecret("k-123"), HTTPClient: client})
				if err != nil {
					t.Fatal(err)
				}
				budget := tt.budget
				if budget == 0 {
					budget = 10 * time.Second
				}
				var logs strings.Builder
				m := httpadapter.NewMetrics()
				p := planner.New(st, nil, planner.Options{
					Completer: c, CompleterTimeout: budget,
					Observer: m.CompletionObserver(provider),
					Logger:   slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
				})
				for range 2 {
					pl, err := p.Plan(t.Context(), vague, nil)
					if err != nil {
						t.Fatal(err)
					}
					if pl.Source != tt.source {
						t.Errorf("plan from %s, want %s", pl.Source, tt.source)
					}
				}
				text := scrapeMetrics(t, m)
				for _, o := range planner.CompletionOutcomes() {
					want := 0
					if o == tt.outcome {
						want = 2
					}
					series := fmt.Sprintf(`memdb_oracle_llm_requests_total{outcome=%q,provider=%q} %d`, o, provider, want)
					if !strings.Contains(text, series) {
						t.Errorf("metrics lack %s", series)
					}
				}
				if want := fmt.Sprintf(`memdb_oracle_llm_request_duration_seconds_count{provider=%q} 2`, provider); !strings.Contains(text, want) {
					t.Errorf("metrics lack %s", want)
				}
				lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
				if len(lines) != 1 || !strings.Contains(lines[0], tt.logged) || !strings.Contains(lines[0], "outcome="+tt.outcome) {
					t.Errorf("want one line %q with outcome=%s for two calls (sampled), got:\n%s", tt.logged, tt.outcome, logs.String())
				}
				if tt.outcome != planner.CompletionOK && !strings.Contains(lines[0], "level=WARN") {
					t.Errorf("a failing model is not a warning, so the default level hides it:\n%s", lines[0])
				}
				if strings.Contains(logs.String(), "k-123") {
					t.Errorf("the API key is in the logs:\n%s", logs.String())
				}
			})
		}
	}
}
