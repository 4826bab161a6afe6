package knowledge

import (
	"math"
	"strconv"
	"strings"
)

var claimStatuses = map[string]bool{StatusComparable: true, StatusNotComparable: true, StatusNeverMeasured: true, StatusContext: true}

// checkClaim validates a claim's structured fields; every problem names
// the claim.
func (l *loader) checkClaim(c *Claim) {
	for _, f := range []struct{ name, v string }{
		{"engine", c.Engine}, {"version", c.Version}, {"date", c.Date}, {"metric", c.Metric},
	} {
		if strings.TrimSpace(f.v) == "" {
			l.fail("%s: no %s (write \"not stated\" when the claimant gives none): %w", c.ID, f.name, ErrInvalid)
		}
	}
	k := c.Conditions
	if k.Hardware == "" || k.Ratio == "" || k.ValueSize == "" || k.Pipeline == "" || k.Shape == "" {
		l.fail("%s: conditions need hardware, ratio, value_size, pipeline and shape (\"not stated\" when unknown): %w", c.ID, ErrInvalid)
	}
	r := c.Comparability
	switch {
	case r.Status == "":
		l.fail("%s: no comparability rule: %w", c.ID, ErrInvalid)
		return
	case !claimStatuses[r.Status]:
		l.fail("%s: comparability status %q, want comparable, not comparable, never measured or context only: %w", c.ID, r.Status, ErrInvalid)
		return
	}
	if r.Status == StatusComparable {
		if r.Series == "" || r.Check == nil {
			l.fail("%s: a comparable claim names the series it is comparable with and a check: %w", c.ID, ErrInvalid)
		}
		if r.Check != nil {
			l.checkCheck(c, r.Check)
		}
		return
	}
	if r.Reason == "" {
		l.fail("%s: comparability %q needs the reason: %w", c.ID, r.Status, ErrInvalid)
	}
	if r.Check != nil {
		l.fail("%s: only a comparable claim has a check: %w", c.ID, ErrInvalid)
	}
	if r.Status != StatusContext && len(r.Nearest) == 0 {
		l.fail("%s: comparability %q names the nearest measures: %w", c.ID, r.Status, ErrInvalid)
	}
	for _, n := range r.Nearest {
		if _, ok := c.Measure(n); !ok {
			l.fail("%s: nearest names no measure %q: %w", c.ID, n, ErrInvalid)
		}
	}
}

func (l *loader) checkCheck(c *Claim, k *ClaimCheck) {
	needAgainst := k.Kind == "ratio" || k.Kind == "less"
	switch k.Kind {
	case "ratio", "less", "below", "at_least":
	default:
		l.fail("%s: check kind %q, want ratio, less, below or at_least: %w", c.ID, k.Kind, ErrInvalid)
		return
	}
	if k.PairBy != "" && k.PairBy != "cores" {
		l.fail("%s: check pair_by %q, want cores: %w", c.ID, k.PairBy, ErrInvalid)
	}
	if len(k.Subject) == 0 || needAgainst != (len(k.Against) > 0) || k.Claimed <= 0 {
		l.fail("%s: check %s needs subject measures, a positive claimed figure and against measures exactly when it compares: %w", c.ID, k.Kind, ErrInvalid)
	}
	for _, n := range append(append([]string(nil), k.Subject...), k.Against...) {
		if _, ok := c.Measure(n); !ok {
			l.fail("%s: check names no measure %q: %w", c.ID, n, ErrInvalid)
		}
	}
}

