package planner

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
)

// rx is a pattern compiled on first use, with a literal gate: the
// literals every match must contain, so that when the text lacks them the
// (costly, backtracking) regexp is not run at all. Compiling lazily keeps
// planner.New cheap; a process that answers one question compiles only
// the patterns whose gates that question passes.
type rx struct {
	expr     string
	once     sync.Once // parse: the gates
	progOnce sync.Once // the whole pattern
	prog     *regexp.Regexp
	gate     gate
	// alts are the gates of the top-level alternatives. Most questions
	// rule most alternatives out by a literal check; the pattern run is
	// then the one reduced to the alternatives left (reduced, by mask).
	alts     []gate
	altExpr  []string
	altCaps  []bool // whether the alternative holds capture groups
	all      uint64
	reduced  sync.Map // uint64 mask of alternatives kept → *regexp.Regexp
	nReduced atomic.Int32
	// words matches the pattern without the regexp when it is a set of
	// strings between word boundaries.
	words *wordSet
	// start are the bytes a match can start with (rx_start.go), and
	// altStart each alternative's.
	start    startBytes
	altStart []startBytes
}

// maxReduced bounds the reduced patterns one rx keeps.
const maxReduced = 16

// newRx records a pattern; it is parsed and compiled on first use. A
// malformed pattern panics there, and the grammar tests use every one.
func newRx(expr string) *rx {
	return &rx{expr: expr}
}

// compiled returns the whole compiled pattern.
func (r *rx) compiled() *regexp.Regexp {
	r.parse()
	r.progOnce.Do(func() { r.prog = regexp.MustCompile(r.expr) })
	return r.prog
}

// parse derives the gates on first use.
func (r *rx) parse() {
	r.once.Do(func() {
		parsed, err := syntax.Parse(r.expr, syntax.Perl)
		if err != nil {
			regexp.MustCompile(r.expr) // says what is wrong
			return
		}
		groups := parsed.MaxCap()
		parsed = parsed.Simplify()
		r.gate = rarestFirst(required(parsed))
		r.start = newStartBytes(parsed)
		if r.words = newWordSet(parsed, groups); r.words != nil {
			return
		}
		if parsed.Op != syntax.OpAlternate || len(parsed.Sub) < 2 || len(parsed.Sub) > 64 || captures(parsed) != groups {
			return // no alternatives, or they would not respell the pattern's groups: run it whole
		}
		for i, sub := range parsed.Sub {
			r.alts = append(r.alts, rarestFirst(required(sub)))
			r.altExpr = append(r.altExpr, sub.String())
			r.altCaps = append(r.altCaps, captures(sub) > 0)
			r.altStart = append(r.altStart, newStartBytes(sub))
			r.all |= 1 << i
		}
	})
}

// captures counts the capture groups of a parsed pattern.
func captures(re *syntax.Regexp) int {
	n := 0
	if re.Op == syntax.OpCapture {
		n++
	}
	for _, sub := range re.Sub {
		n += captures(sub)
	}
	return n
}

// wordsFor returns the word set to search s with when the pattern has one
// (ok), and nil with ok when s cannot match.
func (r *rx) wordsFor(s string) (ws *wordSet, ok bool) {
	r.parse()
	if r.words == nil {
		return nil, false
	}
	if !r.gate.admits(s) {
		return nil, true
	}
	return r.words, true
}

// program returns the pattern to run on s: nil when no match is possible,
// else the pattern reduced to the alternatives whose gates s passes. An
// alternative that cannot match anywhere in s never contributes a match,
// so the reduced pattern finds exactly what the whole one does
// (reducedExpr).
func (r *rx) program(s string) *regexp.Regexp {
	p, _ := r.programMask(s)
	return p
}

// runOn is program with where on s to run it from (rx_start.go): nil when
// no match is possible.
func (r *rx) runOn(s string) (p *regexp.Regexp, at int) {
	p, mask := r.programMask(s)
	if p == nil {
		return nil, 0
	}
	start := r.start
	if mask != r.all {
		// The alternatives left can start with fewer bytes.
		start = startBytes{ok: true}
		for i, sb := range r.altStart {
			if mask&(1<<i) != 0 {
				start = start.union(sb)
			}
		}
	}
	at, skip := start.from(s)
	if skip {
		return nil, 0
	}
	return p, at
}

// programMask is program with the alternatives kept (r.all when the
// pattern has none, or runs whole).
func (r *rx) programMask(s string) (*regexp.Regexp, uint64) {
	r.parse()
	if r.alts == nil {
		if !r.gate.admits(s) {
			return nil, 0
		}
		return r.compiled(), r.all
	}
	// The whole pattern's gate is one group, each alternative's rarest:
	// the alternatives' own gates decide the same and more.
	ix := indexOf(s)
	var mask uint64
	for i, g := range r.alts {
		if g.admitsIn(ix) {
			mask |= 1 << i
		}
	}
	switch mask {
	case 0:
		return nil, 0
	case r.all:
		return r.compiled(), r.all
	}
	if p, ok := r.reduced.Load(mask); ok {
		return p.(*regexp.Regexp), mask
	}
	if r.nReduced.Load() >= maxReduced {
		return r.compiled(), r.all
	}
	p := regexp.MustCompile(r.reducedExpr(mask))
	if _, loaded := r.reduced.LoadOrStore(mask, p); !loaded {
		r.nReduced.Add(1)
	}
	return p, mask
}

