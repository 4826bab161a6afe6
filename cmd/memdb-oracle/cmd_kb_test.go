package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestKBShowPrintsAClaimWithItsSourceAndComputedCounterFigures(t *testing.T) {
	out, _, err := runCLI(t, t.TempDir(), "kb", "show", "claim:dragonfly-25x")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"claim:dragonfly-25x · claim",
		`"25x more QPS than Redis"`,
		"https://www.dragonflydb.io/",
		"15.5M ops/s",
		"4.6M ops/s",
		"40.6M ops/s",
		"3.4×",
		"38%",
		"2.6×",
		"session 1, Dragonfly (single process), 48 cores, SET:GET 1:10, 100 B values, pipeline 16, median of 2 reps",
		"Redis Cluster — fully driven ceiling (one client per shard), 48 cores, SET:GET 1:10, 100 B values, pipeline 16, single run",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
		"**Verdict:**",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kb show output lacks %q:\n%s", want, out)
		}
	}
}

func TestKBCommandsOnOneDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Run("search ranks the client-limited term and the Garnet finding first", func(t *testing.T) {
		out, _, err := runCLI(t, dir, "kb", "search", "client", "limited")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out, "\n")
		var top []string
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 1 && strings.HasSuffix(f[0], ".") {
				top = append(top, f[1])
			}
		}
		if len(top) < 2 {
			t.Fatalf("fewer than two hits:\n%s", out)
		}
		first := map[string]bool{top[0]: true, top[1]: true}
		if !first["term:client-limited"] || !first["finding:garnet-client-limited"] {
			t.Errorf("top two = %v, want term:client-limited and finding:garnet-client-limited:\n%s", top[:2], out)
		}
	})
	t.Run("search prints JSON hits", func(t *testing.T) {
		out, _, err := runCLI(t, dir, "kb", "search", "--json", "-n", "3", "pipelining")
		if err != nil {
			t.Fatal(err)
		}
		var hits []struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		}
		if err := json.Unmarshal([]byte(out), &hits); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if len(hits) != 3 || hits[0].ID != "term:pipelining" {
			t.Errorf("hits = %+v", hits)
		}
	})
	t.Run("show accepts a term alias", func(t *testing.T) {
		out, _, err := runCLI(t, dir, "kb", "show", "p99.9")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "term:latency-percentiles · term") {
			t.Errorf("kb show p99.9:\n%s", out)
		}
	})
	t.Run("show prints a measured table", func(t *testing.T) {
		out, _, err := runCLI(t, dir, "kb", "show", "failover:sweep")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"2.52 / 2.54 / 2.56", "12.09 / 12.12 / 12.09", "Redis 8"} {
			if !strings.Contains(out, want) {
				t.Errorf("kb show failover:sweep lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("show --json prints the entry", func(t *testing.T) {
		out, _, err := runCLI(t, dir, "kb", "show", "--json", "finding:headline-48c")
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			ID, Kind, Title, URL, Text string
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if e.ID != "finding:headline-48c" || e.Kind != "finding" || !strings.Contains(e.Text, "3.4×") || e.URL == "" {
			t.Errorf("entry = %+v", e)
		}
	})
	t.Run("an unknown id is a usage error that names the closest entries", func(t *testing.T) {
		_, _, err := runCLI(t, dir, "kb", "show", "claim:dragonfly-26x")
		var ue usageError
		if !errors.As(err, &ue) {
			t.Fatalf("err = %v, want a usage error", err)
		}
		if !strings.Contains(err.Error(), `no entry "claim:dragonfly-26x"`) || !strings.Contains(err.Error(), "closest:") {
			t.Errorf("err = %v", err)
		}
	})
}
