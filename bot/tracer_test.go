package bot_test

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// TestTracerRejectsNumbersItCannotTrace makes sure the golden test can fail:
// a doctored figure, an invented ratio, a wrong median or an unknown run ID
// is each reported.
func TestTracerRejectsNumbersItCannotTrace(t *testing.T) {
	st := analyticstest.OpenStore(t)
	tr := newTracer(st.Runs(), nil)
	res, err := st.Query(t.Context(), `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`)
	if err != nil || len(res.Cells) != 1 {
		t.Fatalf("query: %v, %d cells", err, len(res.Cells))
	}
	redis, _ := st.Query(t.Context(), `engine == "redis" && mode == "cluster" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`)
	df, rd := bot.RowFromCell(res.Cells[0]), bot.RowFromCell(redis.Cells[0])
	a := bot.Answer{Kind: bot.KindAnswer, Rows: []bot.Row{df, rd},
		Sources: bot.Sources{Filters: []string{res.Filter}, RunIDs: append(append([]string{}, df.RunIDs...), rd.RunIDs...)}}
	good := "Dragonfly did 15.5M ops/s (15,473,658.395) at 48 cores, SET:GET 1:10, 100 B values, pipeline 16 — 3.4× Redis's 4.6M; p99 2.423 ms; median across 2 repetitions. Filter: `" + res.Filter + "`. Runs: `" + df.RunIDs[0] + "`."
	if p := tr.trace(a, good, nil); len(p) != 0 {
		t.Fatalf("a true answer was flagged: %v", p)
	}
	tests := []struct {
		name, text, want string
	}{
		{"an invented throughput", strings.Replace(good, "15.5M", "16.5M", 1), `"16.5M"`},
		{"an invented multiple", strings.Replace(good, "3.4×", "25×", 1), `"25×"`},
		{"a latency off in the last digit", strings.Replace(good, "2.423 ms", "2.424 ms", 1), `"2.424ms"`},
		{"a core count never measured", strings.Replace(good, "48 cores", "64 cores", 1), `"64"`},
		{"a run ID that does not exist", strings.Replace(good, df.RunIDs[0], df.RunIDs[0]+"x", 1), "unknown run ID"},
		{"a filter the answer did not run", strings.Replace(good, res.Filter, "cores == 4", 1), "neither a run ID nor a filter"},
		{"a wrong repetition count", strings.Replace(good, "2 repetitions", "3 repetitions", 1), `"3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tr.trace(a, tt.text, nil)
			if !strings.Contains(strings.Join(p, "\n"), tt.want) {
				t.Fatalf("problems %v, want one mentioning %s", p, tt.want)
			}
		})
	}
	t.Run("a row whose median is not its runs' median", func(t *testing.T) {
		bad := a
		bad.Rows = []bot.Row{df}
		bad.Rows[0].OpsPerSec++
		if p := tr.trace(bad, good, nil); !strings.Contains(strings.Join(p, "\n"), "the median of its runs") {
			t.Fatalf("problems %v", p)
		}
	})
}
