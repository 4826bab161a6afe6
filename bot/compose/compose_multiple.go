package compose

import (
	"fmt"
	"strings"
)

// multiplePair is one ratio a "how many times" answer states: the
// subject's median over another series' median, under the same conditions.
type multiplePair struct {
	subj, other Row
	q           float64 // subject ÷ other, from the unrounded medians
}

// multipleSubject splits the rows of a "how many times" plan into the
// subject's (the engine of the plan's first query — or, when every query
// is of one engine, the first query's series) and the others'.
func multipleSubject(results []queryResult) (subj, others []Row) {
	var first Row
	found := false
	oneEngine := true
	for _, qr := range results {
		for _, r := range qr.rows {
			if !found {
				first, found = r, true
			}
			if r.Engine != first.Engine {
				oneEngine = false
			}
		}
	}
	if !found {
		return nil, nil
	}
	for _, r := range dedupeRows(allRows(results)) {
		if r.Engine == first.Engine && (!oneEngine || r.Mode == first.Mode) {
			subj = append(subj, r)
		} else {
			others = append(others, r)
		}
	}
	return subj, others
}

func allRows(results []queryResult) []Row {
	var out []Row
	for _, qr := range results {
		out = append(out, qr.rows...)
	}
	return out
}

// sameConditions reports whether two rows were measured under the same
// cores, mix, value size and pipeline depth (sessions may differ).
func sameConditions(a, b Row) bool {
	return a.Cores == b.Cores && a.Ratio == b.Ratio && a.ValueBytes == b.ValueBytes && a.Pipeline == b.Pipeline
}

// multiplePairs pairs each subject row with the other series measured
// under the same conditions (claimPeers); a lone subject row with no such
// peer is paired with every other row (the labels then name what differs).
func multiplePairs(subj, others []Row, metric string) []multiplePair {
	var out []multiplePair
	add := func(s, o Row) {
		vs, ok1 := s.Metric(metric)
		vo, ok2 := o.Metric(metric)
		if ok1 && ok2 && vs != 0 && vo != 0 {
			out = append(out, multiplePair{subj: s, other: o, q: vs / vo})
		}
	}
	for _, s := range subj {
		// A cluster is set against the same series of another cluster
		// engine (realistic with realistic, ceiling with ceiling).
		for _, o := range claimPeers(s, others) {
			add(s, o)
		}
	}
	if len(out) == 0 && len(subj) == 1 {
		for _, o := range others {
			add(subj[0], o)
		}
	}
	return out
}

