package bot

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// details is the thread follow-up: every headline number again with its
// table, the latency leaders, memory, the session-2 floor and wall, each
// vendor claim with its verdict, and the sources.
func (s *DigestSource) details(f *digestFacts, changes []string) string {
	var b strings.Builder
	b.WriteString("## What changed since the last digest\n\n")
	if len(changes) == 0 {
		b.WriteString("This is the first digest posted here, so there is nothing to compare with yet.\n\n")
	}
	for _, c := range changes {
		fmt.Fprintf(&b, "- %s\n", c)
	}
	if len(changes) > 0 {
		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "## Throughput at 48 cores (session 1, %s)\n\n", digestConditions)
	b.WriteString("| Series | Median ops/s | Repetitions |\n| --- | --- | --- |\n")
	for _, c := range []analytics.Cell{f.df, f.redis, f.redisSat, f.valkey, f.valkeySat} {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", analytics.SeriesName(c.Engine, c.Mode), compose.FormatOps(c.OpsPerSec), digestReps(c))
	}
	fmt.Fprintf(&b, "\nDragonfly is %s the realistic Redis Cluster and %s of its fully driven ceiling (Valkey: %s and %s). "+
		"The realistic series is one ordinary cluster-aware client, what an application sees; the fully driven ceiling is one load generator per shard, "+
		"the hardware's capacity, measured once (read its last digits as approximate).\n\n",
		compose.FormatRatio(f.df.OpsPerSec/f.redis.OpsPerSec), compose.FormatRatio(f.df.OpsPerSec/f.redisSat.OpsPerSec),
		compose.FormatRatio(f.df.OpsPerSec/f.valkey.OpsPerSec), compose.FormatRatio(f.df.OpsPerSec/f.valkeySat.OpsPerSec))

	fmt.Fprintf(&b, "## Crossover (session 1, %s)\n\n", digestConditions)
	b.WriteString("| Cores | Dragonfly (single process) | Redis Cluster — realistic |\n| --- | --- | --- |\n")
	redisAt := map[int]analytics.Cell{}
	for _, c := range f.redisSeries {
		redisAt[c.Cores] = c
	}
	for _, c := range f.dfSeries {
		if r, ok := redisAt[c.Cores]; ok {
			fmt.Fprintf(&b, "| %d | %s | %s |\n", c.Cores, compose.FormatOps(c.OpsPerSec), compose.FormatOps(r.OpsPerSec))
		}
	}
	if f.crossCores > 0 {
		fmt.Fprintf(&b, "\nDragonfly passes the realistic Redis Cluster at %d cores and stays ahead above it (medians of 2 runs each).\n\n", f.crossCores)
	} else {
		b.WriteString("\nDragonfly does not stay ahead of the realistic Redis Cluster at the measured core counts.\n\n")
	}

	fmt.Fprintf(&b, "## Latency at 48 cores (client-side, %s)\n\n", digestConditions)
	b.WriteString("| Series | Session | p50 | p99 | p99.9 |\n| --- | --- | --- | --- | --- |\n")
	lat := slices.SortedFunc(slices.Values(f.latency), func(a, c analytics.Cell) int { return cmp.Compare(a.P99Ms, c.P99Ms) })
	for _, c := range lat {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", analytics.SeriesName(c.Engine, c.Mode), c.Session, compose.FormatMs(c.P50Ms), compose.FormatMs(c.P99Ms), compose.FormatMs(c.P999Ms))
	}
	b.WriteString("\n")
	for _, session := range []int{1, 2} {
		if c, ok := lowestP99(lat, session); ok {
			fmt.Fprintf(&b, "Lowest p99 in session %d: %s, %s. ", session, analytics.SeriesName(c.Engine, c.Mode), compose.FormatMs(c.P99Ms))
		}
	}
	b.WriteString("Latencies are measured by the client; the two sessions used different client machines, so compare across them with care.\n\n")

	b.WriteString("## Memory per key\n\n")
	mem := s.kb.MemoryTable()
	for _, r := range mem.Rows {
		fmt.Fprintf(&b, "- %s: %s bytes per key (measured, %s keys × %d B).\n", analytics.EngineName(r.Engine), strconv.FormatFloat(r.BytesPerKey, 'f', -1, 64), digestThousands(mem.Keys), mem.ValueBytes)
	}
	for _, r := range mem.Quoted {
		fmt.Fprintf(&b, "- %s: %s bytes per key — %s.\n", analytics.EngineName(r.Engine), strconv.FormatFloat(r.BytesPerKey, 'f', -1, 64), r.Label)
	}
	for _, n := range mem.NotMeasured {
		fmt.Fprintf(&b, "- %s: no figure — %s\n", analytics.EngineName(n.Engine), strings.TrimSuffix(n.Reason, ".")+".")
	}
	b.WriteString("\n")

	b.WriteString("## Garnet floor and KeyDB wall (session 2, compare with session 1 with care)\n\n")
	fmt.Fprintf(&b, "- Garnet: at least %s at %d cores (%s, %s) — client-limited: the load generator ran out of CPU before Garnet did, so its real capacity is higher.\n",
		compose.FormatOps(f.garnetPeak.OpsPerSec), f.garnetPeak.Cores, digestConditions, digestReps(f.garnetPeak))
	if f.keydb8.Cores != f.keydbTop.Cores {
		fmt.Fprintf(&b, "- KeyDB: %s at %d cores, %s at %d cores (%s) — KeyDB 6.3.4 refuses to start with more than %d server threads, so it was never measured above %d cores.\n",
			compose.FormatOps(f.keydb8.OpsPerSec), f.keydb8.Cores, compose.FormatOps(f.keydbTop.OpsPerSec), f.keydbTop.Cores,
			digestPercentChange(f.keydb8.OpsPerSec, f.keydbTop.OpsPerSec), f.keydbTop.Cores, f.keydbTop.Cores)
	}
	b.WriteString("\n## Vendor and third-party claims against the measurements\n\n")
	claims := s.kb.Claims("", "")
	for _, c := range claims {
		fmt.Fprintf(&b, "- **%s** — claimed by %s: %s\n  Measured here: %s\n  Verdict: %s.\n", c.Title, c.Claimant, c.Statement, c.Measured, strings.TrimSuffix(c.Verdict, "."))
	}
	if len(claims) == 0 {
		b.WriteString("No claims are loaded.\n")
	}

	b.WriteString("\n## Sources\n\n")
	for _, fl := range f.filters {
		fmt.Fprintf(&b, "- `%s`\n", fl)
	}
	ids := s.sources(f).RunIDs
	shown := ids[:min(8, len(ids))]
	fmt.Fprintf(&b, "\nRuns: %s", strings.Join(shown, ", "))
	if more := len(ids) - len(shown); more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	b.WriteString(".\n")
	return b.String()
}

func lowestP99(cells []analytics.Cell, session int) (analytics.Cell, bool) {
	for _, c := range cells { // sorted by p99 ascending
		if c.Session == session {
			return c, true
		}
	}
	return analytics.Cell{}, false
}
