package web

import (
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// opsText is a throughput as answers say it; Garnet's figures are floors.
func opsText(v float64, floor bool) string {
	if floor {
		return "at least " + bot.FormatOps(v)
	}
	return bot.FormatOps(v)
}

// medianText is a cell's throughput with how many repetitions it is the
// median of.
func medianText(v float64, floor bool, reps int) string {
	if reps == 1 {
		return opsText(v, floor) + " (single run)"
	}
	return opsText(v, floor) + " (median of " + strconv.Itoa(reps) + " repetitions)"
}

// hitRateText is a hit rate with the digits that carry meaning, or a
// dash for runs without reads.
func hitRateText(h *float64) string {
	if h == nil {
		return "— (no reads)"
	}
	return strconv.FormatFloat(*h*100, 'f', -1, 64) + "%"
}

// exactText is a measured value exactly as stored, with separators.
func exactText(v float64) string { return bot.FormatExact(v) }
