package planner

import (
	"cmp"
	"regexp/syntax"
	"slices"
	"strings"
)

// gate is a necessary condition for a pattern to match, derived from its
// syntax: every group must have one of its literals somewhere in the text.
// A nil gate admits everything. It is far cheaper to check than running
// the pattern, and most patterns of the grammar fail it on most questions
// ("--pipeline 16" needs "-p", "4:1" needs ":", "p99" needs a digit).
type gate [][]literal

// literals are a gate being derived: groups of strings.
type literals [][]string

// literal is one string of a gate with the byte pairs it holds, which
// rule it out of most texts by a bit test (textIndex).
type literal struct {
	s     string
	pairs []uint16
}

func newLiteral(s string) literal {
	l := literal{s: s}
	for i := 0; i+1 < len(s); i++ {
		if h := pairHash(s[i], s[i+1]); !slices.Contains(l.pairs, h) {
			l.pairs = append(l.pairs, h)
		}
	}
	return l
}

// maxGroupLiterals bounds a group: a gate that needs dozens of checks to
// pass saves little over the pattern itself.
const maxGroupLiterals = 48

// admits reports whether the text holds a literal of every group.
func (g gate) admits(text string) bool {
	if len(g) == 0 {
		return true
	}
	return g.admitsIn(indexOf(text))
}

// admitsIn is admits over the text's index.
func (g gate) admitsIn(ix *textIndex) bool {
	for _, group := range g {
		if !ix.containsAny(group) {
			return false
		}
	}
	return true
}

func (ix *textIndex) containsAny(group []literal) bool {
	for i := range group {
		l := &group[i]
		if len(l.s) == 1 {
			if ix.bytes[l.s[0]>>6]&(1<<(l.s[0]&63)) != 0 {
				return true
			}
			continue
		}
		if ix.hasPairs(l.pairs) && strings.Contains(ix.text, l.s) {
			return true
		}
	}
	return false
}

// required derives the gate of a simplified pattern: literals and small
// character classes every match must contain.
func required(re *syntax.Regexp) literals {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return literals{{string(re.Rune)}}
	case syntax.OpCharClass:
		if cls := classLiterals(re.Rune); cls != nil {
			return literals{cls}
		}
		return nil
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Pieces side by side that each match one of a few strings make
		// one group of their products: "-" then "d|-data-size" needs
		// "-d" (or "--data-size"), where the pieces alone need only a
		// "-" and a "d", which most questions hold.
		var out literals
		run := []string{""}
		fromEndings := false // run is a piece's endings, not yet followed by anything
		flush := func() {
			if (len(run) > 1 || run[0] != "") && !fromEndings {
				if !slices.Contains(run, "") {
					out = append(out, dropCovered(run))
				}
			}
			run, fromEndings = []string{""}, false
		}
		for _, sub := range re.Sub {
			if set, ok := exactSet(sub); ok && len(run)*len(set) <= maxGroupLiterals {
				run = product(run, set)
				fromEndings = fromEndings && slices.Equal(set, []string{""})
				continue
			}
			if set, ok := repeatedSet(sub); ok {
				// "at\s+(\d+)": the first of the repeats follows the
				// piece before, the last precedes the piece after.
				if len(run)*len(set) <= maxGroupLiterals {
					run = product(run, set)
					fromEndings = false
				}
				flush()
				run = set
				continue
			}
			flush()
			if set, ok := exactSet(sub); ok {
				run = set // too many products: start again from this piece
				continue
			}
			out = append(out, required(sub)...)
			if set, ok := endings(sub); ok {
				// "(?:\?|;|\s+and)\s+what": the piece ends in one of a few
				// strings, which the pieces after it follow; alone they add
				// nothing its own groups do not say.
				run, fromEndings = set, true
			}
		}
		flush()
		return out
	case syntax.OpAlternate:
		// A match satisfies one alternative: each must offer a group, and
		// the union of those groups is required.
		var union []string
		for _, sub := range re.Sub {
			best := selective(required(sub))
			if best == nil {
				return nil
			}
			union = append(union, best...)
		}
		if len(union) > maxGroupLiterals {
			return nil
		}
		return literals{dropCovered(union)}
	}
	return nil
}

// endings lists strings one of which every match of a pattern ends with,
// when they are few and none is empty; ok is false otherwise. A string
// that ends with another of the set is dropped: the shorter says as much.
func endings(re *syntax.Regexp) (set []string, ok bool) {
	if set, ok = exactSet(re); !ok {
		set, ok = endingsOf(re)
	}
	if !ok || slices.Contains(set, "") {
		return nil, false
	}
	var out []string
	for i, s := range set {
		if !slices.ContainsFunc(set[:i], func(o string) bool { return strings.HasSuffix(s, o) }) &&
			!slices.ContainsFunc(set[i+1:], func(o string) bool { return o != s && strings.HasSuffix(s, o) }) {
			out = append(out, s)
		}
	}
	return out, len(out) <= maxGroupLiterals
}

