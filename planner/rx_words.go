package planner

import (
	"regexp/syntax"
	"slices"
)

// wordSet matches, without a regexp, a pattern that is an alternation of
// finite sets of strings, each maybe between word boundaries:
// `\bcores?\b|\bcpus?\b|\bshards?\b`. Such patterns are the grammar's most
// common shape and Go's backtracking matcher tries them at every position
// of the text; here a position is tried only when its byte can start a
// match. Matches are what the regexp finds: leftmost, then the first
// alternative in the pattern's order (a greedy "s?" tries "s" first),
// successive matches not overlapping.
type wordSet struct {
	alts  []wordAlt
	first [256]bool // bytes a match can start with
	// group is set when capture group 1 wraps the whole match (the only
	// group allowed).
	group bool
}

// wordAlt is one alternative: its strings in the order the regexp tries
// them, and whether a word boundary must stand before and after.
type wordAlt struct {
	lits        []string
	lead, trail bool
	// rest is a trailing \w*: the match runs on to the end of the word
	// ("pipelin" + "ing").
	rest bool
}

// maxWordLiterals bounds the strings one pattern expands to.
const maxWordLiterals = 64

// newWordSet derives the matcher of a simplified pattern with groups
// capture groups, or nil when the pattern has another shape.
func newWordSet(re *syntax.Regexp, groups int) *wordSet {
	ws := &wordSet{}
	body := re
	if groups == 1 {
		// `\b(redis|valkey)\b`: the group must wrap all the rest.
		alt, ok := wordAlternative(re, true)
		if !ok {
			return nil
		}
		ws.group = true
		ws.alts = []wordAlt{alt}
	} else if groups == 0 {
		subs := []*syntax.Regexp{body}
		if body.Op == syntax.OpAlternate {
			subs = body.Sub
		}
		for _, sub := range subs {
			alt, ok := wordAlternative(sub, false)
			if !ok {
				return nil
			}
			ws.alts = append(ws.alts, alt)
		}
	} else {
		return nil
	}
	n := 0
	for _, a := range ws.alts {
		n += len(a.lits)
		for _, l := range a.lits {
			ws.first[l[0]] = true
		}
	}
	if n > maxWordLiterals {
		return nil
	}
	return ws
}

// wordAlternative reads `\b` body `\b` (either boundary optional); with
// capture, body must be one capture group.
func wordAlternative(re *syntax.Regexp, capture bool) (wordAlt, bool) {
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	var alt wordAlt
	if len(parts) > 0 && parts[0].Op == syntax.OpWordBoundary {
		alt.lead, parts = true, parts[1:]
	}
	if len(parts) > 0 && parts[len(parts)-1].Op == syntax.OpWordBoundary {
		alt.trail, parts = true, parts[:len(parts)-1]
	} else if len(parts) > 1 && isWordRun(parts[len(parts)-1]) {
		alt.rest, parts = true, parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return alt, false
	}
	if capture {
		if len(parts) != 1 || parts[0].Op != syntax.OpCapture {
			return alt, false
		}
		parts = parts[0].Sub
	}
	lits := []string{""}
	for _, p := range parts {
		next, ok := expand(p)
		if !ok {
			return alt, false
		}
		lits = product(lits, next)
		if len(lits) > maxWordLiterals {
			return alt, false
		}
	}
	for _, l := range lits {
		if l == "" || !spaceRunsSettled(l) || !wordRunsSettled(l) {
			return alt, false // an empty match, or a run to backtrack over: leave it to the regexp
		}
	}
	alt.lits = lits
	return alt, true
}

