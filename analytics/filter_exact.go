package analytics

import (
	"slices"
	"strconv"
	"strings"
)

// Most filters the bot runs name one cell or a few: the knowledge base's
// counter-queries (about a hundred, all computed on a data directory's
// first use) and most of the planner's. Such a filter — nothing but
// `cell field == literal` conditions joined by && — needs no expr program:
// it is its pins, and a run or cell matches when every pin holds. Compiling
// it through expr costs 40–60 µs; reading it here a microsecond.

// maxExactPins bounds the conditions an exact filter may have, so that it
// stays far below MaxFilterNodes (a longer one is checked by expr, which
// refuses it the same way it refuses any other).
const maxExactPins = 16

// exactPins reads a filter that is exactly a conjunction of `cell field ==
// literal` conditions and returns its pins in order. Anything else — other
// operators or fields, parentheses, `and`, a literal of another form than
// a plain double-quoted text or a plain whole number — is false and left to
// expr, so every filter read here is one expr would compile and evaluate
// to the same answer on every run.
func exactPins(text string) ([]pin, bool) {
	var pins []pin
	s := text
	for {
		s = skipFilterSpace(s)
		field, rest := leadingWord(s)
		if !slices.Contains(pinFields, field) {
			return nil, false
		}
		s = skipFilterSpace(rest)
		if !strings.HasPrefix(s, "==") {
			return nil, false
		}
		s = skipFilterSpace(s[2:])
		p := pin{field: field}
		var ok bool
		if isTextCellField(field) {
			p.text, s, ok = plainText(s)
		} else {
			p.num, s, ok = plainWhole(s)
		}
		if !ok || len(pins) == maxExactPins {
			return nil, false
		}
		pins = append(pins, p)
		s = skipFilterSpace(s)
		if s == "" {
			return pins, true
		}
		if !strings.HasPrefix(s, "&&") {
			return nil, false
		}
		s = s[2:]
	}
}

func skipFilterSpace(s string) string {
	return strings.TrimLeft(s, " \t\n")
}

// leadingWord splits off the identifier s starts with ("" when none).
func leadingWord(s string) (word, rest string) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return s[:i], s[i:]
}

// plainText reads a double-quoted literal of printable ASCII without
// escapes, whose value is exactly what is between the quotes.
func plainText(s string) (string, string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return s[1:i], s[i+1:], true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return "", s, false
		}
	}
	return "", s, false
}

// plainWhole reads a decimal whole number of at most nine digits without
// sign, leading zero, separator, fraction or exponent; the character after
// it must end the literal.
func plainWhole(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 || i > 1 && s[0] == '0' {
		return 0, s, false
	}
	if i < len(s) && !strings.ContainsRune(" \t\n&", rune(s[i])) {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	return n, s[i:], err == nil
}

// compileExact is the Filter for a filter exactPins reads, with its shape
// known: every field it reads is a cell field, and its pins are its own.
func compileExact(text string) (*Filter, bool) {
	pins, ok := exactPins(text)
	if !ok {
		return nil, false
	}
	f := &Filter{text: text, exact: pins}
	f.shapeOnce.Do(func() { f.shape = filterShape{cellOnly: true, pins: pins} })
	return f, true
}

// matchExact says whether every pin holds for env.
func matchExact(pins []pin, env *runEnv) bool {
	for _, p := range pins {
		var ok bool
		switch p.field {
		case "session":
			ok = env.Session == p.num
		case "engine":
			ok = env.Engine == p.text
		case "mode":
			ok = env.Mode == p.text
		case "cores":
			ok = env.Cores == p.num
		case "ratio":
			ok = env.Ratio == p.text
		case "value_bytes":
			ok = env.ValueBytes == p.num
		case "pipeline":
			ok = env.Pipeline == p.num
		}
		if !ok {
			return false
		}
	}
	return true
}
