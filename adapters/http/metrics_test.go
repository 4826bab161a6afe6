package http

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestMetricsCountQuestionsAskedOverHTTP(t *testing.T) {
	m := NewMetrics()
	base := startServer(t, m.Instrument(&fakeBot{}), Options{Metrics: m})
	for _, q := range []string{"Dragonfly", "Dragonfly again", "MySQL or postgres?", "redis pipeline 64", "boom", "Dragonfly"} {
		post(t, base+"/api/ask", "application/json", `{"question":"`+q+`"}`)
	}
	post(t, base+"/api/ask", "application/json", `not json`)

	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	text := string(b)
	for _, want := range []string{
		`memdb_oracle_questions_total{kind="answer",platform="http"} 2`,
		`memdb_oracle_questions_total{kind="rate_limited",platform="http"} 1`,
		`memdb_oracle_questions_total{kind="out_of_scope",platform="http"} 1`,
		`memdb_oracle_refusals_total{kind="out_of_scope",platform="http"} 1`,
		`memdb_oracle_refusals_total{kind="no_data",platform="http"} 1`,
		`memdb_oracle_rate_limited_total{platform="http"} 1`,
		`memdb_oracle_errors_total{platform="http"} 1`,
		`memdb_oracle_answer_duration_seconds_count{platform="http"} 6`,
		`memdb_oracle_http_requests_total{code="200",route="/api/ask"} 4`,
		`memdb_oracle_http_requests_total{code="400",route="/api/ask"} 1`,
		`process_start_time_seconds`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestMetricsObserve(t *testing.T) {
	tests := []struct {
		name     string
		platform string
		kind     bot.Kind
		want     []string
		notWant  []string
	}{
		{"an answer counts only as a question", "slack", bot.KindAnswer,
			[]string{`memdb_oracle_questions_total{kind="answer",platform="slack"} 1`},
			[]string{"memdb_oracle_refusals_total{", "memdb_oracle_errors_total{", "memdb_oracle_rate_limited_total{"}},
		{"a never-measured answer is a refusal", "discord", bot.KindNoData,
			[]string{`memdb_oracle_refusals_total{kind="no_data",platform="discord"} 1`}, nil},
		{"an empty platform is labelled unknown", "", bot.KindError,
			[]string{`memdb_oracle_errors_total{platform="unknown"} 1`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMetrics()
			m.Observe(tt.platform, bot.Answer{Kind: tt.kind}, 30*time.Millisecond)
			text := scrape(t, m)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("metrics lack %s", w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(text, w) {
					t.Errorf("metrics unexpectedly have %s", w)
				}
			}
			if !strings.Contains(text, `memdb_oracle_answer_duration_seconds_bucket{platform="`) {
				t.Errorf("latency histogram missing")
			}
		})
	}
}

func scrape(t testing.TB, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("metrics handler returned %d", rec.Code)
	}
	return rec.Body.String()
}
