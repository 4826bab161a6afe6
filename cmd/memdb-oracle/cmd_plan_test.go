package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

func TestPlanPrintsTheReadablePlanAndJSON(t *testing.T) {
	dir := t.TempDir()
	getenv := env("HOME", t.TempDir())

	out, stderr, err := runInProcess(t, getenv, "", "--data", dir, "plan", "Give me the Redis single-process result at 8 cores with pipeline 64.")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, stderr)
	}
	for _, want := range []string{"intent: no_data\n", "missing: pipeline 64 was never measured — only 1 and 16\n", "nearest: Redis Cluster (realistic), session 1, 8 cores"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan text lacks %q:\n%s", want, out)
		}
	}

	out, stderr, err = runInProcess(t, getenv, "", "--data", dir, "plan", "--json", "Which", "engine", "is", "fastest", "at", "48", "cores?")
	if err != nil {
		t.Fatalf("plan --json: %v\n%s", err, stderr)
	}
	var pl planner.Plan
	if err := json.Unmarshal([]byte(out), &pl); err != nil {
		t.Fatalf("plan --json printed no plan: %v\n%s", err, out)
	}
	if pl.Intent != planner.IntentCompare || len(pl.Queries) != 6 || pl.Queries[0].Filter != `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16` {
		t.Errorf("plan --json: %s with %d queries, first %+v", pl.Intent, len(pl.Queries), pl.Queries)
	}
}

func TestPlanReadsAThreadWithoutChangingIt(t *testing.T) {
	dir := t.TempDir()
	getenv := env("HOME", t.TempDir())
	if _, stderr, err := runInProcess(t, getenv, "", "--data", dir, "ask", "--thread", "t1", "Dragonfly at 16 cores"); err != nil {
		t.Fatalf("ask: %v\n%s", err, stderr)
	}
	for range 2 { // twice: planning never appends to the thread
		out, stderr, err := runInProcess(t, getenv, "", "--data", dir, "plan", "--json", "--thread", "t1", "and Redis?")
		if err != nil {
			t.Fatalf("plan --thread: %v\n%s", err, stderr)
		}
		var pl planner.Plan
		if err := json.Unmarshal([]byte(out), &pl); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pl.Slots.Engines, []string{"redis"}) || !slices.Equal(pl.Slots.Cores, []int{16}) || !slices.Equal(pl.Inherited, []string{"cores"}) {
			t.Errorf("follow-up plan: engines %v cores %v inherited %v", pl.Slots.Engines, pl.Slots.Cores, pl.Inherited)
		}
	}
}

func TestPlanUsageAndConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name   string
		getenv func(string) string
		args   []string
	}{
		{"an empty question", env("HOME", t.TempDir()), []string{"--data", dir, "plan", "  "}},
		{"an unknown language model provider", env("HOME", t.TempDir(), "MEMDB_ORACLE_LLM", "skynet"), []string{"--data", dir, "plan", "hi"}},
		{"a bad language model timeout", env("HOME", t.TempDir(), "MEMDB_ORACLE_LLM", "ollama", "MEMDB_ORACLE_LLM_TIMEOUT", "soon"), []string{"--data", dir, "plan", "hi"}},
		{"a bad message deadline", env("HOME", t.TempDir(), "MEMDB_ORACLE_DEADLINE", "-3s"), []string{"--data", dir, "plan", "hi"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runInProcess(t, tt.getenv, "", tt.args...)
			var ue usageError
			if !errors.As(err, &ue) {
				t.Errorf("got %v, want a usage error", err)
			}
		})
	}
}

func TestLoadLLMConfig(t *testing.T) {
	cfg, err := loadLLMConfig(env("MEMDB_ORACLE_LLM", "Anthropic", "MEMDB_ORACLE_LLM_MODEL", "claude-x",
		"MEMDB_ORACLE_LLM_BASE_URL", "http://127.0.0.1:9", "MEMDB_ORACLE_LLM_API_KEY", "ak-1", "MEMDB_ORACLE_LLM_TIMEOUT", "3s"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Provider != "anthropic" || cfg.Model != "claude-x" || cfg.BaseURL != "http://127.0.0.1:9" || cfg.APIKey.Reveal() != "ak-1" || cfg.Timeout.String() != "3s" {
		t.Errorf("config %+v", cfg)
	}
	if none, err := loadLLMConfig(env()); err != nil || none.Provider != "" {
		t.Errorf("no MEMDB_ORACLE_LLM: %+v, %v", none, err)
	}
}
