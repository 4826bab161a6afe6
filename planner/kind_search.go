package planner

import (
	"slices"
	"strconv"
	"strings"
)

// searchLimit is how many extreme rows a dataset-wide search shows.
const searchLimit = 5

// search plans a superlative or a threshold over every measured cell or
// run ("the slowest request seen in any run", "were there ever misses",
// "which setups pass 10M ops/s with the fewest cores"). Only what the
// question states narrows the scope: no default is applied, so the extreme
// is the dataset's, not the default cell's.
func (p *Planner) search(r reading, prev *Plan) (Plan, bool) {
	k := p.k
	t := r.text
	if s, ok := p.searchStat(r); ok {
		return p.searchPlan(r, s, nil), true
	}
	scope := k.searchScope.MatchString(t)
	set := p.asksThreshold(&r) // "which runs broke 20M", "anything above 10M?"
	// "count rows p99_ms<1", "how many cells have p50 under 1 ms": a count
	// of what meets a bound is a search that counts its matches.
	counts, countOver, _, _ := countShape(accountWords(t))
	if _, ok := p.matchClaim(t, r.engines()); ok && !((scope || set || counts == "count") && len(r.x.engines) == 0) {
		return Plan{}, false // a claim's wording, unless it asks over everything
	}
	misses := k.misses.MatchString(t)
	errs := k.connErrors.MatchString(t)
	slowest := k.slowestRequest.MatchString(t)
	high, low := k.searchHigh.MatchString(t), k.searchLow.MatchString(t)
	best, worst := k.searchBest.MatchString(t), k.searchWorst.MatchString(t)
	fewest := asksFewest(accountWords(t)) || strings.Contains(t, "fewest")
	s := Search{Limit: searchLimit, Over: "cells", Order: OrderDesc}
	threshold := p.threshold(r, &s)
	switch {
	case threshold && counts == "count":
		if countOver != "" {
			s.Over = countOver
		}
	case (misses || errs) && (scope || r.x.wordCount <= 8):
	case scope && (high || low || best || worst || threshold || slowest):
	case threshold && fewest && !scope && len(r.x.engines) > 0:
		// "fewest cores for valkey to hit 10M": each of its series, the
		// query shape's threshold, not one search over every cell.
		return Plan{}, false
	case threshold && fewest:
		// "which setups pass 10M with the fewest cores": over everything.
	case threshold && set:
	case prev != nil && prev.Search != nil && r.x.wordCount <= 6 && (len(r.x.engines) > 0 || r.x.hasKnobValue()):
		// "and for Valkey?" after a search: the same search, narrowed.
		s = *prev.Search
		return p.searchPlan(r, s, prev), true
	default:
		return Plan{}, false
	}
	s.FewestCores = fewest && threshold
	metric := r.metric()
	switch {
	case threshold && s.Op != "":
		// p.threshold set the metric and the order.
	case misses:
		s.Metric, s.Order, s.Over = "hit_rate", OrderAsc, "runs"
		s.Op, s.Value = "<", 1
	case errs && !hasCondition(s.Conditions, "conn_errors"):
		// "were there any connection errors": runs with at least one.
		s.Conditions = append(s.Conditions, Condition{Field: "conn_errors", Op: ">", Value: 0})
		s.Metric, s.Over = defaultOr(metric, defaultMetric), "runs"
	case slowest || unrecordedMetric(metric) != "":
		s.Metric, s.Order, s.Over = "p999_ms", OrderDesc, "runs"
		s.Note = "the runs record latency percentiles up to p99.9, not each request: the slowest requests recorded are the highest p99.9 values"
		if unrecordedMetric(metric) != "" && metric != "max_ms" {
			s.Note = unrecordedMetric(metric) + " was not recorded — the runs record p50, p99 and p99.9 only: the highest p99.9 values are shown instead"
		}
	default:
		s.Metric = defaultOr(metric, defaultMetric)
		lowerBetter := lowerIsBetter(s.Metric)
		// Speed words rank by what they mean for the metric: the fastest
		// p99 is the lowest, the slowest throughput the lowest.
		fastest := strings.Contains(t, "fastest") || strings.Contains(t, "quickest")
		slowestWord := strings.Contains(t, "slowest")
		switch {
		case fastest && !slowestWord:
			s.Order = orderFor(!lowerBetter)
		case slowestWord && !fastest:
			s.Order = orderFor(lowerBetter)
		case best:
			s.Order = orderFor(!lowerBetter)
		case worst:
			s.Order = orderFor(lowerBetter)
		case low && !high:
			s.Order = OrderAsc
			if s.Metric == defaultMetric && strings.Contains(t, "slowest") {
				s.Order = OrderAsc
			}
		}
	}
	switch over := k.searchOver(t); {
	case over != "":
		s.Over = over
	case k.searchRuns.MatchString(t):
		s.Over = "runs" // "ever", "seen", "recorded"
	}
	if hasCondition(s.Conditions, "key_max") {
		s.Note = "key_max is the key range of the whole cluster for Redis and Valkey Cluster (realistic) but of each shard for the fully driven ceiling"
	}
	return p.searchPlan(r, s, nil), true
}

