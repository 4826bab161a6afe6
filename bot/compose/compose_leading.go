package compose

import (
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// maxPremisePairs bounds the comparison table of a yes/no answer;
// contradicting pairs come first.
const maxPremisePairs = 12

// premisePair is one subject cell against one object cell measured under
// the same cores, workload, value size and pipeline.
type premisePair struct {
	subject, object Row
	holds           bool // the premise holds for this pair
	unsure          bool // a lead over Garnet's floor proves nothing
	tied            bool // within the 5% that rounds to 1.0×: neither ahead
}

// premiseAnswer answers a leading yes/no question: "Yes", "No" or "Partly"
// first, then the cells that contradict the premise, then those that
// confirm it. A lead over Garnet's floor is not counted either way.
func premiseAnswer(a *Answer, p planner.Plan, results []queryResult) evidence {
	pr := *p.Premise
	var subj, obj []Row
	for _, r := range results {
		for _, row := range r.rows {
			if row.Engine == pr.Subject {
				subj = append(subj, row)
			} else if pr.Object == "" || row.Engine == pr.Object {
				obj = append(obj, row)
			}
		}
	}
	metric := pr.Metric
	var pairs []premisePair
	for _, x := range subj {
		// Like for like: a cluster against the same series of another
		// cluster (realistic with realistic, ceiling with ceiling).
		for _, y := range claimPeers(x, obj) {
			vx, okx := x.Metric(metric)
			vy, oky := y.Metric(metric)
			if !okx || !oky {
				continue
			}
			better := vx > vy
			if lowerIsBetter(metric) {
				better = vx < vy
			}
			pp := premisePair{subject: x, object: y, holds: better == pr.Better}
			switch {
			case pr.Same:
				// Level is what was asked: a pair within 5% holds it.
				pp.holds = aboutTheSame(vx, vy)
			case aboutTheSame(vx, vy):
				pp.tied, pp.holds = true, false
			}
			// Ahead of a floor proves nothing; behind one neither.
			if !lowerIsBetter(metric) && (y.Floor && better || x.Floor && !better) {
				pp.unsure = true
			}
			pairs = append(pairs, pp)
		}
	}
	if len(pairs) == 0 {
		a.Headline = "Neither yes nor no: the two were never measured under the same conditions there, so the data cannot compare them."
		a.Rows = []Row{}
		a.PlainWords = "There is no pair of measurements to settle it."
		return evidence{}
	}
	var against, pro, unsure, tied []premisePair
	for _, pp := range pairs {
		switch {
		case pp.unsure:
			unsure = append(unsure, pp)
		case pp.tied:
			tied = append(tied, pp)
		case pp.holds:
			pro = append(pro, pp)
		default:
			against = append(against, pp)
		}
	}
	verdict := "Partly"
	switch {
	case len(against) == 0 && len(tied) == 0 && len(pro) > 0:
		verdict = "Yes"
	case len(pro) == 0 && len(against) > 0:
		verdict = "No"
	case len(pro) == 0 && len(against) == 0 && len(tied) > 0:
		verdict = "About the same"
	case len(pro) == 0 && len(against) == 0:
		verdict = "Undecided"
	}
	if pr.Same && verdict == "Yes" {
		verdict = "About the same" // said as "Yes — about the same"
	}
	lead := sameWord(answerWord(verdict, " — "), pr.Same)
	holds := map[string]string{"Yes": "it holds in every pair measured", "No": "it holds in no pair measured",
		"Partly": "it holds in some pairs, not all", "About the same": "every pair measured is within 5%, neither ahead", "Undecided": "every pair involves Garnet's floor, which cannot settle it"}[verdict]
	switch {
	case len(against) > 0 && len(pro) > 0:
		// Both sides, at one setting where they can be: "Partly — at 48
		// cores … Dragonfly has 15.5M against 4.5M for Valkey Cluster
		// (realistic), but 15.5M against 40.2M for Valkey Cluster
		// (ceiling)".
		c, p := against[0], pro[0]
		for _, q := range pro {
			if sameConditions(q.subject, c.subject) {
				p = q
				break
			}
		}
		if sameConditions(p.subject, c.subject) {
			lead += " — at " + pairConditions(p) + ", " + versus(p, metric) + ", but " + versus(c, metric)
		} else {
			lead += " — at " + pairConditions(c) + ", " + versus(c, metric)
		}
	case len(against) > 0:
		lead += " — at " + pairConditions(against[0]) + ", " + versus(against[0], metric)
	case len(pro) > 1:
		lead += " — for example at " + pairConditions(pro[0]) + ", " + versus(pro[0], metric)
	case len(pro) == 1:
		lead += " — at " + pairConditions(pro[0]) + ", " + versus(pro[0], metric)
	case len(tied) > 0:
		lead += ", within 5%: at " + pairConditions(tied[0]) + ", " + versus(tied[0], metric)
	default:
		lead += " — " + holds
	}
	if pr.Same {
		// "Yes — about the same, within 5%: at 16 cores …".
		lead = strings.Replace(lead, "about the same — ", "about the same, within 5%: ", 1)
	}
	a.Headline = lead + "."
	ordered := append(append(append(append([]premisePair{}, against...), tied...), pro...), unsure...)
	shown := ordered[:min(len(ordered), maxPremisePairs)]
	t := &Table{Columns: []string{"Cores", "SET:GET", "Value", "Pipeline", "Subject", metricHeader(metric), "Against", metricHeader(metric) + " ", "Premise"}}
	var rows []Row
	for _, pp := range shown {
		vx, _ := pp.subject.Metric(metric)
		vy, _ := pp.object.Metric(metric)
		mark := "holds"
		switch {
		case pp.unsure:
			mark = "floor: unsettled"
		case pp.tied:
			mark = "about the same"
		case !pp.holds:
			mark = "fails"
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(pp.subject.Cores), ratioShort(pp.subject.Ratio), formatValueBytes(pp.subject.ValueBytes), strconv.Itoa(pp.subject.Pipeline),
			shortSeries(pp.subject.Engine, pp.subject.Mode), cellValue(pp.subject, metric, vx), shortSeries(pp.object.Engine, pp.object.Mode), cellValue(pp.object, metric, vy), mark})
		rows = append(rows, pp.subject, pp.object)
	}
	rows = dedupeRows(rows)
	a.Body = append(a.Body, "The statement checked: "+pr.Statement+" — "+holds+".")
	a.Body = append(a.Body, "Pairs measured under the same cores, workload, value size and pipeline, where the premise fails first (medians across repetitions; single run where there was one):")
	if len(ordered) > len(shown) {
		a.Body = append(a.Body, "The table shows the first pairs; the filters below select every cell compared.")
	}
	a.Table = t
	a.Rows = rows
	a.PlainWords = sameWord(answerWord(verdict, ", "), pr.Same) + ": the measurements " + map[string]string{"Yes": "back the statement wherever both were measured", "No": "contradict the statement", "Partly": "back the statement in some settings and contradict it in others", "About the same": "show no real difference (within 5%)", "Undecided": "cannot settle it"}[verdict] + "."
	return evidence{rows: rows, caveats: caveatsFor(rows, metric)}
}

