package compose

import (
	"math"
	"strconv"
	"strings"
)

// FormatOps renders a throughput the way answers say it (docs/design.md#answers):
// "15.5M ops/s" from a million up, "636K ops/s" below.
func FormatOps(v float64) string { return formatOpsShort(v) + " ops/s" }

// formatOpsShort is FormatOps without the unit: "15.5M", "636K".
func formatOpsShort(v float64) string {
	switch {
	case math.Abs(v) >= 999_950:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case math.Abs(v) >= 1000:
		return strconv.FormatFloat(math.Round(v/1e3), 'f', 0, 64) + "K"
	default:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
}

// FormatMs renders a latency in milliseconds the same way everywhere
// (docs/design.md#answers): the median with up to three decimals, trailing zeros
// trimmed ("0.883 ms", "2.423 ms", "35.199 ms", "0.2 ms"). Exact values are
// in the JSON rows.
func FormatMs(v float64) string { return formatMsShort(v) + " ms" }

// formatMsShort is FormatMs without the unit, for table cells.
func formatMsShort(v float64) string { return formatMsExact(v) }

// formatMsExact renders a latency with the source's three decimals, trailing
// zeros trimmed (tables and exact values).
func formatMsExact(v float64) string { return trimZeros(strconv.FormatFloat(v, 'f', 3, 64)) }

// FormatRatio renders a multiple: "3.4×", and two decimals below 1 ("0.38×").
func FormatRatio(r float64) string {
	if r < 0.995 {
		return trimZeros(strconv.FormatFloat(r, 'f', 2, 64)) + "×"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "×"
}

// aboutTheSame reports two figures within the 5% that rounds their ratio
// to 1.0×: neither is ahead. Yes/no comparisons and recommendations say
// so instead of a misleading "1.0×".
func aboutTheSame(x, y float64) bool {
	return x != 0 && y != 0 && FormatRatio(max(x, y)/min(x, y)) == "1.0×"
}

// FormatPercent renders a fraction as a whole percentage: 0.3813 → "38%";
// 0.9998 → "99.98%" (meaningfulDecimals).
func FormatPercent(f float64) string {
	return meaningfulDecimals(f*100, 0) + "%"
}

// meaningfulDecimals writes v with at least min decimals, and more (up to
// four) while fewer would make it read as 0 or 100 when it is not exactly
// that: a hit rate of 99.98% is never "100%".
func meaningfulDecimals(v float64, minDecimals int) string {
	for d := minDecimals; ; d++ {
		s := trimZeros(strconv.FormatFloat(v, 'f', d, 64))
		r, _ := strconv.ParseFloat(s, 64)
		boundary := (r == 0 && v != 0) || (r == 100 && v != 100)
		if !boundary || d >= 4 {
			return s
		}
	}
}

// FormatExact renders a number with thousands separators and the decimals
// it has, e.g. 15473658.395 → "15,473,658.395" (pages showing every field
// of a run).
func FormatExact(v float64) string { return formatExact(v) }

// formatExact renders a number with thousands separators and the decimals
// it has, e.g. 15473658.395 → "15,473,658.395".
func formatExact(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// formatValueBytes renders a value size: "100 B", "1 KB" for 1024 bytes.
func formatValueBytes(n int) string {
	if n > 0 && n%1024 == 0 {
		return strconv.Itoa(n/1024) + " KB"
	}
	return strconv.Itoa(n) + " B"
}

// formatHitRate renders a hit rate (0..1) as a percentage with up to one decimal.
func formatHitRate(v float64) string {
	return meaningfulDecimals(v*100, 1) + "%"
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
