package analytics

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Plausibility: rules a benchmark engineer would sign, checked on every
// row that parsed. A row breaking one is refused, naming its line,
// column, value and the rule, unless the import allows implausible rows
// (ImportOptions.AllowImplausible), when it is imported and counted in the
// report and the manifest.

// Tolerances of the ratio rules: capture files round ops_per_core, and
// memtier counts a multi-key command's hits per key while its rate may be
// sampled a moment apart (the embedded data: 0.24% at most).
const (
	opsPerCoreTolerance = 0.01
	hitsTolerance       = 0.01
)

// implausible returns what is implausible about a parsed run.
func implausible(r *Run, line int) []RowProblem {
	var probs []RowProblem
	bad := func(col int, value string, rule string, a ...any) {
		probs = append(probs, RowProblem{Line: line, Column: columns[col],
			Reason: fmt.Sprintf("implausible: %s: %s (import with --allow-implausible if it is deliberate)", clip(value), fmt.Sprintf(rule, a...))})
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	if r.OpsPerSec > 0 {
		for _, l := range []struct {
			col int
			v   float64
		}{{colP50, r.P50Ms}, {colP99, r.P99Ms}, {colP999, r.P999Ms}} {
			if l.v <= 0 {
				bad(l.col, num(l.v), "a run with traffic (ops_per_sec %s) has latencies above 0", num(r.OpsPerSec))
			}
		}
		if want := r.OpsPerSec / float64(r.Cores); math.Abs(r.OpsPerCore-want) > opsPerCoreTolerance*want {
			bad(colOpsPerCore, num(r.OpsPerCore), "ops_per_core is ops_per_sec / cores_used = %s, within %g%%", num(want), opsPerCoreTolerance*100)
		}
		if r.KBPerSec <= 0 {
			bad(colKBPerSec, num(r.KBPerSec), "a run with traffic moves bytes")
		}
	}
	if keys := float64(keysPerOp(r.Ratio)); r.HitsPerSec > r.OpsPerSec*keys*(1+hitsTolerance) {
		bad(colHitsPerSec, num(r.HitsPerSec), "hits_per_sec is at most ops_per_sec × %g keys per operation = %s", keys, num(r.OpsPerSec*keys))
	}
	if cpus, ok := cpuCount(r.ServerCPUs); ok && r.Cores > max(cpus, r.Shards) {
		bad(colCores, strconv.Itoa(r.Cores), "cores_used is at most the larger of the CPUs in server_cpus (%d) and the shards (%d)", cpus, r.Shards)
	}
	return probs
}

// keysPerOp is how many keys one operation of a ratio touches: N for
// mgetN/msetN, else 1.
func keysPerOp(ratio string) int {
	for _, p := range []string{"mget", "mset"} {
		if rest, ok := strings.CutPrefix(ratio, p); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > 0 {
				return n
			}
		}
	}
	return 1
}

// cpuCount counts the CPUs of a list such as "0-3,8-11"; ok is false for
// anything else.
func cpuCount(list string) (int, bool) {
	if list == "" {
		return 0, false
	}
	n := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return 0, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0, false
			}
		}
		n += b - a + 1
		if n > 1<<20 {
			return 0, false
		}
	}
	return n, true
}

// unsafeRune returns the first character of s that text fields refuse
// (controls, C1 controls, bidirectional controls, the byte-order mark,
// zero-width characters, the replacement character for bytes that were
// not UTF-8) and what it is; ok is false when s has none.
func unsafeRune(s string) (r rune, what string, ok bool) {
	for _, c := range s {
		switch {
		case c < ' ' || c == 0x7f || (c >= 0x80 && c <= 0x9f):
			return c, "a control character", true
		case c == '\uFFFD':
			return c, "a byte that is not UTF-8", true
		case c == '\uFEFF':
			return c, "a byte-order mark", true
		case c == '\u061C' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069'):
			return c, "a bidirectional control, which makes text display differently from what it is", true
		case (c >= '\u200B' && c <= '\u200D') || c == '\u2060':
			return c, "a zero-width character", true
		case unicode.Is(unicode.Cf, c):
			return c, "an invisible formatting character", true
		}
	}
	return 0, "", false
}
