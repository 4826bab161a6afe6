package compose

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// withUnits restates an answer in the units and direction the question
// asked, with the conversion or the division shown: latency in µs, ms or
// s; throughput in ops/s, K or M; "what share of Y does X reach" as X ÷ Y;
// "how much slower is X than Y" as 1 − X ÷ Y. The new line comes first;
// the ordinary answer follows as evidence.
func withUnits(p planner.Plan, a Answer) Answer {
	u := *p.Units
	if len(a.Rows) == 0 {
		return a
	}
	metric := planMetric(p)
	var lines []string
	if u.Share || u.Slower {
		if l := shareLine(p, a.Rows, metric, u); l != "" {
			lines = append(lines, l)
		}
	}
	if u.Time != "" && isLatency(metric) {
		for _, r := range a.Rows[:min(len(a.Rows), 6)] {
			v, _ := r.Metric(metric)
			lines = append(lines, r.Series+": "+metricWords(metric)+" "+timeIn(v, u.Time))
		}
	}
	if u.Throughput != "" && !isLatency(metric) && metric != "hit_rate" {
		for _, r := range a.Rows[:min(len(a.Rows), 6)] {
			v, _ := r.Metric(metric)
			lines = append(lines, r.Series+": "+opsIn(v, u.Throughput, r.floorFor(metric)))
		}
	}
	if u.Keys && !isLatency(metric) && metric != "hit_rate" {
		for _, r := range a.Rows[:min(len(a.Rows), 6)] {
			v, _ := r.Metric(metric)
			lines = append(lines, r.Series+": "+keysPerSec(v, r.Ratio, r.floorFor(metric)))
		}
	}
	if u.Unsupported != "" {
		lines = append([]string{u.Unsupported}, lines...)
	}
	if len(lines) == 0 {
		return a
	}
	old := a.Headline
	a.Headline = lines[0]
	rest := append(lines[1:], old)
	a.Body = append(rest, a.Body...)
	return a
}

// timeIn converts a latency in ms, showing the conversion.
func timeIn(ms float64, unit string) string {
	switch unit {
	case "us":
		return trimZeros(strconv.FormatFloat(ms*1000, 'f', 0, 64)) + " µs (" + formatMsExact(ms) + " ms × 1,000)"
	case "s":
		return trimZeros(strconv.FormatFloat(ms/1000, 'f', 6, 64)) + " s (" + formatMsExact(ms) + " ms ÷ 1,000)"
	}
	return FormatMs(ms)
}

// opsIn states a throughput in the unit asked, exact value alongside.
func opsIn(v float64, unit string, floor bool) string {
	at := ""
	if floor {
		at = "at least "
	}
	switch unit {
	case "K":
		return at + formatExact(roundTo(v/1e3, 1)) + "K ops/s (" + formatExact(v) + " ÷ 1,000)"
	case "M":
		return at + trimZeros(strconv.FormatFloat(v/1e6, 'f', 3, 64)) + "M ops/s (" + formatExact(v) + " ÷ 1,000,000)"
	}
	return at + formatExact(v) + " ops/s"
}

// keysPerSec restates a throughput as keys per second with its
// arithmetic: ops/s × the keys each command carries.
func keysPerSec(v float64, ratio string, floor bool) string {
	at := ""
	if floor {
		at = "at least "
	}
	switch ratio {
	case "mget10", "mset10":
		cmd := "MGET"
		if ratio == "mset10" {
			cmd = "MSET"
		}
		return at + formatExact(v*10) + " keys/s (" + formatExact(v) + " " + cmd + " commands/s × 10 keys per command)"
	}
	return at + formatExact(v) + " keys/s (" + formatExact(v) + " ops/s × 1 key per command)"
}

func roundTo(v float64, dec int) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', dec, 64), 64)
	return p
}

// shareLine keeps the direction asked: the part over the whole (share) or
// how far the subject falls short of the reference (slower), pairing
// series of the same kind (single with single, realistic with realistic).
func shareLine(p planner.Plan, rows []Row, metric string, u planner.Units) string {
	ref := u.Of
	if ref == "" {
		ref = p.Queries[len(p.Queries)-1].Engine
	}
	var whole, part *Row
	for i := range rows {
		r := &rows[i]
		if r.Engine == ref && (whole == nil || r.Mode == "cluster") {
			whole = r
		}
	}
	if whole == nil {
		return ""
	}
	cands := slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return r.Engine == ref })
	slices.SortStableFunc(cands, func(x, y Row) int {
		return cmp.Compare(boolRank(x.Mode != whole.Mode), boolRank(y.Mode != whole.Mode))
	})
	if len(cands) == 0 {
		return ""
	}
	part = &cands[0]
	vp, _ := part.Metric(metric)
	vw, _ := whole.Metric(metric)
	if vw == 0 || vp == 0 {
		return ""
	}
	q := vp / vw
	if lowerIsBetter(metric) {
		q = vw / vp // for latency, "share of the speed": the reference's time over the subject's
	}
	nums := formatMetric(metric, vp, part.floorFor(metric)) + " ÷ " + formatMetric(metric, vw, whole.floorFor(metric))
	if u.Slower {
		pct := trimZeros(strconv.FormatFloat((1-q)*100, 'f', 1, 64))
		if q >= 1 {
			return part.Series + " is not slower than " + whole.Series + ": it reaches " + FormatRatio(q) + " of its " + metricWords(metric) + " (" + nums + ")."
		}
		return part.Series + " is " + pct + "% slower than " + whole.Series + " on " + metricWords(metric) + ": 1 − " + nums + " = 1 − " + FormatRatio(q) + "."
	}
	pct := trimZeros(strconv.FormatFloat(q*100, 'f', 1, 64))
	return part.Series + " reaches " + pct + "% of " + whole.Series + "'s " + metricWords(metric) + ": " + nums + " = " + FormatRatio(q) + "."
}