// judge computes a comparable claim's outcomes and its verdict from the
// measured values; any other claim's verdict is its status.
func (l *loader) judge(c *Claim) {
	r := &c.Comparability
	if r.Status != StatusComparable || r.Check == nil {
		c.Verdict = r.Status
		return
	}
	k := r.Check
	tol := k.Tolerance
	if tol == 0 {
		tol = 0.1
	}
	value := func(name string) float64 { m, _ := c.Measure(name); return m.Value }
	r.Outcomes = nil
	for _, s := range k.Subject {
		sm, _ := c.Measure(s)
		if len(k.Against) == 0 {
			v := value(s)
			r.Outcomes = append(r.Outcomes, CheckOutcome{Subject: s, Measured: v, Verdict: boundVerdict(k.Kind, v, k.Claimed, tol)})
			continue
		}
		for _, a := range k.Against {
			if am, _ := c.Measure(a); k.PairBy == "cores" && am.Cell.Cores != sm.Cell.Cores {
				continue
			}
			b := value(a)
			if b == 0 {
				l.fail("%s: check against %q: measured zero, cannot divide: %w", c.ID, a, ErrInvalid)
				continue
			}
			q := value(s) / b
			if k.Kind == "less" {
				q = (1 - q) * 100
			}
			neutral := 1.0 // a multiple's direction holds above 1, a percentage less above 0
			if k.Kind == "less" {
				neutral = 0
			}
			r.Outcomes = append(r.Outcomes, CheckOutcome{Subject: s, Against: a, Measured: q, Verdict: relationVerdict(q, k.Claimed, neutral, tol)})
		}
	}
	if len(r.Outcomes) == 0 {
		l.fail("%s: the check pairs no subject with an against measure: %w", c.ID, ErrInvalid)
	}
	c.Verdict = CombineVerdicts(r.Outcomes)
}

// relationVerdict judges a measured multiple (or percentage less) against
// the claimed one: about the same within the tolerance, yes at or beyond
// it, partly when the direction holds but the size does not, no otherwise.
func relationVerdict(measured, claimed, neutral, tol float64) string {
	switch {
	case math.Abs(measured/claimed-1) <= tol:
		return VerdictAbout
	case measured >= claimed:
		return VerdictYes
	case measured > neutral && claimed > neutral:
		return VerdictPartly
	}
	return VerdictNo
}

// boundVerdict judges a measured value against a claimed bound.
func boundVerdict(kind string, v, bound, tol float64) string {
	holds := v < bound
	if kind == "at_least" {
		holds = v >= bound
	}
	switch {
	case holds:
		return VerdictYes
	case math.Abs(v/bound-1) <= tol:
		return VerdictAbout
	}
	return VerdictNo
}

// CombineVerdicts is the verdict over a claim's outcomes: the common one
// when all agree, partly when they differ.
func CombineVerdicts(os []CheckOutcome) string {
	if len(os) == 0 {
		return StatusNeverMeasured
	}
	v := os[0].Verdict
	for _, o := range os[1:] {
		if o.Verdict != v {
			return VerdictPartly
		}
	}
	return v
}

// claimKind is the id prefix of an entry of the claims file: "claim", or
// "engine-status" for a status note about an engine's project, which is
// checked the same way but changes no measured number.
func claimKind(id string) string {
	if kind, _, _ := strings.Cut(id, ":"); kind == "engine-status" {
		return kind
	}
	return "claim"
}

// ClaimedText is the claimed figure of a comparable claim's check as
// answers write it ("4.5×", "30% less", "under 1 ms", "at least 1.0M
// ops/s"); empty without a check.
func (c Claim) ClaimedText() string {
	k := c.Comparability.Check
	if k == nil {
		return ""
	}
	switch k.Kind {
	case "ratio":
		if k.Claimed == 1 {
			return "ahead"
		}
		return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(k.Claimed, 'f', 2, 64), "0"), ".") + "×"
	case "less":
		return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(k.Claimed, 'f', 1, 64), "0"), ".") + "% less"
	}
	v := formatOps(k.Claimed) + " ops/s"
	if m, ok := c.Measure(k.Subject[0]); ok && strings.HasSuffix(m.Metric, "_ms") {
		v = strconv.FormatFloat(k.Claimed, 'f', -1, 64) + " ms"
	}
	if k.Kind == "below" {
		return "under " + v
	}
	return "at least " + v
}
