package planner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// The questions the issue names, with the parts of their plans that matter
// asserted directly (the golden cases hold the full plans).
func TestIssueQuestionsPlanAsTheIssueSays(t *testing.T) {
	p := realPlanner(t)
	plan := func(t *testing.T, thread []string, q string) planner.Plan {
		t.Helper()
		return planThread(t, p, thread, q)
	}
	filters := func(pl planner.Plan) []string {
		var fs []string
		for _, q := range pl.Queries {
			fs = append(fs, q.Filter)
		}
		return fs
	}
	defaultsStated := func(t *testing.T, pl planner.Plan, want ...string) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(pl.Defaults, w) {
				t.Errorf("defaults %q lack %q", pl.Defaults, w)
			}
			if !strings.Contains(pl.Interpretation, w) {
				t.Errorf("interpretation %q does not state the default %q", pl.Interpretation, w)
			}
		}
	}

	t.Run("25x is the Dragonfly claim, checked at the defaults against both Redis series", func(t *testing.T) {
		pl := plan(t, nil, "Is Dragonfly 25x faster than Redis?")
		if pl.Intent != planner.IntentClaim || pl.Slots.ClaimID != "claim:dragonfly-25x" {
			t.Fatalf("got %s %s, want claim claim:dragonfly-25x", pl.Intent, pl.Slots.ClaimID)
		}
		defaultsStated(t, pl, "48 cores", "SET:GET 1:10 (read-heavy)", "100 B values", "pipeline 16")
		want := []string{
			`engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
			`engine == "redis" && mode == "cluster" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
			`engine == "redis" && mode == "cluster-sat" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
		}
		if got := filters(pl); !slices.Equal(got, want) {
			t.Errorf("filters\n got %q\nwant %q", got, want)
		}
	})
	t.Run("30% more memory efficient is the Dragonfly memory claim, from the memory table", func(t *testing.T) {
		pl := plan(t, nil, "Is Dragonfly 30% more memory efficient than Redis?")
		if pl.Intent != planner.IntentClaim || pl.Slots.ClaimID != "claim:dragonfly-memory" || pl.Slots.Metric != "bytes_per_key" {
			t.Fatalf("got %s %s %s", pl.Intent, pl.Slots.ClaimID, pl.Slots.Metric)
		}
		if len(pl.Queries) != 0 {
			t.Errorf("memory comes from a measured table, not runs; got queries %q", filters(pl))
		}
	})
	t.Run("Garnet's peak compared with Dragonfly's crosses sessions and says so", func(t *testing.T) {
		pl := plan(t, nil, "What is Garnet's peak throughput and how does it compare with Dragonfly's?")
		if pl.Intent != planner.IntentCompare || pl.Order != planner.OrderDesc {
			t.Fatalf("got %s order %q", pl.Intent, pl.Order)
		}
		want := []string{
			`engine == "garnet" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
			`engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
		}
		if got := filters(pl); !slices.Equal(got, want) {
			t.Errorf("filters\n got %q\nwant %q", got, want)
		}
		if !slices.ContainsFunc(pl.Notes, func(n string) bool { return strings.Contains(n, "session 1") && strings.Contains(n, "session 2") }) {
			t.Errorf("no cross-session note in %q", pl.Notes)
		}
		if pl.Queries[0].Label != "Garnet (single process, client-limited floor)" {
			t.Errorf("Garnet's series label is %q", pl.Queries[0].Label)
		}
	})
	for _, tt := range []struct{ q, term string }{
		{"What does client-limited mean in the Garnet result?", "term:client-limited"},
		{"What is a NUMA node?", "term:numa"},
		{"what does the 'fully driven ceiling' mean", "term:ceiling"},
	} {
		t.Run("“"+tt.q+"” defines "+tt.term, func(t *testing.T) {
			pl := plan(t, nil, tt.q)
			if pl.Intent != planner.IntentDefine || pl.Slots.TermID != tt.term {
				t.Fatalf("got %s %q", pl.Intent, pl.Slots.TermID)
			}
		})
	}
	t.Run("Redis single process at pipeline 64 names both missing parts and offers the nearest cluster cells at both measured depths", func(t *testing.T) {
		pl := plan(t, nil, "Give me the Redis single-process result at 8 cores with pipeline 64.")
		if pl.Intent != planner.IntentNoData {
			t.Fatalf("got %s", pl.Intent)
		}
		joined := strings.Join(pl.Missing, " | ")
		for _, part := range []string{"pipeline 64 was never measured — only 1 and 16", "Redis was only run as a cluster (realistic and fully driven ceiling), never as a single process"} {
			if !strings.Contains(joined, part) {
				t.Errorf("missing %q does not name %q", pl.Missing, part)
			}
		}
		var got []string
		for _, n := range pl.Nearest {
			if n.Engine != "redis" || n.Cores != 8 || n.ValueBytes != 100 {
				t.Errorf("nearest cell %+v is not Redis 8 cores 100 B", n.CellKey)
			}
			got = append(got, fmt.Sprintf("%s %s p%d", n.Mode, n.Ratio, n.Pipeline))
		}
		// Pipeline 16 for throughput, 1 for latency (FACTS §1.2); the
		// ceiling was run at pipeline 16 only.
		want := []string{"cluster 1:10 p16", "cluster-sat 1:10 p16", "cluster 1:1 p16", "cluster 1:10 p1"}
		if !slices.Equal(got, want) {
			t.Errorf("nearest %q, want %q", got, want)
		}
		if len(pl.Queries) != 0 {
			t.Errorf("a no_data plan runs no queries, got %q", filters(pl))
		}
	})
	t.Run("Postgres versus MySQL is out of scope", func(t *testing.T) {
		pl := plan(t, nil, "Which is better for my Postgres workload, MySQL or Postgres?")
		if pl.Intent != planner.IntentOutOfScope || len(pl.Queries) != 0 {
			t.Fatalf("got %s with %d queries", pl.Intent, len(pl.Queries))
		}
	})
	t.Run("fastest at 48 cores ranks every series measured there and leaves KeyDB out by name", func(t *testing.T) {
		pl := plan(t, nil, "Which engine is fastest at 48 cores, read-heavy, pipeline 16?")
		if pl.Intent != planner.IntentCompare || pl.Order != planner.OrderDesc || len(pl.Queries) != 6 {
			t.Fatalf("got %s order %q with %d queries", pl.Intent, pl.Order, len(pl.Queries))
		}
		if !slices.ContainsFunc(pl.Notes, func(n string) bool { return strings.HasPrefix(n, "KeyDB (single process) is left out") }) {
			t.Errorf("notes %q do not say KeyDB is left out", pl.Notes)
		}
		defaultsStated(t, pl, "100 B values")
	})
	t.Run("lower p99 at 16 cores ranks ascending over all seven series", func(t *testing.T) {
		pl := plan(t, nil, "at 16 cores, read-heavy, pipeline 16, which engine has the lower p99?")
		if pl.Intent != planner.IntentCompare || pl.Order != planner.OrderAsc || pl.Slots.Metric != "p99_ms" || len(pl.Queries) != 7 {
			t.Fatalf("got %s order %q metric %s with %d queries", pl.Intent, pl.Order, pl.Slots.Metric, len(pl.Queries))
		}
	})
	t.Run("Valkey scaling without pipelining keeps the realistic series only", func(t *testing.T) {
		pl := plan(t, nil, "How does Valkey scale without pipelining?")
		want := []string{`engine == "valkey" && mode == "cluster" && ratio == "1:10" && value_bytes == 100 && pipeline == 1`}
		if pl.Intent != planner.IntentScaling || pl.Slots.Knob != "cores" || !slices.Equal(filters(pl), want) {
			t.Fatalf("got %s knob %q filters %q", pl.Intent, pl.Slots.Knob, filters(pl))
		}
	})
	t.Run("KeyDB at 24 cores is never measured, with the reason", func(t *testing.T) {
		pl := plan(t, nil, "KeyDB at 24 cores")
		if pl.Intent != planner.IntentNoData || len(pl.Missing) != 1 ||
			pl.Missing[0] != "KeyDB was never measured at 24 cores — only 4, 8 and 16 (KeyDB 6.3.4 refuses to start with more than 16 server threads)" {
			t.Fatalf("got %s %q", pl.Intent, pl.Missing)
		}
		if len(pl.Nearest) == 0 || pl.Nearest[0].Engine != "keydb" || pl.Nearest[0].Cores != 16 {
			t.Errorf("nearest %+v should start with KeyDB at 16 cores", pl.Nearest)
		}
	})
	t.Run("the thread Dragonfly → Redis → 1 KB → p99 carries every slot", func(t *testing.T) {
		thread := []string{"Dragonfly at 16 cores", "and Redis?", "with 1KB values?"}
		pl := plan(t, thread, "p99?")
		want := []string{
			`engine == "redis" && mode == "cluster" && cores == 16 && ratio == "1:10" && value_bytes == 1024 && pipeline == 16`,
			`engine == "redis" && mode == "cluster-sat" && cores == 16 && ratio == "1:10" && value_bytes == 1024 && pipeline == 16`,
		}
		if pl.Intent != planner.IntentLookup || pl.Slots.Metric != "p99_ms" || !slices.Equal(filters(pl), want) {
			t.Fatalf("got %s metric %s filters %q", pl.Intent, pl.Slots.Metric, filters(pl))
		}
		if !slices.Equal(pl.Inherited, []string{"engines", "cores", "value_bytes"}) {
			t.Errorf("inherited %q", pl.Inherited)
		}
		if !strings.Contains(pl.Interpretation, "kept from the previous question: engines, cores, value_bytes") {
			t.Errorf("the interpretation %q does not show the merge", pl.Interpretation)
		}
	})
}
