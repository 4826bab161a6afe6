package bot

import (
	"cmp"
	"slices"
)

// EngineCoverage is what was measured of one engine, counted from the
// measured cells: a summary of the data for surfaces that introduce the
// bot (Slack's Home tab).
type EngineCoverage struct {
	Name      string // as the knowledge base names it ("Dragonfly")
	Runs      int    // measured runs, repetitions included
	Sessions  []int  // capture sessions it was measured in
	Cores     []int  // core counts measured, ascending
	Pipelines []int  // pipeline depths measured, ascending
}

// CoverageByEngine summarises the measured runs per engine, in the
// knowledge base's order of engines (an engine it does not describe
// follows, by its run key).
func (d *Dataset) CoverageByEngine() []EngineCoverage {
	byKey := map[string]*EngineCoverage{}
	var keys []string
	for _, c := range d.store.Cells() {
		e := byKey[c.Engine]
		if e == nil {
			e = &EngineCoverage{Name: c.Engine}
			if k, ok := d.kb.Engine(c.Engine); ok && k.Name != "" {
				e.Name = k.Name
			}
			byKey[c.Engine] = e
			keys = append(keys, c.Engine)
		}
		e.Runs += len(c.RunIDs)
		e.Sessions = insertSorted(e.Sessions, c.Session)
		e.Cores = insertSorted(e.Cores, c.Cores)
		e.Pipelines = insertSorted(e.Pipelines, c.Pipeline)
	}
	rank := map[string]int{}
	for i, e := range d.kb.Engines() {
		rank[e.Key] = i + 1
	}
	slices.SortFunc(keys, func(a, b string) int {
		ra, rb := rank[a], rank[b]
		switch {
		case ra != 0 && rb != 0:
			return cmp.Compare(ra, rb)
		case ra != 0:
			return -1
		case rb != 0:
			return 1
		}
		return cmp.Compare(a, b)
	})
	out := make([]EngineCoverage, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// insertSorted adds v to an ascending list unless it is there.
func insertSorted(list []int, v int) []int {
	i, found := slices.BinarySearch(list, v)
	if found {
		return list
	}
	return slices.Insert(list, i, v)
}
