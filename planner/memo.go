package planner

import (
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// memo holds what one Plan call has read already: the rules that each
// read the question (the kind rules, the engine description, the slot
// grammar, the unbound detector) share one normalization, one tagged
// reading and one extraction per text instead of redoing them. A nil memo
// (a Planner outside a Plan call) remembers nothing. The values are
// shared: callers that change an extraction take their own
// (p.g.extract).
type memo struct {
	plain     map[string]string // trimmed question → normalized
	corrected map[string]string // trimmed question → normalized, typos corrected
	readings  map[string]reading
	parses    map[string]*parsed
	phrases   map[string][]phraseHit  // question → the unbound detector's scan
	compared  map[string][]comparison // question and text → its thresholds (comparisons)
	claims    map[string]claimMatch   // text and engines → the claim its wording makes
	// coverage is the store's coverage, copied once per call (the store
	// hands out a fresh copy each time); nil until asked for.
	coverage []analytics.SeriesCoverage
}

func newMemo() *memo {
	return &memo{plain: map[string]string{}, corrected: map[string]string{},
		readings: map[string]reading{}, parses: map[string]*parsed{}, phrases: map[string][]phraseHit{},
		compared: map[string][]comparison{}, claims: map[string]claimMatch{}}
}

// remembered returns m[k], computing it once; without a memo (m nil) it
// computes every time.
func remembered[V any](m map[string]V, k string, compute func() V) V {
	if m == nil {
		return compute()
	}
	v, ok := m[k]
	if !ok {
		v = compute()
		m[k] = v
	}
	return v
}

// memoField is the memo's map f, or nil without a memo.
func memoField[V any](m *memo, f func(*memo) map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	return f(m)
}

// normalized is g.normalize of a trimmed question, once per call.
func (p *Planner) normalized(q string) string {
	return remembered(memoField(p.memo, func(m *memo) map[string]string { return m.plain }), q,
		func() string { return p.g.normalize(q) })
}

// corrected is a trimmed question normalized with its typos corrected,
// once per call.
func (p *Planner) corrected(q string) string {
	return remembered(memoField(p.memo, func(m *memo) map[string]string { return m.corrected }), q,
		func() string { return p.g.correctTypos(p.normalized(q)) })
}

// readingOf is the lexicon's reading of a trimmed question, once per call.
func (p *Planner) readingOf(q string) reading {
	return remembered(memoField(p.memo, func(m *memo) map[string]reading { return m.readings }), q,
		func() reading { return p.lx.read(p.corrected(q)) })
}

// extract is the slot grammar's extraction of a text, once per call. The
// result is shared and must not be changed.
func (p *Planner) extract(text string) *parsed {
	return remembered(memoField(p.memo, func(m *memo) map[string]*parsed { return m.parses }), text,
		func() *parsed { return p.g.extract(text) })
}

// phraseHits is the unbound detector's scan of a question, once per call.
func (p *Planner) phraseHits(question string) []phraseHit {
	return remembered(memoField(p.memo, func(m *memo) map[string][]phraseHit { return m.phrases }), question,
		func() []phraseHit { return p.ulex.scan(question) })
}

// coverage is the measured coverage, read from the store once per call.
// It is shared and must not be changed.
func (p *Planner) coverage() []analytics.SeriesCoverage {
	if p.memo == nil {
		return p.cov.Coverage()
	}
	if p.memo.coverage == nil {
		p.memo.coverage = p.cov.Coverage()
	}
	return p.memo.coverage
}

// comparisons is comparisons(r), once per reading: the search rules ask
// for a question's thresholds several times, and each asking runs two
// backtracking patterns over the text.
func (p *Planner) comparisons(r reading) []comparison {
	return remembered(memoField(p.memo, func(m *memo) map[string][]comparison { return m.compared }), r.question+"\x00"+r.text,
		func() []comparison { return comparisons(r) })
}

// claimMatch is what g.matchClaim found.
type claimMatch struct {
	rule claimRule
	ok   bool
}

// matchClaim is g.matchClaim, once per text and engines: the kind rules
// and the ordinary ones each ask whether the question is a claim's
// wording, and each asking tries every claim's pattern.
func (p *Planner) matchClaim(text string, engines []string) (claimRule, bool) {
	m := remembered(memoField(p.memo, func(m *memo) map[string]claimMatch { return m.claims }), text+"\x00"+strings.Join(engines, ","),
		func() claimMatch {
			c, ok := p.g.matchClaim(text, engines)
			return claimMatch{c, ok}
		})
	return m.rule, m.ok
}
