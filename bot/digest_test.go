package bot

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

var updateDigest = flag.Bool("update-digest", false, "rewrite bot/testdata/digest.md")

func composeDigest(t *testing.T, store *analytics.Store, last *DigestState) Digest {
	t.Helper()
	kb, err := knowledge.Load(t.Context(), store)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDigestSource(store, kb).Compose(t.Context(), last)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDigestStatesTheHeadlineFindingsFromTheRuns(t *testing.T) {
	d := composeDigest(t, analyticstest.OpenStore(t), nil)
	for _, want := range []string{
		"478 benchmark runs",
		"Dragonfly (single process) 15.5M ops/s — 3.4× a realistic Redis Cluster (4.6M ops/s), 0.38× of its fully driven ceiling (40.6M ops/s, single run)",
		"from 16 cores on",
		"Garnet at least 21.4M ops/s at 48 cores (client-limited floor)",
		"KeyDB tops out at 636K ops/s at 16 cores",
		"Dragonfly 146.1, Redis 165.3, Valkey 168.7 bytes per key",
	} {
		if !strings.Contains(d.Headline, want) {
			t.Errorf("headline lacks %q:\n%s", want, d.Headline)
		}
	}
	if lines := strings.Count(d.Headline, "\n") + 1; lines < 4 || lines > 6 {
		t.Errorf("headline has %d lines, want a short message (title + 3–5 findings)", lines)
	}
	for _, want := range []string{
		"| Valkey Cluster — fully driven ceiling (one client per shard) | 40.2M ops/s | single run |",
		"Dragonfly passes the realistic Redis Cluster at 16 cores",
		"Lowest p99 in session 1:",
		"KeyDB 6.3.4 refuses to start with more than 16 server threads",
		"Garnet: no figure",
		"claim", // every claim with its verdict
		"Verdict:",
		`session == 1 && engine == "dragonfly" && mode == "single" && cores == 48`,
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
	} {
		if !strings.Contains(d.Details, want) {
			t.Errorf("details lack %q", want)
		}
	}
	if d.Chart == nil || len(d.Chart.Series) == 0 {
		t.Error("the digest's headline comparison has no chart")
	}

	golden := filepath.Join("testdata", "digest.md")
	if *updateDigest {
		if err := os.WriteFile(golden, []byte(d.Markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-digest to create it)", err)
	}
	if string(want) != d.Markdown() {
		t.Errorf("digest differs from %s (run with -update-digest and review the diff)", golden)
	}
}

// extraRuns are synthetic session-1 repetitions: two more Dragonfly 48-core
// runs at 30M ops/s, which move its median, and a first Valkey single run.
const extraRuns = "run_id,note,engine,mode,shards,server_threads,shard_io_threads,cores_used,server_cpus,client_cpus,client_threads,client_conns,pipeline,ratio,data_bytes,key_max,test_time,populate,rep,ops_per_sec,ops_per_core,p50_ms,p99_ms,p999_ms,hit_rate,hits_per_sec,misses_per_sec,conn_errors,kb_per_sec\n" +
	"20261201-090000,scale-48c,dragonfly,single,48,48,1,48,0-47,0-95,48,20,16,1:10,100,1000000,20,1,3,30000000,625000,0.8,2.4,3.3,1.0,27272727.27,0.0,0,4400000\n" +
	"20261201-090000,scale-48c,dragonfly,single,48,48,1,48,0-47,0-95,48,20,16,1:10,100,1000000,20,1,4,30000000,625000,0.8,2.4,3.3,1.0,27272727.27,0.0,0,4400000\n" +
	"20261201-090000,scale-8c,valkey,single,8,8,1,8,0-7,0-95,48,20,16,1:10,100,1000000,20,1,1,900000,112500,2.1,4.2,5.3,1.0,818181.82,0.0,0,130000\n"

func TestDigestSaysWhatChangedAfterAnImportAndNothingWhenNothingDid(t *testing.T) {
	store := analyticstest.OpenStore(t)
	first := composeDigest(t, store, nil)
	last := first.State

	same := composeDigest(t, store, &last)
	if len(same.Changes) != 1 || !strings.HasPrefix(same.Changes[0], "Nothing changed since the last digest") {
		t.Fatalf("with no new runs, changes = %q", same.Changes)
	}
	if !strings.Contains(same.Headline, "Nothing changed") {
		t.Errorf("headline does not say nothing changed:\n%s", same.Headline)
	}

	if _, err := store.Import(context.Background(), "extra.csv", strings.NewReader(extraRuns), 1); err != nil {
		t.Fatal(err)
	}
	next := composeDigest(t, store, &last)
	all := strings.Join(next.Changes, "\n")
	for _, want := range []string{
		"3 runs imported since the last digest: 2 Dragonfly (session 1), 1 Valkey (session 1).",
		"Dragonfly at 48 cores moved from 15.5M ops/s to 22.8M ops/s (+47.0%).",
		"Dragonfly ÷ realistic Redis Cluster at 48 cores moved from 3.4× to 5.0× (+47.0%).",
		"now reads:", // a claim computed from that cell changed its reading
	} {
		if !strings.Contains(all, want) {
			t.Errorf("changes lack %q:\n%s", want, all)
		}
	}
	if !strings.Contains(next.Headline, "3 runs imported since the last digest") {
		t.Errorf("headline does not open with the new runs:\n%s", next.Headline)
	}
	if !strings.Contains(next.Headline, "481 benchmark runs") {
		t.Errorf("headline does not count the new runs:\n%s", next.Headline)
	}
}

// TestADigestStateCountsRunsAndReadsAStateOfTheReleaseBefore checks that
// the saved state counts runs per session and engine (its size does not
// grow with the runs) and that a state saved by the release before, which
// named every run, is compared alike.
func TestADigestStateCountsRunsAndReadsAStateOfTheReleaseBefore(t *testing.T) {
	store := analyticstest.OpenStore(t)
	now := composeDigest(t, store, nil).State
	raw, err := json.Marshal(now)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 32<<10 || strings.Contains(string(raw), "run-s1-") {
		t.Errorf("the state of %d runs is %d bytes and names runs:\n%s", now.TotalRuns(), len(raw), raw)
	}
	old := now
	old.RunCounts, old.Runs = nil, map[string]RunTag{}
	for _, c := range store.Cells() {
		for _, id := range c.RunIDs {
			old.Runs[id] = RunTag{Session: c.Session, Engine: c.Engine}
		}
	}
	if !digestSame(old, now) {
		t.Error("a state of the release before, of the same runs, differs")
	}
	if _, err := store.Import(t.Context(), "extra.csv", strings.NewReader(extraRuns), 1); err != nil {
		t.Fatal(err)
	}
	next := composeDigest(t, store, &old)
	if all := strings.Join(next.Changes, "\n"); !strings.Contains(all, "3 runs imported since the last digest: 2 Dragonfly (session 1), 1 Valkey (session 1).") {
		t.Errorf("against a state of the release before, changes are:\n%s", all)
	}
}
