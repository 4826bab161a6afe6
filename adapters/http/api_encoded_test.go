package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheRealBotsAnswersAreSentAsTheyWouldBeEncoded: the bot hands the API
// each answer's JSON already encoded (a repeated question's from its
// cache); the body is byte for byte what encoding the answer gives, the
// first time and every time after, with metrics counting each request.
func TestTheRealBotsAnswersAreSentAsTheyWouldBeEncoded(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	m := NewMetrics()
	mux := http.NewServeMux()
	NewAPI(m.Instrument(env.Bot), Options{Metrics: m}).Register(mux)
	h := Root(mux, m, nil)
	for _, q := range benchQuestions {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(AskResponse{AskJSON: bot.JSON(env.Bot.Handle(t.Context(), bot.Message{Platform: "http", Text: q}))}); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			body, err := json.Marshal(AskRequest{Question: q})
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/ask", bytes.NewReader(body)))
			if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
				t.Fatalf("%q: status %d, Content-Type %q", q, w.Code, w.Header().Get("Content-Type"))
			}
			if w.Body.String() != want.String() {
				t.Fatalf("%q: body\n%s\nwant\n%s", q, w.Body, want.String())
			}
		}
	}
	want := fmt.Sprintf(`memdb_oracle_answer_duration_seconds_count{platform="http"} %d`, 2*len(benchQuestions))
	if text := scrape(t, m); !strings.Contains(text, want) {
		t.Errorf("metrics lack %s", want)
	}
}
