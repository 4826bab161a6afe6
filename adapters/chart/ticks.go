package chart

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// yTicks marks the value axis: about six evenly spaced labelled ticks on
// a linear axis, or 1-2-5 steps per decade on a log axis, labelled in the
// chart's number style (5M, 500K, 0.5).
type yTicks struct {
	log    bool
	format func(float64) string
}

// linearTarget is roughly how many labelled ticks a linear axis gets.
const linearTarget = 6

// bounds returns the axis range for values from lo to hi: from zero to a
// round value above hi on a linear axis; from the 1-2-5 step at or below
// lo to the one a little above hi on a log axis.
func (t yTicks) bounds(lo, hi float64) (float64, float64) {
	if t.log {
		steps := logSteps(lo/1.15, hi*1.25)
		return steps[0], steps[len(steps)-1]
	}
	if hi <= 0 {
		return 0, 1
	}
	step := niceStep(hi * 1.08 / linearTarget)
	return 0, math.Ceil(hi*1.08/step) * step
}

// Ticks implements plot.Ticker.
func (t yTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if t.log {
		for _, v := range logSteps(lo, hi) {
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				ticks = append(ticks, plot.Tick{Value: v, Label: t.format(v)})
			}
		}
		for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
			for _, m := range []float64{3, 4, 6, 7, 8, 9} {
				if v := m * math.Pow(10, e); v > lo && v < hi {
					ticks = append(ticks, plot.Tick{Value: v})
				}
			}
		}
		return ticks
	}
	step := niceStep((hi - lo) / linearTarget)
	for i := math.Ceil(lo / step); i*step <= hi*(1+1e-9); i++ {
		v := i * step
		ticks = append(ticks, plot.Tick{Value: v, Label: t.format(v)})
	}
	return ticks
}

// logSteps lists the 1-2-5 values from the last one at or below lo to
// the first one at or above hi (lo > 0).
func logSteps(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)) - 1; ; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			out = append(out, v)
			if v >= hi {
				return trimBelow(out, lo)
			}
		}
	}
}

// trimBelow keeps the last value at or below lo and everything above it.
func trimBelow(steps []float64, lo float64) []float64 {
	for i := len(steps) - 1; i > 0; i-- {
		if steps[i] <= lo {
			return steps[i:]
		}
	}
	return steps
}

// niceStep rounds a raw step up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag*(1+1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// tickFormat labels axis values for a unit: throughput-like units in
// K and M ("12.5M", "500K"), anything else as a plain short number.
func tickFormat(unit string) func(float64) string {
	if strings.HasSuffix(unit, "/s") || strings.Contains(unit, "/s ") {
		return si
	}
	return func(v float64) string { return trim(strconv.FormatFloat(v, 'f', 3, 64)) }
}

// si writes v with a K or M suffix and no more digits than it needs.
func si(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e9:
		return trim(strconv.FormatFloat(v/1e9, 'f', 2, 64)) + "G"
	case math.Abs(v) >= 1e6:
		return trim(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case math.Abs(v) >= 1e3:
		return trim(strconv.FormatFloat(v/1e3, 'f', 2, 64)) + "K"
	}
	return trim(strconv.FormatFloat(v, 'f', 2, 64))
}

// trim drops trailing zeros after a decimal point, and the point.
func trim(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
