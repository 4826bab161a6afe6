package compose

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// crossoverText answers "when does X overtake Y": for each series of the
// subject (the engine of the plan's first query) against each other
// series, the first core count where it passes, whether it stays ahead at
// every larger core count measured, or that the lines never cross — read
// from the rows, never interpolated between core counts.
func crossoverText(results []queryResult, metric string) (headline, plain string, ok bool) {
	subj, others := multipleSubject(results)
	var sentences []string
	floors := false
	for _, a := range seriesGroups(subj, "cores") {
		for _, b := range seriesGroups(others, "cores") {
			s, p := crossSentence(a, b, metric)
			if s == "" {
				continue
			}
			if p != "" && a[0].Session != b[0].Session {
				p = strings.TrimSuffix(p, ".") + ", though in separate capture sessions."
			}
			sentences = append(sentences, s)
			if plain == "" {
				plain = p
			}
			if (metric == "ops_per_sec" || metric == "ops_per_core") && floorTrails(a, b, metric) {
				floors = true
			}
		}
	}
	if len(sentences) == 0 {
		return "", "", false
	}
	if floors {
		sentences = append(sentences, "Garnet's figures are floors (client-limited): where Garnet trails, its real throughput may be higher, so only the core counts where Garnet is ahead are settled.")
	}
	return strings.Join(sentences, " "), capitalise(plain), true
}

// crossSentence compares two series core count by core count.
func crossSentence(a, b []Row, metric string) (sentence, plain string) {
	common, ra, rb, lead := coreLeads(a, b, metric)
	an, bn := a[0].Series, b[0].Series
	if len(common) == 0 {
		return fmt.Sprintf("%s and %s were never measured at the same core count, so their lines cannot be compared.", an, bn), ""
	}
	lower := lowerIsBetter(metric)
	vals := func(c int) string {
		va, _ := ra[c].Metric(metric)
		vb, _ := rb[c].Metric(metric)
		fl := metric == "ops_per_sec" || metric == "ops_per_core"
		return formatMetric(metric, va, fl && ra[c].Floor) + " against " + formatMetric(metric, vb, fl && rb[c].Floor)
	}
	aheadOf, ahead, behind, passes := "ahead of", "ahead", "behind", "passes"
	if lower {
		aheadOf, ahead, behind, passes = "lower in "+metricWords(metric)+" than", "lower", "higher", "drops below"
	}
	cross := ""
	if a[0].Session != b[0].Session {
		cross = fmt.Sprintf(" This sets session %d against session %d (different machines, date and client box).", a[0].Session, b[0].Session)
	}
	first, last := common[0], common[len(common)-1]
	idx := func(from int, want func(int) bool) int {
		for i := from; i < len(common); i++ {
			if want(lead(common[i])) {
				return i
			}
		}
		return -1
	}
	positive := func(l int) bool { return l > 0 }
	notPositive := func(l int) bool { return l <= 0 }
	pa, pb := plainSeries(a[0]), plainSeries(b[0])
	// did is the plain verb phrase: did(true) "did more work than".
	did := func(better bool) string {
		switch {
		case lower && better:
			return "had a lower " + metricWords(metric) + " than"
		case lower:
			return "had a higher " + metricWords(metric) + " than"
		case better:
			return "did more work than"
		}
		return "did less work than"
	}
	if lead(first) > 0 {
		j := idx(0, notPositive)
		if j < 0 {
			return fmt.Sprintf("%s is already %s %s at %d cores, the fewest measured together, and stays %s at every core count measured (at %d cores: %s), so there is no crossover.%s",
				an, aheadOf, bn, first, ahead, last, vals(last), cross), fmt.Sprintf("at every core count measured, %s %s %s.", pa, did(true), pb)
		}
		s := fmt.Sprintf("%s is %s %s at %s, but falls %s at %d cores (%s)", an, aheadOf, bn, coreList(common[:j]), behind, common[j], vals(common[j]))
		if k := idx(j, positive); k < 0 {
			if j < len(common)-1 {
				s += fmt.Sprintf(" and stays %s at every larger core count measured (at %d cores: %s)", behind, last, vals(last))
			}
			s += "."
			then := "less"
			if lower {
				then = "a higher one"
			}
			plain = fmt.Sprintf("%s %s %s up to %s, and %s from %d cores on.", pa, did(true), pb, coreList(common[j-1:j]), then, common[j])
		} else {
			s += fmt.Sprintf("; it is %s again at %d cores (%s).", ahead, common[k], vals(common[k]))
		}
		return s + cross, plain
	}
	i := idx(0, positive)
	if i < 0 {
		return fmt.Sprintf("%s never %s %s: it is %s at every core count measured together (at %d cores, the most: %s).%s",
			an, passes, bn, behind, last, vals(last), cross), fmt.Sprintf("at every core count measured, %s %s %s.", pa, did(false), pb)
	}
	s := fmt.Sprintf("%s first %s %s at %d cores (%s)", an, passes, bn, common[i], vals(common[i]))
	switch k := idx(i, notPositive); {
	case i == len(common)-1:
		s += fmt.Sprintf(" — the most cores measured together, so whether it stays %s is not known.", ahead)
	case k < 0:
		s += fmt.Sprintf(" and stays %s at every larger core count measured (%s).", ahead, coreList(common[i+1:]))
	default:
		s += fmt.Sprintf(", but falls %s again at %d cores (%s)", behind, common[k], vals(common[k]))
		if lead(last) > 0 {
			s += fmt.Sprintf("; at %d cores, the most measured together, it is %s again (%s).", last, ahead, vals(last))
		} else {
			s += "."
		}
	}
	plain = fmt.Sprintf("as cores are added, %s first %s %s at %d cores.", pa, did(true), pb, common[i])
	return s + cross, plain
}

// coreLeads sets two series side by side at the core counts both were
// measured at (common, in order): their rows there, and whether a leads
// (1), trails (−1) or ties (0) b at a core count, in the metric's better
// direction.
func coreLeads(a, b []Row, metric string) (common []int, ra, rb map[int]Row, lead func(int) int) {
	at := func(g []Row) map[int]Row {
		m := map[int]Row{}
		for _, r := range g {
			if _, ok := r.Metric(metric); ok {
				m[r.Cores] = r
			}
		}
		return m
	}
	ra, rb = at(a), at(b)
	for c := range ra {
		if _, ok := rb[c]; ok {
			common = append(common, c)
		}
	}
	slices.Sort(common)
	lead = func(c int) int {
		va, _ := ra[c].Metric(metric)
		vb, _ := rb[c].Metric(metric)
		if lowerIsBetter(metric) {
			return cmp.Compare(vb, va)
		}
		return cmp.Compare(va, vb)
	}
	return common, ra, rb, lead
}

// floorTrails reports whether a floor series (Garnet) is below the other
// series at some core count both have, where its real figure may be higher.
func floorTrails(a, b []Row, metric string) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Cores != y.Cores {
				continue
			}
			vx, _ := x.Metric(metric)
			vy, _ := y.Metric(metric)
			if x.Floor && vx < vy || y.Floor && vy < vx {
				return true
			}
		}
	}
	return false
}

// coreList renders core counts for prose: "24 and 48 cores".
func coreList(cores []int) string {
	parts := make([]string, len(cores))
	for i, c := range cores {
		parts[i] = strconv.Itoa(c)
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0] + " cores"
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " cores"
}
