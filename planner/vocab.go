package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// engineRank orders engine keys the way answers name them; engines the
// vocabulary does not know come last.
func engineRank(e string) int {
	switch e {
	case "dragonfly":
		return 0
	case "redis":
		return 1
	case "valkey":
		return 2
	case "keydb":
		return 3
	case "garnet":
		return 4
	}
	return 5
}

// engineName is how an engine is written for people; a word that is not
// one of the five engines (a user's "memcached") is capitalised as typed.
func engineName(e string) string {
	if name := analytics.EngineName(e); name != e || e == "" {
		return name
	}
	return strings.ToUpper(e[:1]) + e[1:]
}

// seriesLabel is the series name users see (docs/design.md#data).
func seriesLabel(engine, mode string) string {
	if slices.Contains(analytics.Modes, mode) {
		return analytics.SeriesName(engine, mode)
	}
	return engineName(engine) + " (" + mode + ")"
}

// versionedLabel is a query's series name, with the version when its
// engine's runs name several ("Valkey 9.0 (single process)").
func versionedLabel(s series, cov []analytics.SeriesCoverage) string {
	switch {
	case !versioned(cov, s.engine()) || s.cov.Version == "":
		return seriesLabel(s.engine(), s.mode())
	case !slices.Contains(analytics.Modes, s.mode()):
		return engineName(s.engine()) + " " + s.cov.Version + " (" + s.mode() + ")"
	}
	return analytics.VersionedSeriesName(s.engine(), s.cov.Version, s.mode())
}

// shortSeries names a series compactly inside sentences.
func shortSeries(engine, mode string) string {
	name := engineName(engine)
	switch mode {
	case "cluster":
		return name + " Cluster (realistic)"
	case "cluster-sat":
		return name + " Cluster (fully driven ceiling)"
	case "single":
		return name + " (single process)"
	}
	return name + " (" + mode + ")"
}

// modePhrase says how an engine was run, for "only run as …".
func modePhrase(modes []string) string {
	has := func(m string) bool { return slices.Contains(modes, m) }
	switch {
	case has("cluster") && has("cluster-sat") && len(modes) == 2:
		return "a cluster (realistic and fully driven ceiling)"
	case len(modes) == 1 && has("single"):
		return "a single process"
	case len(modes) == 1 && has("cluster"):
		return "a cluster driven by one normal client (realistic)"
	case len(modes) == 1 && has("cluster-sat"):
		return "a cluster driven by one client per shard (fully driven ceiling)"
	}
	var parts []string
	for _, m := range modes {
		parts = append(parts, modePhrase([]string{m}))
	}
	return joinAnd(parts)
}

// metricPhrase names a metric in words.
func metricPhrase(m string) string {
	switch m {
	case "ops_per_sec":
		return "throughput (ops/s)"
	case "ops_per_core":
		return "throughput per core (ops/s per core)"
	case "p50_ms":
		return "p50 latency (ms)"
	case "p99_ms":
		return "p99 latency (ms)"
	case "p999_ms":
		return "p99.9 latency (ms)"
	case "hit_rate":
		return "hit rate"
	case "p90_ms", "p95_ms", "p9999_ms", "max_ms":
		return unrecordedMetric(m) + " (ms)"
	case "kb_per_sec":
		return "network throughput (KB/s)"
	case "bytes_per_key":
		return "memory per key (bytes)"
	case "outage_s":
		return "failover outage (s)"
	}
	return m
}

// lowerIsBetter reports metrics ranked ascending.
func lowerIsBetter(m string) bool {
	switch m {
	case "p50_ms", "p99_ms", "p999_ms", "p90_ms", "p95_ms", "p9999_ms", "max_ms", "bytes_per_key", "outage_s":
		return true
	}
	return false
}

// ratioPhrase names a ratio in words.
func ratioPhrase(r string) string {
	switch r {
	case "1:10":
		return "SET:GET 1:10 (read-heavy)"
	case "1:1":
		return "SET:GET 1:1 (mixed)"
	case "mget10":
		return "MGET of 10 keys"
	case "mset10":
		return "MSET of 10 keys"
	case "10:1":
		return "SET:GET 10:1 (write-heavy)"
	case "0:1":
		return "GET only"
	case "1:0":
		return "SET only"
	}
	return "SET:GET " + r
}

// ratioShort names a ratio inside lists.
func ratioShort(r string) string {
	switch r {
	case "1:10":
		return "SET:GET 1:10 (read-heavy)"
	case "1:1":
		return "1:1 (mixed)"
	case "mget10":
		return "MGET of 10 keys"
	case "mset10":
		return "MSET of 10 keys"
	}
	return r
}

// valuePhrase names a value size in words.
func valuePhrase(b int) string {
	switch {
	case b == 1024:
		return "1 KB (1024 B) values"
	case b >= 1024*1024 && b%(1024*1024) == 0:
		return fmt.Sprintf("%d MB (%d B) values", b/(1024*1024), b)
	case b > 1024 && b%1024 == 0:
		return fmt.Sprintf("%d KB (%d B) values", b/1024, b)
	}
	return fmt.Sprintf("%d B values", b)
}

// valueShort names a value size inside lists.
func valueShort(b int) string {
	switch {
	case b == 1024:
		return "1 KB (1024 B)"
	case b > 1024 && b%1024 == 0:
		return fmt.Sprintf("%d KB", b/1024)
	}
	return fmt.Sprintf("%d B", b)
}

// knobPhrase names an effect knob.
func knobPhrase(k string) string {
	switch k {
	case "pipeline":
		return "pipeline depth"
	case "value_bytes":
		return "value size"
	case "ratio":
		return "workload mix"
	case "cores":
		return "core count"
	}
	return k
}

// joinAnd lists items as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// joinInts lists numbers as "4, 8 and 16".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return joinAnd(s)
}

// joinMap lists items through a naming function.
func joinMap[T any](items []T, name func(T) string) string {
	s := make([]string, len(items))
	for i, it := range items {
		s[i] = name(it)
	}
	return joinAnd(s)
}
