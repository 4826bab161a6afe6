package bot_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// rankingByCopy is a store whose RankRuns is the full path searches took
// before analytics ranked runs itself: every matching run copied out of
// MatchRuns, those with a value the ranking keeps, stable-sorted by value
// then ID, the first Limit returned.
type rankingByCopy struct{ *analytics.Store }

func (s rankingByCopy) RankRuns(ctx context.Context, filter string, r analytics.RunRanking) (analytics.RankedRuns, error) {
	runs, err := s.MatchRuns(ctx, filter)
	if err != nil {
		return analytics.RankedRuns{}, err
	}
	var kept []analytics.Run
	for _, run := range runs {
		if v, ok := run.Number(r.Field); ok && (r.Keep == nil || r.Keep(v)) {
			kept = append(kept, run)
		}
	}
	slices.SortStableFunc(kept, func(x, y analytics.Run) int {
		vx, _ := x.Number(r.Field)
		vy, _ := y.Number(r.Field)
		if r.Ascending {
			return cmp.Or(cmp.Compare(vx, vy), strings.Compare(x.ID, y.ID))
		}
		return cmp.Or(cmp.Compare(vy, vx), strings.Compare(x.ID, y.ID))
	})
	return analytics.RankedRuns{Kept: len(kept), Top: kept[:min(len(kept), r.Limit)]}, nil
}

// TestSearchesAnswerAlikeRankedInTheStoreOrByCopy asks dataset-wide
// searches (thresholds over runs that keep all, most, some, few and none
// of them, thresholds over cells, extremes, counts, conditions on the
// runs' own fields, misses) of a bot whose store ranks runs over its
// columns and of one that copies and sorts every match, and wants the
// same bytes, Markdown and JSON: on the embedded dataset, and with a
// synthetic session whose values are rounded so that many runs tie at the
// boundary of the few shown.
func TestSearchesAnswerAlikeRankedInTheStoreOrByCopy(t *testing.T) {
	questions := []string{
		"which runs had p99 above 5 ms",
		"which runs had p99 above 0.5 ms",
		"any run with p99 under 0.2 ms",
		"any run with p99 under 1000 ms",
		"any run with p99 above 1000 ms",
		"how many runs had p99 above 1 ms",
		"highest p99 of any run",
		"lowest throughput of any single run",
		"slowest p99.9 ever recorded",
		"lowest ops per core of any run",
		"did any run have a cache miss",
		"any run with hit rate below 99%",
		"which runs lasted longer than 60 s",
		"which runs had connection errors",
		"which runs had more than 16 shards and p99 above 1 ms",
		"which cells have a median p99 above 2 ms",
		"median p50 across all runs with p99 under 1 ms",
	}
	for _, tc := range []struct {
		name  string
		store func(tb testing.TB) *analytics.Store
	}{
		{"embedded", analyticstest.OpenStore},
		{"with a synthetic session of tied values", storeWithTiedSession},
	} {
		st := tc.store(t)
		ranked := bottest.NewEnvOn(t, st, nil)
		copied := bottest.NewEnvOn(t, st, func(c *bot.Config) { c.Querier = rankingByCopy{st} })
		counted := 0
		for _, q := range questions {
			got, want := ranked.Ask(t, "", q), copied.Ask(t, "", q)
			if !strings.HasPrefix(got.Interpretation, "Dataset-wide search") {
				t.Errorf("%s: %q is no longer a search (%s): the table needs searches", tc.name, q, got.Kind)
				continue
			}
			if strings.Contains(got.Headline, " runs searched ") {
				counted++
			}
			gotJSON, _ := json.Marshal(bot.JSON(got))
			wantJSON, _ := json.Marshal(bot.JSON(want))
			if bot.Markdown(got) != bot.Markdown(want) || !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("%s: %q answers\n%s\nranked in the store, and\n%s\nranked by copying every match", tc.name, q, bot.Markdown(got), bot.Markdown(want))
			}
		}
		if counted < 5 {
			t.Errorf("%s: %d answers count the runs searched: the table needs thresholds that keep runs", tc.name, counted)
		}
	}
}

// storeWithTiedSession is the embedded dataset plus a session 3 of 20
// copies of session 1's runs, with their latencies rounded up to half a
// millisecond and their throughput to a million ops/s, so that the
// extremes are shared by many runs and only their IDs order them.
func storeWithTiedSession(t testing.TB) *analytics.Store {
	st := analyticstest.OpenStore(t)
	b, err := analytics.DefaultDataset()[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	roundUp := func(rec []string, name string, step float64) {
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("%s %q: %v", name, rec[col[name]], err)
		}
		rec[col[name]] = strconv.FormatFloat(math.Ceil(v/step)*step, 'f', -1, 64)
	}
	out := [][]string{recs[0]}
	for k := range 20 {
		for _, r := range recs[1:] {
			rec := slices.Clone(r)
			rec[col["run_id"]] = fmt.Sprintf("tied%02d-%s", k, rec[col["run_id"]])
			for _, name := range []string{"p50_ms", "p99_ms", "p999_ms"} {
				roundUp(rec, name, 0.5)
			}
			roundUp(rec, "ops_per_sec", 1e6)
			out = append(out, rec)
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(out); err != nil {
		t.Fatal(err)
	}
	// Rounded throughputs no longer divide into their ops_per_core: the
	// file is deliberately odd.
	if _, err := st.ImportWith(t.Context(), "tied.csv", &buf, 3, analytics.ImportOptions{AllowImplausible: true}); err != nil {
		t.Fatal(err)
	}
	return st
}
