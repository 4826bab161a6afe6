package planner_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestACoreCountReadsAlikeHoweverItIsWritten: the dataset's column, the
// short form, the preposition and a docker CPU set are one setting, for
// every measured core count.
func TestACoreCountReadsAlikeHoweverItIsWritten(t *testing.T) {
	p := realPlanner(t)
	for _, n := range []int{4, 8, 16, 24, 48} {
		base := meaningOf(planOf(t, p, fmt.Sprintf("valkey p99 at %d cores", n)))
		for _, form := range []string{
			"valkey p99 cores_used=%d", "valkey p99 cores_used: %d", "valkey p99 where cores_used = %d",
			"valkey p99 %dc", "valkey p99 on %d cores", "docker run --cpuset-cpus=0-%d valkey, p99",
		} {
			v := n
			if strings.Contains(form, "cpuset") {
				v = n - 1
			}
			q := fmt.Sprintf(form, v)
			pl := planOf(t, p, q)
			if d := diffMeaning(base, meaningOf(pl)); len(d) > 0 {
				t.Errorf("%q plans otherwise than %d cores: %v", q, n, d)
			}
			if len(pl.Unread) > 0 {
				t.Errorf("%q: unread %v, want every word read", q, pl.Unread)
			}
		}
	}
}

// TestClientFlagsAreNeverCores: memtier's -t and -c set the client's
// threads and connections; they are named back, never read as cores.
func TestClientFlagsAreNeverCores(t *testing.T) {
	p := realPlanner(t)
	for _, q := range []string{
		"memtier_benchmark -t 32 -c 50 --ratio=1:1 --pipeline=1 against keydb",
		"memtier_benchmark --threads=32 --clients=50 --ratio 1:1 --pipeline 1, keydb numbers?",
	} {
		pl := planOf(t, p, q)
		if slices.Contains(pl.Slots.Cores, 32) || slices.Contains(pl.Slots.Cores, 50) {
			t.Errorf("%q read a client flag as cores: %v", q, pl.Slots.Cores)
		}
		if pl.Slots.Ratio != "1:1" || pl.Slots.Pipeline != 1 {
			t.Errorf("%q: ratio %q pipeline %d, want 1:1 and 1", q, pl.Slots.Ratio, pl.Slots.Pipeline)
		}
		if len(pl.Unread) != 2 || !strings.Contains(pl.UnboundReading, "32") || !strings.Contains(pl.UnboundReading, "50") {
			t.Errorf("%q: unread %v, first line %q; want both client flags named", q, pl.Unread, pl.UnboundReading)
		}
	}
}

// TestAnUnknownWordNextToASettingNeverLeavesTheCellSilently: adding a word
// the bot cannot read next to a setting either keeps the plan and names
// the word, or asks back — it never answers another cell quietly.
func TestAnUnknownWordNextToASettingNeverLeavesTheCellSilently(t *testing.T) {
	p := realPlanner(t)
	for _, tc := range []struct{ base, with, word string }{
		{"redis at 8 cores", "redis zorbly pipeline at 8 cores", "zorbly"},
		{"valkey at 16 cores", "valkey frobbed cluster at 16 cores", "frobbed"},
		{"keydb at 8 cores", "keydb at 8 cores, io-threads 4", "io-threads 4"},
		{"dragonfly at 8 cores", "dragonfly at 8 cores with 37 widgets", "37"},
		{"dragonfly at 8 cores", "what does the Pelican fork do vs dragonfly at 8 cores", "Pelican"},
	} {
		base, got := planOf(t, p, tc.base), planOf(t, p, tc.with)
		named := slices.ContainsFunc(got.Unread, func(u string) bool { return strings.Contains(u, tc.word) })
		switch {
		case !named:
			t.Errorf("%q: unread %v, want %q named", tc.with, got.Unread, tc.word)
		case got.Intent == "clarify":
		case len(diffMeaning(meaningOf(base), meaningOf(got))) == 0 && strings.Contains(got.UnboundReading, tc.word):
		default:
			t.Errorf("%q changed the cell (%v) or left %q out of the first line (%q)", tc.with,
				diffMeaning(meaningOf(base), meaningOf(got)), tc.word, got.UnboundReading)
		}
	}
}

// TestAStatedSettingIsNeverReplacedByADefault: for every labelled corpus
// question with a stated core count, value size or pipeline depth, the
// plan holds that setting, or it is a clarify or refusal that names it.
func TestAStatedSettingIsNeverReplacedByADefault(t *testing.T) {
	p := realPlanner(t)
	checked := 0
	for _, c := range readCorpus(t, "testdata/corpus") {
		pl := planThread(t, p, c.thread, c.q)
		got := planFields(pl)
		for _, k := range []string{"cores", "value", "pipeline", "ratio"} {
			want, ok := c.want[k]
			if !ok || want == "-" {
				continue
			}
			checked++
			slot := map[string]string{"cores": "cores", "value": "value_bytes", "pipeline": "pipeline", "ratio": "ratio"}[k]
			if got[k] == want && !slices.Contains(pl.Defaulted, slot) || got[k] == want && pl.Intent == "compound" {
				continue
			}
			if pl.Intent == "clarify" || pl.Intent == "no_data" || len(pl.Unread) > 0 {
				continue
			}
			if got[k] == want {
				continue // the default is the value stated: the question's own word stands for it
			}
			t.Errorf("%s:%d %q: %s=%s, stated %s", c.file, c.line, c.q, k, got[k], want)
		}
	}
	if checked < 1000 {
		t.Errorf("checked %d stated settings, want the corpus's (over 1000)", checked)
	}
}

// TestThePlanJSONShowsWhatWasLeftOutWhatWasDefaultedAndTheQuery: plan
// --json carries the accounting (unread, defaults) and the structured
// query a data question compiled to.
func TestThePlanJSONShowsWhatWasLeftOutWhatWasDefaultedAndTheQuery(t *testing.T) {
	p := realPlanner(t)
	pl := planOf(t, p, "memtier -t 32 -c 50 --pipeline=1 at 16 cores: who is second fastest?")
	raw, err := json.Marshal(pl)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Unread   []string `json:"unread"`
		Defaults []string `json:"defaults"`
		Query    *struct {
			Dataset string   `json:"dataset"`
			Filters []string `json:"filters"`
			Measure string   `json:"measure"`
		} `json:"query"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Unread) != 2 || len(got.Defaults) == 0 {
		t.Errorf("unread %q, defaults %q: want the two client flags and the defaults applied", got.Unread, got.Defaults)
	}
	if got.Query == nil || got.Query.Dataset != "runs" || len(got.Query.Filters) == 0 || got.Query.Measure == "" {
		t.Errorf("query %+v, want the runs table, its filters and the measure", got.Query)
	}
	for _, f := range got.Query.Filters {
		if !strings.Contains(f, "pipeline == 1") {
			t.Errorf("filter %q does not hold the stated pipeline 1", f)
		}
	}
}