// answerWord is the verdict as the first words of the answer. The
// question asked whether one is ahead, so a tie answers it "No" before
// saying they are level ("No — about the same"); sep joins the two.
// sameWord is the answer to "are they about the same?": yes when they are.
func sameWord(word string, same bool) string {
	if rest, ok := strings.CutPrefix(word, "No"); same && ok && strings.Contains(rest, "about the same") {
		return "Yes" + rest
	}
	return word
}

func answerWord(verdict, sep string) string {
	if verdict == "About the same" {
		return "No" + sep + "about the same"
	}
	return verdict
}

// pairConditions are the conditions of a pair, saying when its two cells
// come from different capture sessions (another machine and date).
func pairConditions(pp premisePair) string {
	c := rowConditions(pp.subject)
	if pp.object.Session != pp.subject.Session {
		c += " against session " + strconv.Itoa(pp.object.Session) + " (different capture sessions: another machine and date)"
	}
	return c
}

func versus(pp premisePair, metric string) string {
	vx, _ := pp.subject.Metric(metric)
	vy, _ := pp.object.Metric(metric)
	s := shortSeries(pp.subject.Engine, pp.subject.Mode) + " has " + formatMetric(metric, vx, pp.subject.floorFor(metric)) + " against " + formatMetric(metric, vy, pp.object.floorFor(metric)) + " for " + shortSeries(pp.object.Engine, pp.object.Mode)
	if vx == 0 || vy == 0 || pp.tied || pp.unsure {
		return s
	}
	// How far apart, as the comparison answers say it; a floor ahead is
	// "at least" that far ahead.
	hi, lo, at := max(vx, vy), min(vx, vy), ""
	if pp.subject.floorFor(metric) && vx > vy {
		at = "at least "
	}
	if lowerIsBetter(metric) {
		return s + " (" + FormatRatio(hi/lo) + " " + map[bool]string{true: "lower", false: "higher"}[vx < vy] + ")"
	}
	if vx < vy {
		return s + " (" + FormatRatio(hi/lo) + " less)"
	}
	return s + " (" + at + FormatRatio(hi/lo) + ")"
}

func cellValue(r Row, metric string, v float64) string {
	s := metricCell(metric, v)
	if r.floorFor(metric) {
		s = "≥" + s
	}
	return s
}
