package bot_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestKeyAnswers checks the answers the issue names, beyond their golden files.
func TestKeyAnswers(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	contains := func(t *testing.T, md string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(md, w) {
				t.Errorf("answer lacks %q:\n%s", w, md)
			}
		}
	}
	t.Run("the 25x claim shows the vendor's statement and what the runs give", func(t *testing.T) {
		a := env.Ask(t, "", "Is Dragonfly 25x faster than Redis?")
		md := bot.Markdown(a)
		if a.Kind != bot.KindClaim {
			t.Fatalf("kind %s", a.Kind)
		}
		contains(t, md, "25x more QPS than Redis", "https://www.dragonflydb.io/", "Dragonfly (single process) 15.5M ops/s",
			"Redis Cluster — realistic (one normal client) 4.6M ops/s — Dragonfly is 3.4× this",
			"Redis Cluster — fully driven ceiling (one client per shard) 40.6M ops/s (single run) — Dragonfly reaches 38% of it",
			"**Why the two differ:**", "**In plain words:**", "Filter: `", "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1")
	})
	t.Run("Redis single process at pipeline 64 is refused by name with the nearest rows", func(t *testing.T) {
		a := env.Ask(t, "", "Give me the Redis single-process result at 8 cores with pipeline 64.")
		md := bot.Markdown(a)
		if a.Kind != bot.KindNoData {
			t.Fatalf("kind %s", a.Kind)
		}
		contains(t, md, "never as a single process", "Pipeline 64 was never measured",
			"| Redis Cluster — realistic (one normal client) | 1:10 | 16 | mode, pipeline | 5.0M | 18.431 | 35.199 |",
			"| Redis Cluster — fully driven ceiling (one client per shard) | 1:10 | 16 | mode, pipeline | 9.2M | 0.419 | 0.775 |",
			"| Redis Cluster — realistic (one normal client) | 1:10 | 1 | mode, pipeline | 1.3M | 0.207 | 6.895 |",
			"run-s1-20260901-083406-redis-cluster-8c-p16-1-10-d100-rep1", "run-s1-20260901-083406-redis-cluster-sat-8c-p16-1-10-d100-rep1")
	})
	t.Run("a Postgres question is declined without a single digit", func(t *testing.T) {
		a := env.Ask(t, "", "Which is better for my Postgres workload, MySQL or Postgres?")
		if md := bot.Markdown(a); a.Kind != bot.KindOutOfScope || anyDigit.MatchString(md) {
			t.Fatalf("kind %s:\n%s", a.Kind, md)
		}
	})
	t.Run("Garnet's peak is a client-limited floor", func(t *testing.T) {
		a := env.Ask(t, "", "What's Garnet's peak throughput?")
		contains(t, bot.Markdown(a), "at least 21.4M", "client-limited")
	})
	t.Run("a thread carries Dragonfly at 8 cores to Valkey and then to its p99", func(t *testing.T) {
		env.Ask(t, "t1", "Dragonfly at 8 cores")
		a := env.Ask(t, "t1", "what about valkey?")
		if len(a.Rows) == 0 || a.Rows[0].Engine != "valkey" || a.Rows[0].Cores != 8 {
			t.Fatalf("follow-up rows: %+v", a.Rows)
		}
		a = env.Ask(t, "t1", "and the p99?")
		if len(a.Rows) == 0 || a.Rows[0].Engine != "valkey" || a.Rows[0].Cores != 8 || !strings.HasPrefix(a.Headline, "P99 latency") {
			t.Fatalf("second follow-up: %s %+v", a.Headline, a.Rows)
		}
		contains(t, bot.Markdown(a), "36.223 ms")
	})
}

// TestJSONIsTheDesignObject checks the ask --json object: exactly the
// docs/design.md#json-answers keys, in order, exact medians, every run ID, no nulls.
func TestJSONIsTheDesignObject(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	a := env.Ask(t, "", "Is Dragonfly 25x faster than Redis?")
	raw, err := json.Marshal(bot.JSON(a))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"kind", "interpretation", "text", "filters", "rows", "nearest", "run_ids", "run_count", "sources", "reply"}
	if keys := topLevelKeys(t, raw); !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v in this order", keys, want)
	}
	var got bot.AskJSON
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Text, got.Reply) || !strings.HasPrefix(got.Reply, "**Not comparable") {
		t.Errorf("reply %q is not the verdict-first start of text", got.Reply)
	}
	if got.Text != bot.Markdown(a) || got.Kind != bot.KindClaim || len(got.Filters) == 0 || got.Nearest == nil {
		t.Errorf("object = %+v", got)
	}
	var df *bot.JSONRow
	for i := range got.Rows {
		if got.Rows[i].Engine == "dragonfly" && got.Rows[i].Pipeline == 16 {
			df = &got.Rows[i]
		}
	}
	if df == nil || df.OpsPerSec != 15473658.395 || df.P99Ms != 2.423 || df.Reps != 2 || len(df.RunIDs) != 2 {
		t.Errorf("Dragonfly row = %+v", df)
	}
	if len(got.RunIDs) != len(a.Sources.RunIDs) || len(got.RunIDs) <= 8 {
		t.Errorf("run_ids has %d, the answer cites %d (all of them, not the text's first eight)", len(got.RunIDs), len(a.Sources.RunIDs))
	}
	if len(got.Sources) == 0 || got.Sources[0].ID != "claim:dragonfly-25x" || got.Sources[0].URL == "" {
		t.Errorf("sources = %+v", got.Sources)
	}
	empty, _ := json.Marshal(bot.JSON(env.Ask(t, "", "Which is better for my Postgres workload, MySQL or Postgres?")))
	if strings.Contains(string(empty), "null") {
		t.Errorf("a refusal encodes null somewhere: %s", empty)
	}
}

// topLevelKeys lists an object's keys in encoding order.
func topLevelKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestOddInputsGetAnAnswerNotAnError sends what people paste into chat.
func TestOddInputsGetAnAnswerNotAnError(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, q := range []string{"", "   ", strings.Repeat("dragonfly ", 1000), "🚀🔥💾", "engine == \"redis\" || 1 == 1",
		"'; DROP TABLE runs; --", "Dragonfly の 48 コア", "{{ .Secret }}", "\x00\x01"} {
		a := env.Ask(t, "odd", q)
		if a.Kind == bot.KindError || a.Kind == "" || bot.Markdown(a) == "" {
			t.Errorf("%q: kind %q, headline %q", clip(q), a.Kind, a.Headline)
		}
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
