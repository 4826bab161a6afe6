package slack

import (
	"math"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// rowsTable lays out measured rows when the answer carries rows but no
// pre-formatted table (the nearest rows of a no_data answer, for one):
// series, conditions, medians across repetitions, and what differs from the
// request.
func rowsTable(rows []bot.Row) (header []string, cells [][]string) {
	withDiffers := false
	for _, r := range rows {
		if len(r.Differs) > 0 {
			withDiffers = true
		}
	}
	header = []string{"Series", "Session", "Cores", "SET:GET", "Value", "Pipeline", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "Reps"}
	if withDiffers {
		header = append(header, "Differs in")
	}
	for _, r := range rows {
		ops := opsShort(r.OpsPerSec)
		if r.Floor {
			ops = "≥" + ops
		}
		reps := strconv.Itoa(r.Reps) + " reps"
		if r.Reps == 1 {
			reps = "single run"
		}
		line := []string{
			r.Series, "S" + strconv.Itoa(r.Session), strconv.Itoa(r.Cores), r.Ratio,
			valueSize(r.ValueBytes), strconv.Itoa(r.Pipeline), ops, ms(r.P50Ms), ms(r.P99Ms), ms(r.P999Ms), reps,
		}
		if withDiffers {
			line = append(line, strings.Join(r.Differs, ", "))
		}
		cells = append(cells, line)
	}
	return header, cells
}

// opsShort shows throughput the house way: "15.5M", "636K".
func opsShort(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "K"
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

// ms shows a latency with up to three decimals.
func ms(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// valueSize shows a value size: "100 B", "1 KB".
func valueSize(b int) string {
	if b >= 1024 && b%1024 == 0 {
		return strconv.Itoa(b/1024) + " KB"
	}
	return strconv.Itoa(b) + " B"
}
