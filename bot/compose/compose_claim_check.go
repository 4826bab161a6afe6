package compose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// verdictGloss says in words what each computed verdict means.
var verdictGloss = map[string]string{
	knowledge.VerdictYes:    "holds",
	knowledge.VerdictNo:     "does not hold",
	knowledge.VerdictPartly: "the direction holds, the size does not",
	knowledge.VerdictAbout:  "about the same as claimed",
}

// claimCheckHeadline is a comparable claim's check in words: the claimed
// figure, then each measured comparison with its computed verdict. It is
// built from the claim's structured check alone, never worded per claim.
func claimCheckHeadline(c knowledge.Claim, outcomes []knowledge.CheckOutcome) string {
	k := c.Comparability.Check
	if k == nil || len(outcomes) == 0 {
		return ""
	}
	var names []string
	names = append(names, k.Subject...)
	names = append(names, k.Against...)
	label := measureLabeller(c, names)
	claimed := c.ClaimedText()
	var parts []string
	for _, o := range outcomes {
		s, _ := c.Measure(o.Subject)
		var part string
		switch k.Kind {
		case "ratio":
			a, _ := c.Measure(o.Against)
			bound := ""
			if measureFloor(s) && !measureFloor(a) {
				bound = "at least "
			}
			part = fmt.Sprintf("%s is %s%s %s", label(s), bound, FormatRatio(o.Measured), label(a))
		case "less":
			a, _ := c.Measure(o.Against)
			rel := trimZeros(fmt.Sprintf("%.1f", o.Measured)) + "% less than"
			if o.Measured < 0 {
				rel = trimZeros(fmt.Sprintf("%.1f", -o.Measured)) + "% more than"
			}
			part = fmt.Sprintf("%s needs %s %s", label(s), rel, label(a))
		default:
			part = label(s)
		}
		parts = append(parts, part+" — "+o.Verdict+" ("+verdictGloss[o.Verdict]+")")
	}
	line := "Claimed " + claimed + "; measured here: " + strings.Join(parts, "; ") + "."
	if crossSession(c, names) {
		// The two capture sessions ran other load generators on other
		// client shapes: a comparison across them is a direction only.
		line += " These figures come from the two capture sessions (different load generators), so the comparison across them is a direction, not a precise multiple."
	}
	return line
}

// crossSession reports whether the named measures come from both capture
// sessions.
func crossSession(c knowledge.Claim, names []string) bool {
	seen := map[int]bool{}
	for _, n := range names {
		if m, ok := c.Measure(n); ok && m.FromRuns() {
			seen[m.Cell.Session] = true
		}
	}
	return len(seen) > 1
}

func measureFloor(m knowledge.Measure) bool {
	return m.FromRuns() && RowFromCell(m.Cell).floorFor(m.Metric)
}

// measureLabeller names each measure by its series and value, adding the
// conditions (cores, pipeline) on which the named measures differ.
func measureLabeller(c knowledge.Claim, names []string) func(knowledge.Measure) string {
	// A measure across cores is named by its last cell (the most cores).
	cores, pipes, sessions := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for _, n := range names {
		if m, ok := c.Measure(n); ok && m.FromRuns() {
			cores[m.Cell.Cores] = true
			pipes[m.Cell.Pipeline] = true
			sessions[m.Cell.Session] = true
		}
	}
	return func(m knowledge.Measure) string {
		if !m.FromRuns() {
			return fmt.Sprintf("%s %s bytes per key", analytics.EngineName(m.Row), formatExact(m.Value))
		}
		r := RowFromCell(m.Cell)
		s := shortSeries(m.Cell.Engine, m.Cell.Mode)
		if len(cores) > 1 {
			s += fmt.Sprintf(" at %d cores", m.Cell.Cores)
		}
		if len(sessions) > 1 {
			s += fmt.Sprintf(" (session %d)", m.Cell.Session)
		}
		if len(pipes) > 1 {
			s += fmt.Sprintf(" at pipeline %d", m.Cell.Pipeline)
		}
		if w, ok := latencyShort[m.Metric]; ok {
			s += " " + w
		}
		return s + " " + formatMetric(m.Metric, m.Value, r.floorFor(m.Metric)) + singleRunTag(r)
	}
}

// claimRuleLine states the claim's comparability rule: what a comparable
// run here is, or why none is.
func claimRuleLine(c knowledge.Claim) string {
	r := c.Comparability
	switch r.Status {
	case knowledge.StatusComparable:
		line := "**Comparable with:** " + fullStop(r.Series)
		if r.Reason != "" {
			line += " Limits: " + fullStop(r.Reason)
		}
		return line
	case knowledge.StatusContext:
		return "**Context only:** " + fullStop(r.Reason)
	}
	if r.Series == "" {
		return ""
	}
	return "**A comparable measurement would be:** " + fullStop(r.Series) + " " + capitalise(r.Status) + " here."
}

// nearestHeadline is the line 1 of a claim no run here is comparable
// with: why (the rule's reason), then the measures it names as nearest.
func nearestHeadline(c knowledge.Claim) string {
	h := capitalise(fullStop(c.Comparability.Reason))
	label := measureLabeller(c, c.Comparability.Nearest)
	var parts []string
	for _, m := range c.NearestMeasures() {
		parts = append(parts, label(m))
	}
	if len(parts) > 0 {
		h += " Nearest measured: " + strings.Join(parts, "; ") + "."
	}
	return h
}

// nearestRows are the rows of the measures a claim names as nearest.
func nearestRows(c knowledge.Claim) []Row {
	var out []Row
	for _, m := range c.NearestMeasures() {
		if !m.FromRuns() {
			continue
		}
		cells := m.Series
		if len(cells) == 0 {
			cells = []analytics.Cell{m.Cell}
		}
		for _, cell := range cells {
			out = append(out, RowFromCell(cell))
		}
	}
	return out
}

// latencyShort names a latency metric inside a check's sentence.
var latencyShort = map[string]string{"p50_ms": "p50", "p99_ms": "p99", "p999_ms": "p99.9"}

// askedOutcomes are the outcomes of a claim's check between engines the
// question names (Garnet against Dragonfly, not against KeyDB, when the
// question names Dragonfly); all of them when it names fewer than two or
// none matches.
func askedOutcomes(c knowledge.Claim, engines []string) []knowledge.CheckOutcome {
	all := c.Comparability.Outcomes
	if len(engines) < 2 {
		return all
	}
	engineOf := func(name string) string { m, _ := c.Measure(name); return m.Cell.Engine + m.Row }
	var out []knowledge.CheckOutcome
	for _, o := range all {
		if slices.Contains(engines, engineOf(o.Subject)) && (o.Against == "" || slices.Contains(engines, engineOf(o.Against))) {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}