// multipleText states each series as a multiple of the subject's, naming
// both series of every ratio, computed from the medians: a Garnet subject
// is "at least" so many times (its figures are floors), a Garnet divisor
// "at most"; a ratio across the two capture sessions says so.
func multipleText(results []queryResult, rows []Row, metric string) (headline string, lines []string, plain string, ok bool) {
	subj, others := multipleSubject(results)
	pairs := multiplePairs(subj, others, metric)
	if len(pairs) == 0 {
		return "", nil, "", false
	}
	// Sessions are said once per ratio ("across sessions"), not in labels.
	varying := otherVarying(rows, "session")
	mw := metricWords(metric)
	floorMetric := metric == "ops_per_sec" || metric == "ops_per_core"
	// Headline phrases are grouped by subject row: "S has 3.4× the
	// throughput of A, and 0.38× that of B".
	type group struct {
		label   string
		phrases []string
	}
	var groups []group
	var plains []string
	for _, pr := range pairs {
		s, o := pr.subj, pr.other
		vs, _ := s.Metric(metric)
		vo, _ := o.Metric(metric)
		bound := ""
		if floorMetric {
			bound = multipleBound(s, o, metric)
		}
		sl, ol := rowLabel(s, varying), rowLabel(o, varying)
		r := FormatRatio(pr.q)
		var phrase, gloss string
		switch {
		case r == "1.0×":
			phrase = fmt.Sprintf("about the same as that of %s (%s)", ol, r)
			if !lowerIsBetter(metric) {
				phrase = fmt.Sprintf("about the same %s as %s (%s)", mw, ol, r)
			}
		case lowerIsBetter(metric) && pr.q < 1:
			phrase = fmt.Sprintf("%s lower than that of %s", FormatRatio(1/pr.q), ol)
			gloss = fmt.Sprintf("%s lower", FormatRatio(1/pr.q))
		case lowerIsBetter(metric):
			phrase = fmt.Sprintf("%s higher than that of %s", r, ol)
			gloss = fmt.Sprintf("%s higher", r)
		case pr.q < 1:
			phrase = fmt.Sprintf("%s%s the %s of %s (%s of it)", bound, r, mw, ol, FormatPercent(pr.q))
			gloss = fmt.Sprintf("%s; the other way round, %s", FormatPercent(pr.q), FormatRatio(1/pr.q))
		default:
			phrase = fmt.Sprintf("%s%s the %s of %s", bound, r, mw, ol)
		}
		if s.Session != o.Session {
			phrase += fmt.Sprintf(" (across sessions: session %d against session %d)", s.Session, o.Session)
		}
		var line string
		switch {
		case lowerIsBetter(metric) && pr.q < 1 && r != "1.0×":
			line = fmt.Sprintf("%s ÷ %s: %s ÷ %s = %s, so the %s of %s is %s", ol, sl, formatMetric(metric, vo, false), formatMetric(metric, vs, false),
				FormatRatio(1/pr.q), mw, sl, gloss)
		default:
			line = fmt.Sprintf("%s ÷ %s: %s ÷ %s = %s%s", sl, ol, formatMetric(metric, vs, floorMetric && s.Floor),
				formatMetric(metric, vo, floorMetric && o.Floor), bound, r)
			switch {
			case lowerIsBetter(metric) && gloss != "":
				line += fmt.Sprintf(", so the %s of %s is %s", mw, sl, gloss)
			case gloss != "":
				line += " (" + gloss + ")"
			}
		}
		if s.Session != o.Session {
			line += fmt.Sprintf(" — across sessions: session %d against session %d (different machines, date and client box)", s.Session, o.Session)
		}
		if s.Floor && o.Floor && floorMetric {
			line += " — both figures are floors, so the ratio is indicative only"
		}
		lines = append(lines, line+".")
		if n := len(groups); n > 0 && groups[n-1].label == sl {
			groups[n-1].phrases = append(groups[n-1].phrases, phrase)
		} else {
			groups = append(groups, group{label: sl, phrases: []string{phrase}})
		}
		if !lowerIsBetter(metric) && len(plains) < 2 && s.Mode != "cluster-sat" {
			about := "about"
			if bound != "" {
				about = strings.TrimSpace(bound)
			}
			plains = append(plains, fmt.Sprintf("%s %s the work of %s", about, r, plainSeries(o)))
		}
	}
	var heads []string
	shown := 0
	for _, g := range groups {
		if shown >= 3 {
			break
		}
		ps := g.phrases[:min(len(g.phrases), 3-shown)]
		shown += len(ps)
		h := g.label + " has " + strings.Join(ps, ", and ")
		if lowerIsBetter(metric) {
			h = "the " + mw + " of " + g.label + " is " + strings.Join(ps, ", and ")
		}
		heads = append(heads, h)
	}
	headline = strings.Join(heads, "; ") + "."
	if len(pairs) > shown {
		headline += " Every ratio is listed below."
	}
	if len(plains) > 0 {
		same := "under the same conditions"
		if pairs[0].subj.Session != pairs[0].other.Session {
			same = "with the same settings, though in separate capture sessions"
		}
		plain = fmt.Sprintf("%s, %s did %s.", same, plainSeries(pairs[0].subj), strings.Join(plains, ", and "))
	}
	return capitalise(headline), lines, capitalise(plain), true
}