// endingsOf is endings for a pattern that is no exact set.
func endingsOf(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return endings(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return endings(re.Sub[0])
		}
	case syntax.OpConcat:
		// The last piece that holds a byte; empty-width ones after it
		// (\b, $) end nothing.
		for i := len(re.Sub) - 1; i >= 0; i-- {
			if s, exact := exactSet(re.Sub[i]); !exact || !slices.Equal(s, []string{""}) {
				return endings(re.Sub[i])
			}
		}
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			next, ok := endings(sub)
			if !ok {
				return nil, false
			}
			set = append(set, next...)
		}
		return set, true
	}
	return nil, false
}

// repeatedSet is the exact set of a piece repeated at least once (x+,
// x{2,}), maybe inside a group.
func repeatedSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return repeatedSet(re.Sub[0])
	case syntax.OpPlus:
		return exactSet(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return exactSet(re.Sub[0])
		}
	}
	return nil, false
}

// exactSet lists the strings a pattern matches when they are few (a
// literal, a small class, an optional or alternative of those); ok is
// false otherwise. Empty-width assertions match "" (they hold no byte).
func exactSet(re *syntax.Regexp) (set []string, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		cls := classLiterals(re.Rune)
		return cls, cls != nil
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpBeginLine, syntax.OpEndLine:
		return []string{""}, true
	case syntax.OpCapture:
		return exactSet(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := exactSet(re.Sub[0])
		if !ok || len(sub)+1 > maxGroupLiterals {
			return nil, false
		}
		return append(sub, ""), true
	case syntax.OpConcat:
		set = []string{""}
		for _, sub := range re.Sub {
			next, ok := exactSet(sub)
			if !ok || len(set)*len(next) > maxGroupLiterals {
				return nil, false
			}
			set = product(set, next)
		}
		return set, true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			next, ok := exactSet(sub)
			if !ok || len(set)+len(next) > maxGroupLiterals {
				return nil, false
			}
			set = append(set, next...)
		}
		return set, true
	}
	return nil, false
}

// classLiterals lists a small class's characters as one-byte literals
// ([0-9], [12], [-_ ]), or nil for a large or non-ASCII class.
func classLiterals(ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi >= 0x80 || hi-lo > 10 {
			return nil
		}
		for c := lo; c <= hi; c++ {
			out = append(out, string(c))
		}
		if len(out) > 12 {
			return nil
		}
	}
	return out
}

// selective picks the group of a gate that rules out the most texts: the
// one whose shortest literal is longest, then the one with fewest.
func selective(g literals) []string {
	var best []string
	bestLen := 0
	for _, group := range g {
		shortest := len(group[0])
		for _, l := range group {
			shortest = min(shortest, len(l))
		}
		if best == nil || shortest > bestLen || shortest == bestLen && len(group) < len(best) {
			best, bestLen = group, shortest
		}
	}
	return best
}

// dropCovered removes literals that contain another literal of the group:
// "cores" is found whenever "core" is.
func dropCovered(lits []string) []string {
	out := lits[:0:0]
	for i, l := range lits {
		covered := false
		for j, o := range lits {
			if i != j && strings.Contains(l, o) && (len(o) < len(l) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, l)
		}
	}
	return out
}

// rarestFirst orders a gate's groups so the cheapest to rule a text out
// (the fewest literals, then the longest shortest one) is checked first,
// and drops repeated groups ("\d+:\d+" needs a digit once).
func rarestFirst(sets literals) gate {
	shortest := func(group []string) int {
		n := len(group[0])
		for _, l := range group {
			n = min(n, len(l))
		}
		return n
	}
	var kept literals
	for _, group := range sets {
		if !slices.ContainsFunc(kept, func(o []string) bool { return slices.Equal(o, group) }) {
			kept = append(kept, group)
		}
	}
	// A group that fails costs a test of each of its literals: the
	// fewest first, then the likeliest to fail.
	slices.SortStableFunc(kept, func(a, b []string) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(shortest(b), shortest(a)))
	})
	var out gate
	for _, group := range kept {
		lits := make([]literal, len(group))
		for i, s := range group {
			lits[i] = newLiteral(s)
		}
		out = append(out, lits)
	}
	return out
}
