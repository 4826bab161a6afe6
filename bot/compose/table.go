package compose

import (
	"slices"
	"strconv"
	"strings"
)

// metricWords names a metric for prose.
func metricWords(metric string) string {
	switch metric {
	case "p50_ms":
		return "p50 (median) latency"
	case "p99_ms":
		return "p99 latency"
	case "p999_ms":
		return "p99.9 latency"
	case "ops_per_core":
		return "throughput per core"
	case "hit_rate":
		return "hit rate"
	case "kb_per_sec":
		return "bandwidth"
	}
	return "throughput"
}

// formatMetric renders one median for prose: "15.5M ops/s", "at least 21.4M
// ops/s" for a floor, "4.847 ms", "100%".
func formatMetric(metric string, v float64, floor bool) string {
	switch {
	case isLatency(metric):
		return FormatMs(v)
	case metric == "hit_rate":
		return formatHitRate(v)
	case metric == "kb_per_sec":
		if floor {
			return "at least " + formatOpsShort(v) + " KB/s"
		}
		return formatOpsShort(v) + " KB/s"
	case metric == "ops_per_core":
		s := formatOpsShort(v) + " ops/s per core"
		if floor {
			s = "at least " + s
		}
		return s
	}
	if floor {
		return "at least " + FormatOps(v)
	}
	return FormatOps(v)
}

// lowerIsBetter reports whether smaller values of the metric are better.
func lowerIsBetter(metric string) bool { return isLatency(metric) }

// conditionKnobs are the knobs rows can differ in, in display order.
var conditionKnobs = []string{"session", "cores", "ratio", "value_bytes", "pipeline"}

func knobValue(r Row, knob string) string {
	switch knob {
	case "session":
		return strconv.Itoa(r.Session)
	case "cores":
		return strconv.Itoa(r.Cores)
	case "ratio":
		return ratioShort(r.Ratio)
	case "value_bytes":
		return formatValueBytes(r.ValueBytes)
	case "pipeline":
		return strconv.Itoa(r.Pipeline)
	}
	return ""
}

// knobWords renders one knob's value for prose: "48 cores", "pipeline 16".
func knobWords(r Row, knob string) string {
	switch knob {
	case "session":
		return "session " + strconv.Itoa(r.Session)
	case "cores":
		return strconv.Itoa(r.Cores) + " cores"
	case "ratio":
		return ratioWords(r.Ratio)
	case "value_bytes":
		return formatValueBytes(r.ValueBytes) + " values"
	case "pipeline":
		return "pipeline " + strconv.Itoa(r.Pipeline)
	}
	return ""
}

var knobHeader = map[string]string{
	"session": "Session", "cores": "Cores", "ratio": "SET:GET", "value_bytes": "Value", "pipeline": "Pipeline",
}

// varyingKnobs lists the knobs whose value differs between rows.
func varyingKnobs(rows []Row) []string {
	var out []string
	for _, k := range conditionKnobs {
		for _, r := range rows[1:] {
			if knobValue(r, k) != knobValue(rows[0], k) {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// conditionsLine states the conditions every row shares.
func conditionsLine(rows []Row) string {
	if len(rows) == 0 {
		return ""
	}
	varying := varyingKnobs(rows)
	var parts []string
	for _, k := range conditionKnobs {
		if !slices.Contains(varying, k) {
			parts = append(parts, knobWords(rows[0], k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	if len(rows) == 1 {
		return "Conditions: " + strings.Join(parts, ", ") + "."
	}
	return "Conditions shared by every row: " + strings.Join(parts, ", ") + "."
}

// repsLine says how each figure was formed.
func repsLine(rows []Row) string {
	reps := map[int]int{}
	for _, r := range rows {
		reps[r.Reps]++
	}
	single := reps[1]
	var multi []int
	for n := range reps {
		if n > 1 {
			multi = append(multi, n)
		}
	}
	slices.Sort(multi)
	switch {
	case single == 0 && len(multi) == 1 && len(rows) == 1:
		return "The figure is the median across " + strconv.Itoa(multi[0]) + " repetitions."
	case single == 0 && len(multi) == 1:
		return "Each figure is the median across " + strconv.Itoa(multi[0]) + " repetitions."
	case single > 0 && len(multi) == 0 && len(rows) == 1:
		return "The figure is a single run (one repetition)."
	case single > 0 && len(multi) == 0:
		return "Each figure is a single run (one repetition)."
	}
	var ns []string
	for _, n := range multi {
		ns = append(ns, strconv.Itoa(n))
	}
	return "Each figure is the median across " + strings.Join(ns, " or ") + " repetitions, except rows marked “single run”, which had one."
}

// rowsTable renders rows with the series, the conditions that vary and the
// medians, in the prose number style (exact values are in the JSON rows).
// A metric the standard columns lack gets its own column.
func rowsTable(rows []Row, metric string, withDiffers bool) *Table {
	varying := varyingKnobs(rows)
	cols := []string{"Series"}
	for _, k := range varying {
		cols = append(cols, knobHeader[k])
	}
	if withDiffers {
		cols = append(cols, "Differs in")
	}
	cols = append(cols, "ops/s", "p50 ms", "p99 ms", "p99.9 ms")
	extra := ""
	switch metric {
	case "ops_per_core", "hit_rate", "kb_per_sec":
		extra = metric
		cols = append(cols, map[string]string{"ops_per_core": "ops/s per core", "hit_rate": "hit rate", "kb_per_sec": "KB/s"}[metric])
	}
	cols = append(cols, "Reps")
	t := &Table{Columns: cols}
	for _, r := range rows {
		cells := []string{r.Series}
		for _, k := range varying {
			cells = append(cells, knobValue(r, k))
		}
		if withDiffers {
			cells = append(cells, strings.Join(r.Differs, ", "))
		}
		ops := formatOpsShort(r.OpsPerSec)
		if r.Floor {
			ops = "≥" + ops
		}
		cells = append(cells, ops, formatMsShort(r.P50Ms), formatMsShort(r.P99Ms), formatMsShort(r.P999Ms))
		if extra != "" {
			v, ok := r.Metric(extra)
			s := "—"
			if ok {
				s = strings.TrimSuffix(strings.TrimSuffix(formatMetric(extra, v, false), " ops/s per core"), " KB/s")
				if r.floorFor(extra) {
					s = "≥" + s
				}
			}
			cells = append(cells, s)
		}
		reps := strconv.Itoa(r.Reps) + " reps"
		if r.Reps == 1 {
			reps = "single run"
		}
		cells = append(cells, reps)
		t.Rows = append(t.Rows, cells)
	}
	return t
}
