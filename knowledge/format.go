package knowledge

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// FormatOps writes a rate the project's way: "15.5M" at or above a million
// (one decimal), "636K" below, the plain number below a thousand.
func FormatOps(v float64) string { return formatOps(v) }

func formatOps(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 999_950:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case a >= 999.5:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "K"
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

// trimFloat formats v with at most dec decimals, dropping trailing zeros
// only when dec is 3 or more (so "3.4×" stays "3.4", "2.0M" stays "2.0").
func trimFloat(v float64, dec int) string {
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if dec >= 3 && strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// exactNumber writes v with thousands separators and every decimal it has
// ("15,473,658.395").
func exactNumber(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if hasFrac {
		out += "." + frac
	}
	if neg {
		out = "−" + out
	}
	return out
}

// formatValue writes one value of a metric with its unit.
func formatValue(metric string, v float64, exact bool) string {
	num := func(short string) string {
		if exact {
			return exactNumber(v)
		}
		return short
	}
	switch metric {
	case "ops_per_sec":
		return num(formatOps(v)) + " ops/s"
	case "ops_per_core":
		return num(formatOps(v)) + " ops/s per core"
	case "kb_per_sec":
		return num(formatOps(v)) + " KB/s"
	case "p50_ms", "p99_ms", "p999_ms":
		return num(trimFloat(v, 3)) + " ms"
	case "hit_rate":
		return num(trimFloat(v, 4))
	case "bytes_per_key":
		return num(trimFloat(v, 1)) + " bytes/key"
	case "used_memory":
		return exactNumber(v) + " bytes"
	case "outage_s", "median_outage_s", "mean_outage_s", "min_overhead_s", "max_overhead_s", "first_fail_s", "min_first_fail_s", "max_first_fail_s":
		return num(strconv.FormatFloat(v, 'f', 2, 64)) + " s"
	case "slot", "keys", "shards", "reps":
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return trimFloat(v, 3)
}

// isFloor reports whether a throughput figure from this cell is only a
// lower bound (Garnet: the client saturated first).
func isFloor(metric string, k analytics.CellKey) bool {
	return k.Engine == "garnet" && (metric == "ops_per_sec" || metric == "ops_per_core" || metric == "kb_per_sec")
}

// formatMeasure writes a computed measure: a value with its unit, or a
// series "4c 2.0M · 8c 3.7M · … ops/s". Garnet throughput is written as a
// floor ("at least …, client-limited").
func formatMeasure(m *Measure, exact bool) string {
	floor := m.FromRuns() && isFloor(m.Metric, m.Cell.CellKey)
	if m.Across == "cores" {
		parts := make([]string, 0, len(m.Series))
		for _, c := range m.Series {
			v, _ := c.Metric(m.Metric)
			full := formatValue(m.Metric, v, exact)
			num, _, _ := strings.Cut(full, " ")
			if floor {
				num = "≥" + num
			}
			parts = append(parts, fmt.Sprintf("%dc %s", c.Cores, num))
		}
		full := formatValue(m.Metric, m.Value, exact)
		_, unit, _ := strings.Cut(full, " ")
		s := strings.Join(parts, " · ") + " " + unit
		if floor {
			s += " (floors: client-limited)"
		}
		return s
	}
	s := formatValue(m.Metric, m.Value, exact)
	if floor {
		s = "at least " + s + " (client-limited)"
	}
	return s
}

// ratioText describes a workload ratio.
func ratioText(r string) string {
	switch r {
	case "mget10":
		return "MGET of 10 keys per command"
	case "mset10":
		return "MSET of 10 keys per command"
	}
	return "SET:GET " + r
}

// Conditions describes a cell the way every number must be stated:
// session, series, cores, workload, value size, pipeline and repetitions.
func Conditions(c analytics.Cell) string {
	return conditions(c.CellKey, c.Reps, true)
}

func conditions(k analytics.CellKey, reps int, withCores bool) string {
	parts := []string{fmt.Sprintf("session %d", k.Session), analytics.SeriesName(k.Engine, k.Mode)}
	if withCores {
		parts = append(parts, fmt.Sprintf("%d cores", k.Cores))
	}
	parts = append(parts, ratioText(k.Ratio), fmt.Sprintf("%d B values", k.ValueBytes), fmt.Sprintf("pipeline %d", k.Pipeline))
	switch {
	case reps == 1:
		parts = append(parts, "single run")
	case reps > 1:
		parts = append(parts, fmt.Sprintf("median of %d reps", reps))
	}
	return strings.Join(parts, ", ")
}

// MeasureConditions states the conditions behind a computed measure.
func MeasureConditions(m Measure) string {
	if !m.FromRuns() {
		return tableConditions(m)
	}
	if m.Across == "cores" && len(m.Series) > 0 {
		lo, hi := m.Series[0].Cores, m.Series[len(m.Series)-1].Cores
		return conditions(m.Series[0].CellKey, m.Series[0].Reps, false) + fmt.Sprintf(", %d–%d cores", lo, hi)
	}
	return conditions(m.Cell.CellKey, m.Cell.Reps, true)
}

func tableConditions(m Measure) string {
	switch m.Table {
	case "memory":
		if m.Label != "" {
			return m.Label
		}
		return "memory measurement file, 1,000,000 keys × 100 B values, empty-server baseline subtracted"
	case "failover-sweep":
		return "Sentinel failover lab, Redis 8 data nodes, down-after " + m.Row + " ms, median of 3 kills (Docker on macOS)"
	case "failover-engines":
		nodes := analytics.EngineName(m.Row)
		if m.Row == "all" {
			nodes = "all" // the lab's row over every engine, not an engine
		}
		return "Sentinel failover lab, " + nodes + " data nodes, down-after 5000 ms, median of 3 kills (Docker on macOS)"
	case "crossslot":
		return "cross-slot demo, 3-shard Redis Cluster"
	}
	return m.Table
}