// expand lists the strings a capture-free pattern matches, in the order a
// backtracking matcher tries them; ok is false for an infinite or large
// set, or another shape.
func expand(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, 0) {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpStar:
		if isSpaceRun(re) {
			return []string{spaceRun}, true
		}
		return nil, false
	case syntax.OpPlus:
		if re.Flags&syntax.NonGreedy == 0 && isWordClass(re.Sub[0]) {
			return []string{wordRun}, true
		}
		return nil, false
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= 0x80 || re.Rune[i+1]-re.Rune[i] > 10 {
				return nil, false
			}
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				out = append(out, string(c))
			}
		}
		return out, len(out) > 0 && len(out) <= 12
	case syntax.OpQuest:
		sub, ok := expand(re.Sub[0])
		if !ok {
			return nil, false
		}
		if re.Flags&syntax.NonGreedy != 0 {
			return append([]string{""}, sub...), true
		}
		return append(sub, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			sub, ok := expand(s)
			if !ok {
				return nil, false
			}
			out = append(out, sub...)
		}
		return out, len(out) <= maxWordLiterals
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			sub, ok := expand(s)
			if !ok {
				return nil, false
			}
			if out = product(out, sub); len(out) > maxWordLiterals {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// spaceRun stands in a literal for a greedy \s*.
const spaceRun = "\x00"

// wordRun stands in a literal for a greedy \w+.
const wordRun = "\x01"

// wordRunsSettled reports that every run of word characters in l follows
// a character and is followed by none, or by one that is no word
// character: taking the whole word is then the only way to match ("best
// p\w+"), nothing to backtrack over.
func wordRunsSettled(l string) bool {
	for i := 0; i < len(l); i++ {
		if l[i] != 1 {
			continue
		}
		if i == 0 || i+1 < len(l) && (l[i+1] == 1 || isASCIIWord(l[i+1])) {
			return false
		}
	}
	return true
}

// isSpaceRun reports a greedy \s*.
func isSpaceRun(re *syntax.Regexp) bool {
	if re.Op != syntax.OpStar || re.Flags&syntax.NonGreedy != 0 || re.Sub[0].Op != syntax.OpCharClass {
		return false
	}
	return slices.Equal(re.Sub[0].Rune, []rune{'\t', '\n', '\f', '\r', ' ', ' '})
}

// isSpace is \s.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// spaceRunsSettled reports that every run of spaces in l stands between
// two characters and is followed by one that is not a space: taking every
// space is then the only way to match ("dragonfly\s*db"), nothing to
// backtrack over.
func spaceRunsSettled(l string) bool {
	for i := 0; i < len(l); i++ {
		if l[i] != 0 {
			continue
		}
		if i == 0 || i+1 == len(l) || l[i+1] == 0 || isSpace(l[i+1]) {
			return false
		}
	}
	return true
}

// prefixAt returns the end of l (its runs of spaces taken whole) matched
// at s[i:], or -1.
func prefixAt(s string, i int, l string) int {
	j := i
	for k := 0; k < len(l); k++ {
		if l[k] == 1 {
			if j >= len(s) || !isASCIIWord(s[j]) {
				return -1
			}
			for j < len(s) && isASCIIWord(s[j]) {
				j++
			}
			continue
		}
		if l[k] == 0 {
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			continue
		}
		if j >= len(s) || s[j] != l[k] {
			return -1
		}
		j++
	}
	return j
}

// isWordRun reports a greedy \w*.
func isWordRun(re *syntax.Regexp) bool {
	return re.Op == syntax.OpStar && re.Flags&syntax.NonGreedy == 0 && isWordClass(re.Sub[0])
}

// isWordClass reports \w.
func isWordClass(re *syntax.Regexp) bool {
	return re.Op == syntax.OpCharClass && slices.Equal(re.Rune, []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'})
}

// product is every a followed by every b, in order.
func product(as, bs []string) []string {
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// isASCIIWord reports an ASCII word character as \b sees it: a byte of a
// multi-byte rune is not one (no such rune is a word character).
func isASCIIWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// boundary reports \b at byte i of s.
func boundary(s string, i int) bool {
	before := i > 0 && isASCIIWord(s[i-1])
	after := i < len(s) && isASCIIWord(s[i])
	return before != after
}

// at returns the end of the match starting at i, or -1.
func (ws *wordSet) at(s string, i int) int {
	for _, a := range ws.alts {
		if a.lead && !boundary(s, i) {
			continue
		}
		for _, l := range a.lits {
			end := prefixAt(s, i, l)
			if end < 0 || a.trail && !boundary(s, end) {
				continue
			}
			for a.rest && end < len(s) && isASCIIWord(s[end]) {
				end++
			}
			return end
		}
	}
	return -1
}

// next returns the leftmost match at or after from.
func (ws *wordSet) next(s string, from int) (start, end int) {
	for i := from; i < len(s); i++ {
		if !ws.first[s[i]] {
			continue
		}
		if e := ws.at(s, i); e >= 0 {
			return i, e
		}
	}
	return -1, -1
}

// match reports whether s holds a match.
func (ws *wordSet) match(s string) bool {
	a, _ := ws.next(s, 0)
	return a >= 0
}

// first1 is the leftmost match's indices (with the group's when
// groups), or nil.
func (ws *wordSet) first1(s string, groups bool) []int {
	if m := ws.findAll(s, 1, groups); m != nil {
		return m[0]
	}
	return nil
}

// findAll returns up to n (all when n < 0) successive matches as regexp's
// FindAllStringSubmatchIndex (groups) or FindAllStringIndex does.
func (ws *wordSet) findAll(s string, n int, groups bool) [][]int {
	if ws == nil {
		return nil // the gate ruled every match out
	}
	var out [][]int
	for from := 0; n < 0 || len(out) < n; {
		a, b := ws.next(s, from)
		if a < 0 {
			break
		}
		m := []int{a, b}
		if groups && ws.group {
			m = append(m, a, b)
		}
		out = append(out, m)
		from = b
	}
	return out
}
