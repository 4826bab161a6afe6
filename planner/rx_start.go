package planner

import "regexp/syntax"

// The matcher tries a match at every position of the text, and most of
// the grammar's patterns can only start at a few bytes (a digit for "16
// cores", a letter of their first words). startBytes are those bytes:
// the text before the first of them is skipped. The pattern runs from one
// byte before it, so that a \b or a ^ there sees the same neighbours as
// in the whole text; no match can start on that byte (it is not a start
// byte, and every match consumes one), so the matches found are the whole
// text's, shifted.

// startBytes is the set of bytes a match can start with; ok is false
// when it is not known, or a match may be empty.
type startBytes struct {
	set [4]uint64 // bit c: a match can start with byte c
	ok  bool
}

func (sb *startBytes) mark(c rune) { sb.set[c>>6] |= 1 << (c & 63) }

// union is the start bytes of a pattern that is an alternation of a and
// b.
func (sb startBytes) union(o startBytes) startBytes {
	for i := range sb.set {
		sb.set[i] |= o.set[i]
	}
	sb.ok = sb.ok && o.ok
	return sb
}

func newStartBytes(re *syntax.Regexp) startBytes {
	var sb startBytes
	nullable, known := sb.add(re)
	sb.ok = known && !nullable
	return sb
}

// add adds the bytes a match of re can start with and reports whether re
// can match the empty string; known is false when a start byte cannot be
// told (a class beyond ASCII, any character, case folding).
func (sb *startBytes) add(re *syntax.Regexp) (nullable, known bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return true, true
		}
		if re.Flags&syntax.FoldCase != 0 || re.Rune[0] >= 0x80 {
			return false, false
		}
		sb.mark(re.Rune[0])
		return false, true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= 0x80 {
				return false, false
			}
			for c := lo; c <= hi; c++ {
				sb.mark(c)
			}
		}
		return false, true
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpBeginLine, syntax.OpEndLine:
		return true, true
	case syntax.OpCapture, syntax.OpPlus:
		return sb.add(re.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		_, known := sb.add(re.Sub[0])
		return true, known
	case syntax.OpRepeat:
		nullable, known := sb.add(re.Sub[0])
		return nullable || re.Min == 0, known
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			nullable, known := sb.add(sub)
			if !known {
				return false, false
			}
			if !nullable {
				return false, true
			}
		}
		return true, true
	case syntax.OpAlternate:
		nullable := false
		for _, sub := range re.Sub {
			n, known := sb.add(sub)
			if !known {
				return false, false
			}
			nullable = nullable || n
		}
		return nullable, true
	}
	return false, false
}

// from is where the pattern must run on s from: one byte before the
// first start byte (0 when that is s's first byte, or the start bytes are
// not known); skip reports that s holds no start byte, so no match.
func (sb *startBytes) from(s string) (at int, skip bool) {
	if !sb.ok {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; sb.set[c>>6]&(1<<(c&63)) != 0 {
			return max(i-1, 0), false
		}
	}
	return 0, true
}

// shifted adds at to every index of a match found in s[at:].
func shifted(m []int, at int) []int {
	if at == 0 {
		return m
	}
	for i, v := range m {
		if v >= 0 {
			m[i] = v + at
		}
	}
	return m
}