func hasCondition(cs []Condition, field string) bool {
	for _, c := range cs {
		if c.Field == field {
			return true
		}
	}
	return false
}

func orderFor(highFirst bool) Order {
	if highFirst {
		return OrderDesc
	}
	return OrderAsc
}

// threshold reads the question's thresholds into the search and reports
// whether it set one: the first on a search metric is the search's own
// ("p99 over 5 ms", "reach 10M ops/s", "hit rate below 99%"), compared on
// cells' medians; every other is a condition on the runs ("lasted more
// than 60 s": test_time_s > 60), shown as the filter it is.
func (p *Planner) threshold(r reading, s *Search) bool {
	cs := p.comparisons(r)
	for _, c := range cs {
		if !c.metric() || s.Op != "" {
			s.Conditions = append(s.Conditions, Condition{Field: c.field, Op: c.op, Value: c.value})
			continue
		}
		s.Metric, s.Op, s.Value, s.Order = c.field, c.op, c.value, OrderDesc
		if strings.HasPrefix(c.op, "<") {
			s.Order = OrderAsc
		}
	}
	return len(cs) > 0
}

// searchPlan writes the search's one query: the conditions the question
// stated (engines, modes, cores, workload, value size, pipeline, session),
// or every run when it stated none; a run-level threshold ("any run with
// misses") is part of the filter, a threshold on medians is applied to the
// cells by the answer.
func (p *Planner) searchPlan(r reading, s Search, prev *Plan) Plan {
	x := r.x
	pl := Plan{Intent: IntentSearch, Question: r.question, Source: "rules"}
	var parts, words []string
	engines := r.engines()
	modes := x.explicitModes()
	if prev != nil {
		if len(engines) == 0 {
			engines = prev.Slots.Engines
			if len(engines) > 0 {
				pl.Inherited = append(pl.Inherited, slotEngines)
			}
		}
		if len(modes) == 0 {
			modes = prev.Slots.Modes
		}
	}
	switch len(engines) {
	case 0:
	case 1:
		parts = append(parts, `engine == `+strconv.Quote(engines[0]))
	default:
		parts = append(parts, `engine in `+filterList(engines))
	}
	if len(engines) > 0 {
		words = append(words, namesOf(engines))
	}
	if len(modes) == 1 {
		parts = append(parts, `mode == `+strconv.Quote(modes[0]))
		words = append(words, modePhrase(modes))
	} else if len(modes) > 1 {
		parts = append(parts, `mode in `+filterList(modes))
		words = append(words, modePhrase(modes))
	}
	if x.session != 0 {
		parts = append(parts, "session == "+strconv.Itoa(x.session))
		words = append(words, "session "+strconv.Itoa(x.session))
	}
	switch {
	case x.coresRange && len(x.cores) == 2:
		parts = append(parts, "cores >= "+strconv.Itoa(x.cores[0])+" && cores <= "+strconv.Itoa(x.cores[1]))
		words = append(words, "from "+strconv.Itoa(x.cores[0])+" to "+strconv.Itoa(x.cores[1])+" cores")
	case len(x.cores) == 1:
		parts = append(parts, "cores == "+strconv.Itoa(x.cores[0]))
		words = append(words, strconv.Itoa(x.cores[0])+" cores")
	case len(x.cores) > 1:
		parts = append(parts, "cores in "+intList(x.cores))
		words = append(words, joinInts(x.cores)+" cores")
	}
	if len(x.ratios) > 0 {
		parts = append(parts, "ratio == "+strconv.Quote(x.ratios[0]))
		words = append(words, ratioPhrase(x.ratios[0]))
	}
	if len(x.values) > 0 {
		parts = append(parts, "value_bytes == "+strconv.Itoa(x.values[0]))
		words = append(words, valuePhrase(x.values[0]))
	}
	if len(x.pipelines) > 0 {
		parts = append(parts, "pipeline == "+strconv.Itoa(x.pipelines[0]))
		words = append(words, "pipeline "+strconv.Itoa(x.pipelines[0]))
	}
	filter := strings.Join(parts, " && ")
	if filter == "" {
		filter = "true"
	}
	var match string
	conds := slices.Clone(parts)
	for _, c := range s.Conditions {
		conds = append(conds, c.Filter())
	}
	switch {
	case s.Over == "runs" && s.Op != "":
		// The runs that pass, as a filter of their own: the scope is
		// counted from the first query, the matches from the second.
		match = strings.Join(append(conds, s.Metric+" "+s.Op+" "+strconv.FormatFloat(s.Value, 'f', -1, 64)), " && ")
	case len(s.Conditions) > 0:
		// Conditions on the runs' own fields keep runs (or the cells of
		// those runs); a threshold on medians is applied by the answer.
		match = strings.Join(conds, " && ")
	}
	unit := "every measured cell (median across its repetitions)"
	if s.Over == "runs" {
		unit = "every measured run (each repetition on its own)"
	}
	s.Scope = unit
	if len(words) > 0 {
		s.Scope += " of " + strings.Join(words, ", ")
	}
	pl.Slots.Engines = slices.Clone(engines)
	pl.Slots.Modes = slices.Clone(modes)
	stateSlots(&pl.Slots, x)
	pl.Slots.Session = x.session
	pl.Slots.Metric = s.Metric
	pl.Search = &s
	pl.Order = s.Order
	pl.Queries = []Query{{Label: "scope", Filter: filter, Metric: s.Metric}}
	if match != "" {
		pl.Queries = append(pl.Queries, Query{Label: "matches", Filter: match, Metric: s.Metric})
	}
	pl.Interpretation = "Dataset-wide search: " + searchWords(s) + ", over " + s.Scope
	return pl
}

