package planner

// spread plans "how consistent were the repetitions?", "per-rep values of
// Dragonfly at 48 cores", "how many repetitions did Valkey get?": the
// cells the question (or, for a short follow-up, the thread's last answer)
// selects, answered with each repetition's own values, min, max and the
// spread between them. Without any cell to read it is a provenance
// question (how many repetitions the benchmark ran in general).
func (p *Planner) spread(r reading, prev *Plan) (Plan, bool) {
	if !p.k.spread.MatchString(r.text) || r.scalesOverCores() {
		// "does the p50 vary with cores?" asks across core counts, not
		// across repetitions.
		return Plan{}, false
	}
	if r.hasValue(mRelation, "gap") && !r.namesRepetitions() {
		// "the spread between them": the gap between two results, not
		// between the repetitions of one.
		return Plan{}, false
	}
	named := len(r.x.engines) > 0 || r.x.allEngines || r.x.hasKnobValue()
	var pl Plan
	switch {
	case named:
		ord, ok := p.ordinary(r.question, prev)
		if !ok {
			return Plan{}, false
		}
		pl = ord
	default:
		return repetitionsOfThread(r.question, prev)
	}
	return repetitionsOf(pl), true
}

// repetitionsOfThread plans the repetitions of the cells the thread's last
// request read ("did those wobble?"), every slot inherited; false with no
// such request.
func repetitionsOfThread(question string, prev *Plan) (Plan, bool) {
	if prev == nil || len(prev.Queries) == 0 {
		return Plan{}, false
	}
	pl := *prev
	pl.Question = question
	pl.Explain = false
	pl.Inherited = inheritedAll(prev)
	return repetitionsOf(pl), true
}

// repetitionsOf turns a plan of measured cells (the rules' reading, or a
// language model's) into one of each repetition of those cells; a plan
// about no cells (never measured, a definition) stays as planned.
func repetitionsOf(pl Plan) Plan {
	switch pl.Intent {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect:
	default:
		return pl
	}
	pl.Requested, pl.Intent = pl.Intent, IntentSpread
	pl.Interpretation = "Each repetition of: " + pl.Interpretation
	pl.Source = "rules"
	return pl
}

// namesRepetitions reports a word naming the runs or repetitions of a
// cell ("the spread between the reps").
func (r *reading) namesRepetitions() bool {
	for _, t := range r.toks {
		switch t.text {
		case "rep", "reps", "repetition", "repetitions", "run", "runs", "repeat", "repeats":
			return true
		}
	}
	return false
}
