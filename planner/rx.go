package planner

import (
	"regexp"
	"regexp/syntax"
	"sync"
)

// rx is a pattern compiled on first use, with a literal gate: the
// literals every match must contain, so that when the text lacks them the
// (costly, backtracking) regexp is not run at all. Compiling lazily keeps
// planner.New cheap; a process that answers one question compiles only
// the patterns whose gates that question passes.
type rx struct {
	expr string
	once sync.Once
	prog *regexp.Regexp
	gate gate
	// alts are the top-level alternatives, each with its own gate: most
	// questions rule most alternatives out by a literal check, so only one
	// or two small patterns run to learn whether the whole pattern can
	// match at all (the Find methods run the whole pattern only then).
	alts []*rx
}

// newRx records a pattern; it is parsed and compiled on first use. A
// malformed pattern panics there, and the grammar tests use every one.
func newRx(expr string) *rx {
	return &rx{expr: expr}
}

// compiled returns the compiled pattern, compiling it (and its gates) on
// first use.
func (r *rx) compiled() *regexp.Regexp {
	r.once.Do(func() {
		r.prog = regexp.MustCompile(r.expr)
		parsed, err := syntax.Parse(r.expr, syntax.Perl)
		if err != nil {
			return
		}
		parsed = parsed.Simplify()
		r.gate = rarestFirst(required(parsed))
		if parsed.Op == syntax.OpAlternate && len(parsed.Sub) > 2 {
			for _, sub := range parsed.Sub {
				a := &rx{expr: sub.String(), gate: rarestFirst(required(sub))}
				a.once.Do(func() { a.prog = regexp.MustCompile(a.expr) })
				r.alts = append(r.alts, a)
			}
		}
	})
	return r.prog
}

// possible reports whether the pattern can match the text at all.
func (r *rx) possible(text string) bool {
	r.compiled()
	return r.gate.admits(text)
}

func (r *rx) MatchString(s string) bool {
	if !r.possible(s) {
		return false
	}
	if r.alts == nil {
		return r.prog.MatchString(s)
	}
	for _, a := range r.alts {
		if a.gate.admits(s) && a.prog.MatchString(s) {
			return true
		}
	}
	return false
}

// FindStringIndex is regexp's, behind the gate.
func (r *rx) FindStringIndex(s string) []int {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindStringIndex(s)
}

// FindStringSubmatchIndex is regexp's, behind the gate.
func (r *rx) FindStringSubmatchIndex(s string) []int {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindStringSubmatchIndex(s)
}

// FindAllStringIndex is regexp's, behind the gate.
func (r *rx) FindAllStringIndex(s string, n int) [][]int {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindAllStringIndex(s, n)
}

func (r *rx) FindString(s string) string {
	if !r.MatchString(s) {
		return ""
	}
	return r.prog.FindString(s)
}

func (r *rx) FindStringSubmatch(s string) []string {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindStringSubmatch(s)
}

func (r *rx) FindAllString(s string, n int) []string {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindAllString(s, n)
}

func (r *rx) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindAllStringSubmatch(s, n)
}

func (r *rx) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.MatchString(s) {
		return nil
	}
	return r.prog.FindAllStringSubmatchIndex(s, n)
}

func (r *rx) ReplaceAllString(s, repl string) string {
	if !r.MatchString(s) {
		return s
	}
	return r.prog.ReplaceAllString(s, repl)
}

func (r *rx) ReplaceAllStringFunc(s string, fn func(string) string) string {
	if !r.MatchString(s) {
		return s
	}
	return r.prog.ReplaceAllStringFunc(s, fn)
}
