package planner

import (
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// recommendation plans "what should we run on 16 cores, mixed, no
// pipelining?": every engine and series measured under the stated
// conditions, ranked on the metric that matters (throughput unless the
// question names another). Engines not measured there keep their place as
// their nearest measured cells, named, so none is silently dropped.
func (p *Planner) recommendation(r reading, prev *Plan) (Plan, bool) {
	if !p.k.recommend.MatchString(r.text) || p.g.otherDB.MatchString(r.text) {
		return Plan{}, false
	}
	if _, ok := p.matchClaim(r.text, r.engines()); ok {
		return Plan{}, false
	}
	w := p.fresh(r.x, r.text)
	w.question = r.question
	w.metric = r.metric()
	if len(w.engines) < 2 && r.x.wordCount <= 6 && !r.x.hasKnobValue() {
		w = withThreadConditions(w, prev) // "what would you recommend then?"
	}
	return p.recommendOf(w), true
}

// withThreadConditions gives a recommendation that states no conditions
// the thread's last request's (cores, workload, value size, pipeline,
// session) and its metric unless it names one.
func withThreadConditions(w want, prev *Plan) want {
	if prev == nil {
		return w
	}
	base := fromPlan(prev)
	w.cores, w.ratios, w.values, w.pipelines, w.session = base.cores, base.ratios, base.values, base.pipelines, base.session
	w.metric = defaultOr(w.metric, base.metric)
	return w
}

// recommendOf plans the recommendation for a request's conditions (the
// rules' reading, or a language model's): a ranking of every engine
// measured there, unless the request names two or more to choose among.
func (p *Planner) recommendOf(w want) Plan {
	w.intent, w.cued, w.knob = IntentCompare, true, ""
	candidate := ""
	if len(w.engines) < 2 {
		// "Should we use Valkey?" is still a choice among every engine
		// measured there, with Valkey's place said first.
		if len(w.engines) == 1 {
			candidate = w.engines[0]
		}
		w.engines, w.modeFor = nil, nil
	}
	pl := p.measuredPlan(w)
	if pl.Intent != IntentCompare && pl.Intent != IntentLookup {
		return pl // never measured under those conditions: no_data names it
	}
	pl.Requested, pl.Intent, pl.Candidate = pl.Intent, IntentRecommend, candidate
	pl.Order = orderFor(!lowerIsBetter(defaultOr(pl.Slots.Metric, defaultMetric)))
	pl.Nearest = p.droppedNearest(pl)
	pl.Interpretation = "Recommendation from the measurements — " + pl.Interpretation
	return pl
}

// droppedNearest finds, for every measured engine the plan's queries leave
// out, its nearest measured cell to the plan's conditions.
func (p *Planner) droppedNearest(pl Plan) []analytics.Neighbor {
	var have []string
	for _, q := range pl.Queries {
		have = appendUnique(have, q.Engine)
	}
	var out []analytics.Neighbor
	cores := 0
	if len(pl.Slots.Cores) == 1 {
		cores = pl.Slots.Cores[0]
	}
	for _, e := range knownEngines(p.coverage()) {
		if slices.Contains(have, e) {
			continue
		}
		k := analytics.CellKey{Engine: e, Cores: cores, Ratio: pl.Slots.Ratio, ValueBytes: pl.Slots.ValueBytes, Pipeline: pl.Slots.Pipeline}
		for _, n := range p.cov.Nearest(k, 3) {
			if n.Cell.Engine == e && !strings.HasPrefix(n.Cell.Mode, "cluster-sat") {
				out = append(out, n)
				break
			}
		}
	}
	return out
}