// searchWords says what a search looks for.
func searchWords(s Search) string {
	if len(s.Conditions) == 0 {
		return searchGoal(s)
	}
	var cs []string
	for _, c := range s.Conditions {
		if s.Stat != "" {
			// The answer shows the filter that holds the conditions.
			cs = append(cs, c.Words())
			continue
		}
		cs = append(cs, c.Words()+" (`"+c.Filter()+"`)")
	}
	unit := "the cells of runs with "
	if s.Over == "runs" {
		unit = "the runs with "
	}
	return unit + strings.Join(cs, " and ") + "; among them " + searchGoal(s)
}

// searchGoal says what a search ranks or keeps on its metric.
func searchGoal(s Search) string {
	what := metricPhrase(s.Metric)
	if missesOnly(s) {
		return searchCondition(s) + ", lowest hit rate first"
	}
	if s.Stat != "" {
		if s.Pooled {
			return "the " + s.Stat + " " + what + " across them all (pooled), and per series and session"
		}
		return "the " + s.Stat + " " + what + " across them, per series and session"
	}
	ext := "the highest "
	if s.Order == OrderAsc {
		ext = "the lowest "
	}
	if s.Op != "" {
		cond := searchCondition(s)
		unit := "the setups with "
		if s.Over == "runs" {
			unit = "the runs with "
		}
		if s.FewestCores {
			return unit + cond + ", fewest cores first"
		}
		return unit + cond + ", " + strings.TrimSpace(ext) + " first"
	}
	return ext + what
}

