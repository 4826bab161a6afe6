package planner

import (
	"slices"
	"strconv"
	"strings"
)

// leading plans a yes/no question that carries its own premise ("Dragonfly
// is always ahead of Redis, isn't it?", "doesn't Valkey beat Redis
// everywhere?", "Garnet never wins, right?"). The answer starts with yes,
// no or partly and shows the cells that confirm or contradict it. With
// "always"/"never" the premise is checked wherever both were measured
// under the stated conditions; otherwise at the ordinary defaults.
func (p *Planner) leading(r reading, prev *Plan) (Plan, bool) {
	k := p.k
	t := r.text
	// A premise needs "always"/"never", a tag ("…, right?"), or a plain
	// yes/no question naming the two engines ("is X faster than Y?"):
	// asked yes or no, the first line says yes, no or partly.
	engines := r.engines()
	polar := k.yesNoLead.MatchString(t) && len(engines) == 2 && !r.asksARelation() && !p.g.multiple.MatchString(t)
	if !polar && !k.yesNoTag.MatchString(t) && !k.always.MatchString(t) && !k.never.MatchString(t) {
		return Plan{}, false
	}
	if _, ok := p.matchClaim(t, engines); ok {
		return Plan{}, false
	}
	better, worse := k.better.MatchString(t), k.worse.MatchString(t)
	metric := defaultOr(r.metric(), defaultMetric)
	if r.metric() == "" && slices.Contains(r.x.metrics, "bytes_per_key") {
		if r.has(mClaimTopic) {
			return Plan{}, false // "is it true dragonfly uses less memory?": a vendor's claim, checked as one
		}
		// On memory per key, less is better: "is valkey leaner than redis?"
		metric = "bytes_per_key"
		better, worse = k.leanerWords.MatchString(t), k.heavierWords.MatchString(t)
	}
	// "are Redis and Valkey about the same at 16 cores?": a premise of
	// its own, that the two are level.
	same := polar && !better && !worse && k.same.MatchString(t)
	if better == worse && !same {
		return Plan{}, false
	}
	everyOther := k.everyOther.MatchString(t)
	if len(engines) == 1 && !everyOther && prev != nil && len(prev.Slots.Engines) > 0 && !slices.Contains(prev.Slots.Engines, engines[0]) {
		engines = append(engines, prev.Slots.Engines[0]) // "is Valkey faster, though?" after a Redis answer
	}
	always := k.always.MatchString(t) || k.never.MatchString(t)
	if len(engines) == 0 || len(engines) == 1 && !everyOther && !always || len(engines) > 2 {
		return Plan{}, false
	}
	pr := Premise{Subject: engines[0], Metric: metric, Better: better, Same: same}
	if len(engines) == 2 {
		pr.Object = engines[1]
	}
	if k.never.MatchString(t) {
		pr.Better, pr.Always = !pr.Better, true
	}
	if k.always.MatchString(t) {
		pr.Always = true
	}
	pr.Statement = premiseStatement(pr)

	var pl Plan
	if pr.Always {
		pl = p.premisePlan(r, pr)
	} else {
		w := p.fresh(r.x, t)
		w.question = r.question
		w.intent = IntentCompare
		if pr.Metric == "bytes_per_key" {
			w.intent = IntentMemory // the memory table, not the runs
		}
		w.cued = true
		w.metric = pr.Metric
		if pr.Object == "" {
			w.engines, w.modeFor = nil, nil
		}
		pl = p.planWant(w)
		switch pl.Intent {
		case IntentCompare, IntentLookup:
			pl.Intent = IntentCompare
		case IntentMemory:
			// The memory table answers the yes/no from its own figures.
		default:
			return pl, true // never measured there: no_data says so
		}
	}
	pl.Premise = &pr
	pl.Interpretation = "Yes/no: " + pr.Statement + " — " + pl.Interpretation
	return pl, true
}

// premiseStatement words a premise as the claim the verdict answers.
func premiseStatement(pr Premise) string {
	rel := "ahead of"
	if !pr.Better {
		rel = "behind"
	}
	obj := "every other engine"
	if pr.Object != "" {
		obj = engineName(pr.Object)
	}
	where := "under the stated conditions"
	if pr.Always {
		where = "everywhere both were measured"
	}
	if pr.Metric == "bytes_per_key" {
		// The memory table has one setup: it holds no conditions to state.
		rel = map[bool]string{true: "leaner than", false: "heavier than"}[pr.Better]
		if pr.Same {
			return engineName(pr.Subject) + " and " + obj + " use about the same memory per key"
		}
		return engineName(pr.Subject) + " is " + rel + " " + obj + " in memory per key"
	}
	if pr.Same {
		return engineName(pr.Subject) + " and " + obj + " are about the same on " + metricPhrase(pr.Metric) + " " + where
	}
	return engineName(pr.Subject) + " is " + rel + " " + obj + " on " + metricPhrase(pr.Metric) + " " + where
}

// premisePlan selects, for an "always"/"never" premise, every cell of the
// subject and of the object under the conditions the question stated (no
// defaults: "always" means wherever both were measured).
func (p *Planner) premisePlan(r reading, pr Premise) Plan {
	x := r.x
	var cond []string
	switch {
	case len(x.cores) == 1:
		cond = append(cond, "cores == "+strconv.Itoa(x.cores[0]))
	case len(x.cores) > 1:
		cond = append(cond, "cores in "+intList(x.cores))
	}
	if len(x.ratios) > 0 {
		cond = append(cond, "ratio == "+strconv.Quote(x.ratios[0]))
	}
	if len(x.values) > 0 {
		cond = append(cond, "value_bytes == "+strconv.Itoa(x.values[0]))
	}
	if len(x.pipelines) > 0 {
		cond = append(cond, "pipeline == "+strconv.Itoa(x.pipelines[0]))
	}
	with := func(f string) string {
		return strings.Join(append([]string{f}, cond...), " && ")
	}
	pl := Plan{Intent: IntentCompare, Question: r.question, Source: "rules", Order: orderFor(!lowerIsBetter(pr.Metric))}
	pl.Slots.Engines = []string{pr.Subject}
	if pr.Object != "" {
		pl.Slots.Engines = append(pl.Slots.Engines, pr.Object)
	}
	pl.Slots.Metric = pr.Metric
	stateSlots(&pl.Slots, x)
	pl.Queries = []Query{{Label: engineName(pr.Subject), Filter: with(`engine == ` + strconv.Quote(pr.Subject)), Metric: pr.Metric, Engine: pr.Subject}}
	if pr.Object != "" {
		pl.Queries = append(pl.Queries, Query{Label: engineName(pr.Object), Filter: with(`engine == ` + strconv.Quote(pr.Object)), Metric: pr.Metric, Engine: pr.Object})
	} else {
		pl.Queries = append(pl.Queries, Query{Label: "every other engine", Filter: with(`engine != ` + strconv.Quote(pr.Subject)), Metric: pr.Metric})
	}
	pl.Interpretation = "every cell of both measured under the same conditions"
	if len(cond) > 0 {
		pl.Interpretation += " (" + strings.Join(cond, ", ") + ")"
	}
	return pl
}

// asksARelation reports whether the question asks how two series relate
// over a setting (where they cross, what a knob does, how far apart they
// are): "does Valkey ever catch up with Redis?" is a crossover question,
// not a premise, though it is asked yes or no.
func (r reading) asksARelation() bool {
	for _, rel := range []string{"crossover", "crossover_at", "effect", "gap"} {
		if r.hasValue(mRelation, rel) {
			return true
		}
	}
	return false
}
