package planner

import (
	"regexp"
	"slices"
	"strings"
)

// Engines are data: an engine is known to the reader because runs of it
// were imported (the store's coverage) or the knowledge base describes it,
// never because the code names it. The patterns spell the five measured so
// far; a planner over a store or knowledge base with others reads them too,
// with a grammar and lexicon of its own that add their names.

// fiveEngines are the engines the shared patterns spell.
var fiveEngines = []string{"dragonfly", "redis", "valkey", "keydb", "garnet"}

// otherEngineNames lists the spellings of engines beyond the five, by key:
// each imported engine's key, and each knowledge entry's key, name and
// aliases.
func otherEngineNames(cov Coverage, kb Knowledge) map[string]string {
	out := map[string]string{}
	add := func(spelling, key string) {
		sp := strings.ToLower(strings.TrimSpace(spelling))
		if sp == "" || slices.Contains(fiveEngines, key) || strings.ContainsAny(sp, "0123456789") && sp != key {
			return
		}
		out[sp] = key
	}
	if cov != nil {
		for _, c := range cov.Coverage() {
			add(c.Engine, c.Engine)
		}
	}
	if ek, ok := kb.(engineKnowledge); ok && kb != nil {
		for _, e := range ek.Engines() {
			add(e.Key, e.Key)
			add(e.Name, e.Key)
			for _, a := range e.Aliases {
				add(a, e.Key)
			}
		}
	}
	return out
}

// withEngines returns a grammar and lexicon that read the other engines'
// names as engines; the shared ones when there are none.
func withEngines(g *grammar, lx *lexicon, others map[string]string) (*grammar, *lexicon) {
	if len(others) == 0 {
		return g, lx
	}
	spellings := make([]string, 0, len(others))
	for sp := range others {
		spellings = append(spellings, sp)
	}
	// Longest first, so "redis stack" wins over a shorter name inside it.
	slices.SortFunc(spellings, func(a, b string) int { return len(b) - len(a) })
	quoted := make([]string, len(spellings))
	entries := make([]entry, len(spellings))
	for i, sp := range spellings {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(sp), " ", `\s+`)
		entries[i] = entry{strings.Join(strings.Fields(sp), " "), others[sp]}
	}
	own := *g
	own.otherEngines = others
	expr := g.engine.expr
	own.engine = newRx(strings.Replace(expr, `(`, `(`+strings.Join(quoted, "|")+`|`, 1))
	// "Pelikan 0.4": an imported engine's version is read as the five's are.
	own.version = newRx(strings.Replace(g.version.expr, `(`, `(`+strings.Join(quoted, "|")+`|`, 1))
	tables := append(lexiconTables(), table{meaning: mEngine, entries: entries})
	return &own, newLexicon(tables)
}