// searchCondition is a search's threshold as the question set it ("p99
// latency (ms) > 5 ms").
func searchCondition(s Search) string {
	if missesOnly(s) {
		return "runs with cache misses (hit rate below 100%)"
	}
	return metricPhrase(s.Metric) + " " + s.Op + " " + thresholdText(s.Metric, s.Value)
}

// missesOnly reports a search for any miss at all: a hit rate below 100%.
func missesOnly(s Search) bool {
	return s.Metric == "hit_rate" && s.Op == "<" && s.Value == 1
}

// filterList writes a list of strings as an expr list literal.
func filterList(ss []string) string {
	items := make([]string, len(ss))
	for i, s := range ss {
		items[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// thresholdText writes a threshold the way the question did, in its
// metric's unit: "10M ops/s", "1 ms", "500K KB/s", "99%".
func thresholdText(metric string, v float64) string {
	trim := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case isLatencyMetric(metric):
		return trim(v) + " ms"
	case metric == "hit_rate":
		return trim(v*100) + "%"
	}
	unit := " ops/s"
	switch metric {
	case "ops_per_core":
		unit = " ops/s per core"
	case "kb_per_sec":
		unit = " KB/s"
	}
	switch {
	case v >= 1e6:
		return trim(v/1e6) + "M" + unit
	case v >= 1e3:
		return trim(v/1e3) + "K" + unit
	}
	return trim(v) + unit
}

// asksForASet reports a question whose subject is the set of runs or
// cells itself ("which runs broke 20M", "anything above 10M?", "what
// cleared 5M", "did anything exceed 25M", "runs under 1ms p99"): with a
// threshold, a search over everything measured. "Did Dragonfly exceed
// 10M?" names its subject and is not one.
func (r *reading) asksForASet() bool {
	for i, t := range r.toks {
		switch t.text {
		case "did", "does", "do", "has", "have", "was", "were", "is", "are", "so", "ok", "hey", "and", "please", "show", "list", "me", "give", "find", "the", "all", "every", "each":
			continue // an opener before the subject
		case "how":
			if i+1 < len(r.toks) && r.toks[i+1].text == "many" {
				continue // "how many runs went on for longer than 30 s"
			}
		case "dragonfly", "redis", "valkey", "keydb", "garnet":
			if r.setNounWithin(i+1, 2) {
				continue // "dragonfly runs with p99.9 of 10 ms or higher"
			}
		case "which", "what", "who", "anything", "any", "something", "everything", "runs", "cells", "configs", "configurations", "setups", "combinations",
			"many", "individual", "single", "separate", "repetitions", "repetition", "reps", "tries", "attempts", "trials", "measurements":
			return i < 6
		}
		return false
	}
	return false
}

// setNounWithin reports a noun naming runs or cells within n tokens from
// i ("valkey runs", "redis cluster cells").
func (r *reading) setNounWithin(i, n int) bool {
	for j := i; j < len(r.toks) && j < i+n; j++ {
		switch r.toks[j].text {
		case "runs", "cells", "setups", "configs", "configurations", "combinations", "repetitions", "reps", "tries", "attempts", "measurements":
			return true
		}
	}
	return false
}

// asksThreshold reports a threshold asked of the set of runs ("what
// cleared 5M?"): the figure alone is the benchmark's domain.
func (p *Planner) asksThreshold(r *reading) bool {
	return r.asksForASet() && len(p.comparisons(*r)) > 0
}
