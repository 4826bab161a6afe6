package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// tallyByCopy is a store whose TallyRuns is the path provenance answers
// took before analytics tallied runs itself: every matching run copied
// out of MatchRuns (in ID order) and its fields counted here.
type tallyByCopy struct{ *analytics.Store }

func (s tallyByCopy) TallyRuns(ctx context.Context, filter string, t analytics.RunTally) (analytics.TalliedRuns, error) {
	runs, err := s.MatchRuns(ctx, filter)
	if err != nil {
		return analytics.TalliedRuns{}, err
	}
	out := analytics.TalliedRuns{Runs: len(runs), Values: map[string][]analytics.ValueCount{}}
	for _, r := range runs[:min(len(runs), t.IDs)] {
		out.IDs = append(out.IDs, r.ID)
	}
	for _, field := range t.Fields {
		counts := map[string]int{}
		numbers := map[string]int{}
		for _, r := range runs {
			if field == "run_id" {
				counts[r.RunID]++
				continue
			}
			v, ok := r.Number(field)
			if !ok {
				continue
			}
			text := strconv.Itoa(int(v))
			counts[text]++
			numbers[text] = int(v)
		}
		keys := slices.Collect(maps.Keys(counts))
		if field == "run_id" {
			slices.Sort(keys)
		} else {
			slices.SortFunc(keys, func(a, b string) int { return numbers[a] - numbers[b] })
		}
		var vs []analytics.ValueCount
		for _, k := range keys {
			vs = append(vs, analytics.ValueCount{Value: k, Number: numbers[k], Runs: counts[k]})
		}
		out.Values[field] = vs
	}
	return out, nil
}

// TestProvenanceAnswersAlikeTalliedInTheStoreOrByCopy asks provenance
// questions of a bot whose store tallies runs over its columns and of one
// that copies every match, and wants the same bytes, Markdown and JSON:
// on the embedded dataset, and with a synthetic session of many runs and
// batches, where the answer names only the first runs and batches.
func TestProvenanceAnswersAlikeTalliedInTheStoreOrByCopy(t *testing.T) {
	questions := []string{
		"how long did the runs last",
		"what hardware was this measured on",
		"when were the runs made",
		"how many repetitions",
		"how many repetitions of dragonfly at 48 cores",
		"what client settings did the valkey runs use",
		"how long did the session 3 runs last",
		"which client machine measured keydb",
	}
	for _, tc := range []struct {
		name   string
		store  func(tb testing.TB) *analytics.Store
		capped bool
	}{
		{"embedded", analyticstest.OpenStore, false},
		{"with a synthetic session of many runs", storeWithTiedSession, true},
	} {
		st := tc.store(t)
		tallied := bottest.NewEnvOn(t, st, nil)
		copied := bottest.NewEnvOn(t, st, func(c *bot.Config) { c.Querier = tallyByCopy{st} })
		fielded, capped := 0, 0
		for _, q := range questions {
			got, want := tallied.Ask(t, "", q), copied.Ask(t, "", q)
			md := bot.Markdown(got)
			if strings.Contains(md, "themselves recorded") {
				fielded++
			}
			if strings.Contains(md, "` lists every one") {
				capped++
			}
			gotJSON, _ := json.Marshal(bot.JSON(got))
			wantJSON, _ := json.Marshal(bot.JSON(want))
			if md != bot.Markdown(want) || !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("%s: %q answers\n%s\ntallied in the store, and\n%s\ntallied by copying every match", tc.name, q, md, bot.Markdown(want))
			}
			t.Logf("%s: %q\n%s", tc.name, q, md)
		}
		if fielded < 4 {
			t.Errorf("%s: %d answers report the runs' own fields: the table needs provenance questions that read runs", tc.name, fielded)
		}
		if (capped > 0) != tc.capped {
			t.Errorf("%s: %d answers name only the first runs, want some: %v", tc.name, capped, tc.capped)
		}
	}
}
