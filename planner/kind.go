package planner

import (
	"slices"
	"strings"
)

// find returns where re matches the corrected text, else the text before
// typo correction, which can turn a word the kind rules know into another
// ("percentage").
func (r reading) find(re *rx) []int {
	if loc := re.FindStringIndex(r.text); loc != nil {
		return loc
	}
	if r.plain != r.text {
		return re.FindStringIndex(r.plain)
	}
	return nil
}

// engines lists the engines the question names, in order.
func (r reading) engines() []string {
	out := make([]string, 0, len(r.x.engines))
	for _, e := range r.x.engines {
		out = append(out, e.value)
	}
	return out
}

// metric is the first metric the question names, or "".
func (r reading) metric() string {
	for _, m := range r.x.metrics {
		switch m {
		case "bytes_per_key", "outage_s":
		default:
			return m
		}
	}
	return ""
}

// planKind plans the kinds of question the ordinary rules have no answer
// shape for: greetings and capability questions, compound questions,
// corrections of the thread's last plan, provenance, extrapolation
// requests, dataset-wide searches, recommendations, repetitions, leading
// yes/no questions, and shares or units. ok is false when the question is
// none of these. A correction sees the thread's last plan as it was; the
// other kinds see the request it continues (threadBase).
func (p *Planner) planKind(question string, prev *Plan) (Plan, bool) {
	return p.planKindOf(question, prev, true)
}

func (p *Planner) planKindOf(question string, prev *Plan, splitCompound bool) (Plan, bool) {
	if len(question) > p.opts.MaxQuestionChars {
		return Plan{}, false
	}
	r := p.read(question)
	if r.text == "" || p.g.injection.MatchString(r.text) || p.g.code.MatchString(r.text) || r.asksForMadeUpWork() {
		return Plan{}, false // the ordinary rules refuse these
	}
	base := threadBase(prev)
	type kind func(reading, *Plan) (Plan, bool)
	var kinds []kind
	if splitCompound {
		kinds = append(kinds, p.greeting, p.compound)
	}
	if p.hasDomainContent(&r) || prev != nil || p.k.provenance.MatchString(r.text) || len(r.setupFacts()) > 0 || p.asksThreshold(&r) ||
		p.k.connErrors.MatchString(r.text) && strings.Contains(r.text, "conn") {
		// A question naming nothing of the domain ("recommend a good pizza
		// place") is out of scope, whatever its shape; the runs' own setup
		// ("how long did each test last?") is the domain.
		kinds = append(kinds, p.provenance, p.extrapolation, p.search, p.recommendation, p.spread, p.leading, p.units)
	}
	if pl, ok := p.correction(r, prev); ok {
		return pl, true
	}
	for _, k := range kinds {
		if pl, ok := k(r, base); ok {
			if pl.Source == "" {
				pl.Source = "rules"
			}
			return pl, true
		}
	}
	return Plan{}, false
}

// threadBase is the plan a follow-up continues: a compound plan's last
// part, and for the kinds that wrap an ordinary request (recommendation,
// spread) that request.
func threadBase(prev *Plan) *Plan {
	if prev == nil {
		return nil
	}
	if prev.Intent == IntentCompound && len(prev.Parts) > 0 {
		last := prev.Parts[len(prev.Parts)-1]
		last.ThreadEngines = prev.ThreadEngines
		return threadBase(&last)
	}
	switch prev.Intent {
	case IntentRecommend, IntentSpread:
		if prev.Requested != "" {
			base := *prev
			base.Intent = prev.Requested
			base.Requested = ""
			return &base
		}
	case IntentSearch:
		// A follow-up of a search continues it (search keeps the spec);
		// the ordinary rules see a ranking of the same scope.
		base := *prev
		base.Intent = IntentCompare
		return &base
	}
	return prev
}

// ordinary plans a question with the rules that precede the kinds (used by
// kinds that annotate an ordinary plan).
func (p *Planner) ordinary(question string, prev *Plan) (Plan, bool) {
	pl, ok := p.describeEngine(question)
	if !ok {
		pl, ok = p.rules(question, prev)
	}
	return pl, ok
}

// stateSlots copies the knob values a question stated (and only those: no
// defaults) into the plan's slots.
func stateSlots(s *Slots, x *parsed) {
	s.Cores = slices.Clone(x.cores)
	if len(x.ratios) > 0 {
		s.Ratio = x.ratios[0]
	}
	if len(x.values) > 0 {
		s.ValueBytes = x.values[0]
	}
	if len(x.pipelines) > 0 {
		s.Pipeline = x.pipelines[0]
	}
}
