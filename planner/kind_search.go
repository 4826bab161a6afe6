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
	scope := k.searchScope.MatchString(t)
	set := p.asksThreshold(&r) // "which runs broke 20M", "anything above 10M?"
	if _, ok := p.g.matchClaim(t, r.engines()); ok && !((scope || set) && len(r.x.engines) == 0) {
		return Plan{}, false // a claim's wording, unless it asks over everything
	}
	misses := k.misses.MatchString(t)
	slowest := k.slowestRequest.MatchString(t)
	high, low := k.searchHigh.MatchString(t), k.searchLow.MatchString(t)
	best, worst := k.searchBest.MatchString(t), k.searchWorst.MatchString(t)
	fewest := k.fewestCores.MatchString(t)
	s := Search{Limit: searchLimit, Over: "cells", Order: OrderDesc}
	threshold := p.threshold(r, &s)
	switch {
	case misses && (scope || r.x.wordCount <= 8):
	case scope && (high || low || best || worst || threshold || slowest):
	case threshold && fewest:
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
	case misses:
		s.Metric, s.Order, s.Over = "hit_rate", OrderAsc, "runs"
		s.Op, s.Value = "<", 1
	case threshold:
		// p.threshold set the metric and the order.
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
	if k.searchRuns.MatchString(t) {
		s.Over = "runs"
	}
	return p.searchPlan(r, s, nil), true
}

func orderFor(highFirst bool) Order {
	if highFirst {
		return OrderDesc
	}
	return OrderAsc
}

// threshold reads "reach 10M ops/s", "under 1 ms" or "over 5 ms" into
// the search and reports whether the question set one.
func (p *Planner) threshold(r reading, s *Search) bool {
	if m := p.k.thresholdDown.FindStringSubmatch(r.text); m != nil {
		return latencyThreshold(r, s, m, "<=", OrderAsc)
	}
	if m := p.k.thresholdUpTime.FindStringSubmatch(r.text); m != nil && isLatencyMetric(r.metric()) {
		// Only a latency the question names: "runs that lasted over 60
		// s" asks how long a run took, not a percentile.
		return latencyThreshold(r, s, m, ">=", OrderDesc)
	}
	for _, m := range p.k.thresholdUp.FindAllStringSubmatchIndex(r.text, -1) {
		num := r.text[m[2]:m[3]]
		mult := ""
		if m[4] >= 0 {
			mult = r.text[m[4]:m[5]]
		}
		after := strings.TrimSpace(r.text[m[1]:])
		if notThroughput(after) {
			continue // "at least 16 cores", "over 1 KB"
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		switch mult {
		case "m", "million", "mil":
			v *= 1e6
		case "k", "thousand":
			v *= 1e3
		}
		s.Metric = defaultOr(r.metric(), defaultMetric)
		if s.Metric == "hit_rate" && v > 1 {
			v /= 100
		}
		if lowerIsBetter(s.Metric) {
			return false
		}
		s.Op, s.Value, s.Order = ">=", v, OrderDesc
		return true
	}
	return false
}

// latencyThreshold sets a threshold on the question's latency metric (p99
// when it names none) from a match of a number and its time unit.
func latencyThreshold(r reading, s *Search, m []string, op string, order Order) bool {
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return false
	}
	switch unit := m[2]; {
	case strings.HasPrefix(unit, "u"), strings.HasPrefix(unit, "µ"), strings.HasPrefix(unit, "μ"), strings.HasPrefix(unit, "micro"):
		v /= 1000
	case unit == "s" || strings.HasPrefix(unit, "sec"):
		v *= 1000
	}
	s.Metric = r.metric()
	if !isLatencyMetric(s.Metric) {
		s.Metric = "p99_ms"
	}
	s.Op, s.Value, s.Order = op, v, order
	return true
}

// notThroughput reports whether the words after a number make it a
// condition rather than a throughput ("16 cores", "1 KB", "10 keys").
func notThroughput(after string) bool {
	for _, w := range []string{"core", "cpu", "thread", "shard", "kb", "b ", "byte", "key", "ms", "%", "percent", "x ", "×", "time"} {
		if strings.HasPrefix(after, w) {
			return true
		}
	}
	return after == "b" || after == "x"
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
	if s.Over == "runs" && s.Op != "" {
		// The runs that pass, as a filter of their own: the scope is
		// counted from the first query, the matches from the second.
		match = strings.Join(append(slices.Clone(parts), s.Metric+" "+s.Op+" "+strconv.FormatFloat(s.Value, 'f', -1, 64)), " && ")
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
	what := metricPhrase(s.Metric)
	if s.Metric == "hit_rate" && s.Op == "<" {
		return searchCondition(s) + ", lowest hit rate first"
	}
	ext := "the highest "
	if s.Order == OrderAsc {
		ext = "the lowest "
	}
	if s.Op != "" {
		cond := searchCondition(s)
		if s.FewestCores {
			return "the setups with " + cond + ", fewest cores first"
		}
		return "the setups with " + cond + ", " + strings.TrimSpace(ext) + " first"
	}
	return ext + what
}

// searchCondition is a search's threshold as the question set it ("p99
// latency (ms) > 5 ms").
func searchCondition(s Search) string {
	if s.Metric == "hit_rate" && s.Op == "<" {
		return "runs with cache misses (hit rate below 100%)"
	}
	return metricPhrase(s.Metric) + " " + s.Op + " " + thresholdText(s.Metric, s.Value)
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
		case "did", "does", "do", "has", "have", "was", "were", "is", "are", "so", "ok", "hey", "and", "please", "show", "list", "me", "give", "find", "the", "all":
			continue // an opener before the subject
		case "which", "what", "who", "anything", "any", "something", "everything", "runs", "cells", "configs", "configurations", "setups", "combinations":
			return i < 6
		}
		return false
	}
	return false
}

// asksThreshold reports a threshold asked of the set of runs ("what
// cleared 5M?"): the figure alone is the benchmark's domain.
func (p *Planner) asksThreshold(r *reading) bool {
	return r.asksForASet() && (p.k.thresholdUp.MatchString(r.text) || p.k.thresholdDown.MatchString(r.text) ||
		p.k.thresholdUpTime.MatchString(r.text) && isLatencyMetric(r.metric()))
}
