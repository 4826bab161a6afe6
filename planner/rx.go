package planner

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// rx is a compiled pattern with a literal gate: every match must start with
// one of lits, so when the text holds none of them the (costly) regexp is
// not run at all. lits is nil when the pattern has no such prefix set.
type rx struct {
	re   *regexp.Regexp
	lits []string
	// alts are the top-level alternatives, each with its own gate: most
	// questions rule most alternatives out by a literal check, so only one
	// or two small patterns run to learn whether the whole pattern can
	// match at all (the Find methods run the whole pattern only then).
	alts []*rx
}

// newRx compiles a pattern and derives its gates.
func newRx(expr string) *rx {
	r := &rx{re: regexp.MustCompile(expr), lits: literalGate(expr)}
	if parsed, err := syntax.Parse(expr, syntax.Perl); err == nil {
		if parsed = parsed.Simplify(); parsed.Op == syntax.OpAlternate && len(parsed.Sub) > 2 {
			for _, sub := range parsed.Sub {
				src := sub.String()
				r.alts = append(r.alts, &rx{re: regexp.MustCompile(src), lits: literalGate(src)})
			}
		}
	}
	return r
}

// possible reports whether the pattern can match the text at all.
func (r *rx) possible(text string) bool {
	if r.lits == nil {
		return true
	}
	for _, l := range r.lits {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}

func (r *rx) MatchString(s string) bool {
	if !r.possible(s) {
		return false
	}
	if r.alts == nil {
		return r.re.MatchString(s)
	}
	for _, a := range r.alts {
		if a.possible(s) && a.re.MatchString(s) {
			return true
		}
	}
	return false
}

func (r *rx) FindString(s string) string {
	if !r.MatchString(s) {
		return ""
	}
	return r.re.FindString(s)
}

func (r *rx) FindStringSubmatch(s string) []string {
	if !r.MatchString(s) {
		return nil
	}
	return r.re.FindStringSubmatch(s)
}

func (r *rx) FindAllString(s string, n int) []string {
	if !r.MatchString(s) {
		return nil
	}
	return r.re.FindAllString(s, n)
}

func (r *rx) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.MatchString(s) {
		return nil
	}
	return r.re.FindAllStringSubmatch(s, n)
}

func (r *rx) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.MatchString(s) {
		return nil
	}
	return r.re.FindAllStringSubmatchIndex(s, n)
}

func (r *rx) ReplaceAllString(s, repl string) string {
	if !r.MatchString(s) {
		return s
	}
	return r.re.ReplaceAllString(s, repl)
}

func (r *rx) ReplaceAllStringFunc(s string, fn func(string) string) string {
	if !r.MatchString(s) {
		return s
	}
	return r.re.ReplaceAllStringFunc(s, fn)
}

// literalGate returns the literal strings one of which every match starts
// with, or nil when the pattern has no such set (an optional or class
// start).
func literalGate(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return prefixes(re.Simplify())
}

func prefixes(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture:
		return prefixes(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			p := prefixes(sub)
			if p == nil {
				return nil
			}
			out = append(out, p...)
		}
		return out
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpEndLine,
				syntax.OpBeginText, syntax.OpEndText, syntax.OpEmptyMatch:
				continue
			}
			return prefixes(sub)
		}
		return nil
	case syntax.OpCharClass:
		// A small class ([12], [-_ ]) is a set of one-letter prefixes.
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 3 || len(out) > 6 {
				return nil
			}
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				out = append(out, string(c))
			}
		}
		return out
	}
	return nil
}
