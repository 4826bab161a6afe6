package http

import (
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

func TestMetricsCountTheStoredFeedback(t *testing.T) {
	kv := bottest.NewMemKV(time.Now)
	fs := bot.NewFeedbackStore(kv)
	s := bot.Shown{Card: bot.Card{ID: "a1"}, Question: "redis at 8 cores"}
	for _, v := range []struct {
		user string
		up   bool
	}{{"U1", true}, {"U2", true}, {"U2", false}, {"U3", false}} {
		if _, err := fs.Record(t.Context(), bot.VoteFor(s, "slack", v.user, v.up, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	m := NewMetrics()
	m.WatchFeedback(nil, fs)
	text := scrape(t, m)
	for _, want := range []string{`memdb_oracle_feedback_votes{platform="slack",vote="up"} 1`, `memdb_oracle_feedback_votes{platform="slack",vote="down"} 2`} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