// reducedExpr spells the pattern with only the alternatives of mask
// able to match. The others are dropped, unless they hold capture groups:
// then each run of them stays as one branch that never matches (an empty
// class first), so that the groups keep their numbers. Dropping them
// rather than keeping every one as a dead branch matters to the matcher:
// it tries each branch at each position of the text, and a pattern left
// with one anchored branch ("^help$") is tried at the start only.
func (r *rx) reducedExpr(mask uint64) string {
	var parts, dead []string
	for i, e := range r.altExpr {
		if mask&(1<<i) != 0 {
			if len(dead) > 0 {
				parts = append(parts, `[^\x00-\x{10FFFF}](?:`+strings.Join(dead, "|")+`)`)
				dead = dead[:0]
			}
			parts = append(parts, e)
		} else if r.altCaps[i] {
			dead = append(dead, e)
		}
	}
	if len(dead) > 0 {
		parts = append(parts, `[^\x00-\x{10FFFF}](?:`+strings.Join(dead, "|")+`)`)
	}
	return strings.Join(parts, "|")
}

// shiftedAll is shifted for every match.
func shiftedAll(ms [][]int, at int) [][]int {
	for _, m := range ms {
		shifted(m, at)
	}
	return ms
}

// substrings spells out submatch indices, as regexp does.
func substrings(s string, m []int) []string {
	if m == nil {
		return nil
	}
	out := make([]string, len(m)/2)
	for i := range out {
		if m[2*i] >= 0 {
			out[i] = s[m[2*i]:m[2*i+1]]
		}
	}
	return out
}

func (r *rx) MatchString(s string) bool {
	if ws, ok := r.wordsFor(s); ok {
		return ws != nil && ws.match(s)
	}
	p, at := r.runOn(s)
	return p != nil && p.MatchString(s[at:])
}

// FindStringIndex is regexp's, behind the gate.
func (r *rx) FindStringIndex(s string) []int {
	if ws, ok := r.wordsFor(s); ok {
		return ws.first1(s, false)
	}
	p, at := r.runOn(s)
	if p == nil {
		return nil
	}
	return shifted(p.FindStringIndex(s[at:]), at)
}

// FindStringSubmatchIndex is regexp's, behind the gate.
func (r *rx) FindStringSubmatchIndex(s string) []int {
	if ws, ok := r.wordsFor(s); ok {
		return ws.first1(s, true)
	}
	p, at := r.runOn(s)
	if p == nil {
		return nil
	}
	return shifted(p.FindStringSubmatchIndex(s[at:]), at)
}

// FindAllStringIndex is regexp's, behind the gate.
func (r *rx) FindAllStringIndex(s string, n int) [][]int {
	if ws, ok := r.wordsFor(s); ok {
		return ws.findAll(s, n, false)
	}
	p, at := r.runOn(s)
	if p == nil {
		return nil
	}
	return shiftedAll(p.FindAllStringIndex(s[at:], n), at)
}

func (r *rx) FindString(s string) string {
	if ws, ok := r.wordsFor(s); ok {
		if m := ws.first1(s, false); m != nil {
			return s[m[0]:m[1]]
		}
		return ""
	}
	p := r.program(s)
	if p == nil {
		return ""
	}
	return p.FindString(s)
}

func (r *rx) FindStringSubmatch(s string) []string {
	if ws, ok := r.wordsFor(s); ok {
		return substrings(s, ws.first1(s, true))
	}
	p := r.program(s)
	if p == nil {
		return nil
	}
	return p.FindStringSubmatch(s)
}

func (r *rx) FindAllString(s string, n int) []string {
	if ws, ok := r.wordsFor(s); ok {
		var out []string
		for _, m := range ws.findAll(s, n, false) {
			out = append(out, s[m[0]:m[1]])
		}
		return out
	}
	p := r.program(s)
	if p == nil {
		return nil
	}
	return p.FindAllString(s, n)
}

func (r *rx) FindAllStringSubmatch(s string, n int) [][]string {
	if ws, ok := r.wordsFor(s); ok {
		var out [][]string
		for _, m := range ws.findAll(s, n, true) {
			out = append(out, substrings(s, m))
		}
		return out
	}
	p := r.program(s)
	if p == nil {
		return nil
	}
	return p.FindAllStringSubmatch(s, n)
}

func (r *rx) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if ws, ok := r.wordsFor(s); ok {
		return ws.findAll(s, n, true)
	}
	p, at := r.runOn(s)
	if p == nil {
		return nil
	}
	return shiftedAll(p.FindAllStringSubmatchIndex(s[at:], n), at)
}

func (r *rx) ReplaceAllString(s, repl string) string {
	p := r.program(s)
	if p == nil {
		return s
	}
	return p.ReplaceAllString(s, repl)
}

func (r *rx) ReplaceAllStringFunc(s string, fn func(string) string) string {
	p := r.program(s)
	if p == nil {
		return s
	}
	return p.ReplaceAllStringFunc(s, fn)
}
