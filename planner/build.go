package planner

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Defaults when a question leaves a knob out (docs/design.md#data).
const (
	defaultRatio    = "1:10"
	defaultValue    = 100
	defaultPipeline = 16
	defaultCores    = 48
	defaultMetric   = "ops_per_sec"
	// runKeys is the keyspace of every single-process and realistic run
	// (FACTS.md [setup:workload]).
	runKeys = 1_000_000
)

// series is one measured (session, engine, mode) and its coverage.
type series struct {
	cov analytics.SeriesCoverage
}

func (s series) engine() string { return s.cov.Engine }
func (s series) mode() string   { return s.cov.Mode }

// candidate is one engine's series that may answer a request.
type candidate struct {
	engine    string
	ss        []series
	modeAsked bool // a mode was asked of this engine specifically
}

// problem is one requested value a series never measured.
type problem struct {
	s     series
	knob  string // "cores", "ratio", "value_bytes", "pipeline", "combination"
	value any
	// engineWide: every series of the engine asked has the problem.
	engineWide bool
}

// resolved is a measured-intent request after coverage: the series to
// query, the defaults applied and everything that is missing or dropped.
type resolved struct {
	w          want
	cov        []analytics.SeriesCoverage // read once per plan
	engines    []string                   // the engines considered, in answer order
	defaulted  []string                   // slot names
	cores      []int
	ratio      string
	value      int
	pipeline   int
	ok         []series
	missing    []string
	notes      []string
	nearestFor []analytics.CellKey
	// alsoNearest are cells the nearest rows must include whatever their
	// distance: a multi-key workload on the engines that ran it, the
	// measured side of a half-measured comparison.
	alsoNearest []analytics.CellKey
	// halfNearest are the measured engines' cells of a comparison missing
	// some of its engines.
	halfNearest []analytics.CellKey
	// fromClaim names the defaulted slots filled from a claim's measured
	// conditions rather than the usual defaults.
	fromClaim []string
}

// knownEngines lists the engines of the coverage in answer order.
func knownEngines(cov []analytics.SeriesCoverage) []string {
	var out []string
	for _, c := range cov {
		out = appendUnique(out, c.Engine)
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(engineRank(a), engineRank(b)) })
	return out
}

func seriesOf(cov []analytics.SeriesCoverage, engine string, session int) []series {
	var out []series
	for _, c := range cov {
		if c.Engine == engine && (session == 0 || c.Session == session) {
			out = append(out, series{c})
		}
	}
	return out
}

func modesOf(ss []series) []string {
	var out []string
	for _, s := range ss {
		out = appendUnique(out, s.mode())
	}
	return out
}

func sessionsOf(cov []analytics.SeriesCoverage, engine string) []int {
	var out []int
	for _, c := range cov {
		if c.Engine == engine {
			out = appendUnique(out, c.Session)
		}
	}
	slices.Sort(out)
	return out
}

// allValues collects one knob's values over a set of series, sorted.
func allValues[T cmp.Ordered](ss []analytics.SeriesCoverage, get func(analytics.SeriesCoverage) []T) []T {
	var out []T
	for _, s := range ss {
		for _, v := range get(s) {
			out = appendUnique(out, v)
		}
	}
	slices.Sort(out)
	return out
}

func allRatios(ss []analytics.SeriesCoverage) []string {
	var out []string
	for _, s := range ss {
		for _, v := range s.Ratios {
			out = appendUnique(out, v)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(ratioRank(a), ratioRank(b)) })
	return out
}

func ratioRank(r string) int {
	switch r {
	case "1:10":
		return 0
	case "1:1":
		return 1
	case "mget10":
		return 2
	case "mset10":
		return 3
	}
	return 4
}

// resolve decides, from coverage, which series a measured question can be
// answered from, applies the defaults, and names everything missing.
func (p *Planner) resolve(w want) resolved {
	cov := p.coverage()
	r := resolved{w: w, cov: cov}
	enginesGiven := len(w.engines) > 0
	r.engines = w.engines
	if !enginesGiven {
		for _, e := range knownEngines(cov) {
			if w.session == 0 || len(seriesOf(cov, e, w.session)) > 0 {
				r.engines = append(r.engines, e)
			}
		}
		r.defaulted = append(r.defaulted, slotEngines)
	}

	// Candidate series per engine, after session and mode; modeless are
	// engines whose asked mode was never run (their other knobs are still
	// checked, so every missing part is named).
	var cands, modeless []candidate
	for _, e := range r.engines {
		ss := seriesOf(cov, e, w.session)
		if len(ss) == 0 {
			if enginesGiven {
				if w.session != 0 && len(seriesOf(cov, e, 0)) > 0 {
					r.missing = append(r.missing, fmt.Sprintf("%s was measured only in session %s, not in session %d",
						engineName(e), joinInts(sessionsOf(cov, e)), w.session))
				} else {
					r.missing = append(r.missing, fmt.Sprintf("%s was never measured", engineName(e)))
				}
				r.nearestFor = append(r.nearestFor, analytics.CellKey{Engine: e})
			}
			continue
		}
		measured := modesOf(ss)
		asked := w.modeFor[e]
		if len(r.engines) == 1 && len(w.modes) > len(asked) {
			asked = w.modes // one engine: every mode named is its ("Redis realistic vs ceiling")
		}
		modeAsked := len(asked) > 0 && !w.modesGeneric
		if !modeAsked && len(w.modes) > 0 {
			if inter := intersect(w.modes, measured); len(inter) > 0 {
				asked = inter
			} else if len(r.engines) == 1 {
				asked, modeAsked = w.modes, true
			} else if !enginesGiven {
				continue // the mode was asked of the engines that have it
			}
		}
		if len(asked) > 0 {
			if inter := intersect(asked, measured); len(inter) > 0 {
				var keep []series
				for _, s := range ss {
					if slices.Contains(inter, s.mode()) {
						keep = append(keep, s)
					}
				}
				ss = keep
			} else {
				r.missing = append(r.missing, modeMissing(e, asked, measured))
				r.nearestFor = append(r.nearestFor, analytics.CellKey{Engine: e, Mode: asked[0]})
				modeless = append(modeless, candidate{engine: e, ss: ss})
				continue
			}
		}
		cands = append(cands, candidate{engine: e, ss: ss, modeAsked: modeAsked})
	}

	// Defaults (a claim's own measured conditions first, where it has them).
	at := w.claimAt
	r.cores = w.cores
	if len(w.cores) == 0 && w.intent != IntentScaling {
		r.cores = []int{p.defaultCores(cands, enginesGiven, w.session)}
		if at.Cores != 0 && at.Cores != r.cores[0] {
			r.cores = []int{at.Cores}
			r.fromClaim = append(r.fromClaim, slotCores)
		}
		r.defaulted = append(r.defaulted, slotCores)
	}
	r.ratio, r.value, r.pipeline = single(w.ratios), single(w.values), single(w.pipelines)
	if len(w.ratios) == 0 && w.knob != slotRatio {
		r.ratio = cmp.Or(at.Ratio, defaultRatio)
		if r.ratio != defaultRatio {
			r.fromClaim = append(r.fromClaim, slotRatio)
		}
		r.defaulted = append(r.defaulted, slotRatio)
	}
	if len(w.values) == 0 && w.knob != slotValue {
		r.value = cmp.Or(at.ValueBytes, defaultValue)
		if r.value != defaultValue {
			r.fromClaim = append(r.fromClaim, slotValue)
		}
		r.defaulted = append(r.defaulted, slotValue)
	}
	if len(w.pipelines) == 0 && w.knob != slotPipeline {
		r.pipeline = cmp.Or(at.Pipeline, defaultPipeline)
		if r.pipeline != defaultPipeline {
			r.fromClaim = append(r.fromClaim, slotPipeline)
		}
		r.defaulted = append(r.defaulted, slotPipeline)
	}

	// Check every candidate series against the request.
	var problems []problem
	for _, c := range cands {
		var good []series
		var bad []problem
		for _, s := range c.ss {
			if ps := p.check(s, r); len(ps) > 0 {
				bad = append(bad, ps...)
			} else {
				good = append(good, s)
			}
		}
		switch {
		case len(good) == 0 && (enginesGiven || c.modeAsked):
			problems = append(problems, bad...)
		case len(good) == 0:
			if why := droppedText(c.engine, bad); why != "" {
				r.notes = append(r.notes, why)
			}
		default:
			r.ok = append(r.ok, good...)
			for _, b := range bad {
				if c.modeAsked {
					problems = append(problems, b)
					continue
				}
				r.notes = appendUnique(r.notes, droppedText(c.engine, []problem{b}))
			}
		}
	}
	if len(r.ok) == 0 && len(problems) == 0 && len(r.missing) == 0 {
		// Nothing at all can answer and no engine was named: say why from
		// the problems every candidate shares (write-heavy was measured for
		// no engine; KeyDB's lack of 48 cores is beside the point then).
		var all []problem
		for _, c := range cands {
			for _, s := range c.ss {
				all = append(all, p.check(s, r)...)
			}
		}
		problems = sharedProblems(all, cands)
		if len(problems) == 0 {
			r.missing = append(r.missing, "no measured series matches that combination")
		}
	}
	for _, c := range modeless {
		// A value no series of the engine has is missing too.
		counts := map[string]int{}
		var first []problem
		for _, s := range c.ss {
			for _, pr := range p.check(s, r) {
				k := pr.knob + "\x00" + fmt.Sprint(pr.value)
				if counts[k] == 0 {
					first = append(first, pr)
				}
				counts[k]++
			}
		}
		for _, pr := range first {
			if counts[pr.knob+"\x00"+fmt.Sprint(pr.value)] == len(c.ss) && pr.knob != "combination" && pr.knob != "vary" {
				r.missing = appendUnique(r.missing, missingText(pr, cov, r.w))
			}
		}
	}
	for _, pr := range mergeBySeries(problems, cands) {
		r.missing = appendUnique(r.missing, missingText(pr, cov, r.w))
		mode := pr.s.mode()
		if pr.engineWide {
			mode = "" // every series of the engine has the gap: any of them is as near
		}
		r.nearestFor = append(r.nearestFor, requestKey(pr.s.engine(), mode, r))
		r.alsoNearest = append(r.alsoNearest, p.multiKeyElsewhere(pr, r)...)
	}
	if len(r.missing) > 0 {
		r.halfNearest = p.measuredHalf(r)
	}
	return r
}

// sharedProblems keeps the problems (knob and value) every candidate
// engine has; when none is shared, all of them.
func sharedProblems(all []problem, cands []candidate) []problem {
	var out []problem
	for _, pr := range all {
		shared := true
		for _, c := range cands {
			if !slices.ContainsFunc(all, func(q problem) bool {
				return q.s.engine() == c.engine && q.knob == pr.knob && fmt.Sprint(q.value) == fmt.Sprint(pr.value)
			}) {
				shared = false
				break
			}
		}
		if shared {
			out = append(out, pr)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// multiKeyElsewhere returns, for a multi-key workload asked of a cluster
// (which cannot run it: CROSSSLOT), the same workload on the single-process
// engines of the same session — the measured alternative the sources name.
func (p *Planner) multiKeyElsewhere(pr problem, r resolved) []analytics.CellKey {
	v, _ := pr.value.(string)
	if pr.knob != slotRatio || (v != "mget10" && v != "mset10") || pr.s.mode() == "single" {
		return nil
	}
	var out []analytics.CellKey
	for _, c := range r.cov {
		if c.Mode != "single" || c.Session != pr.s.cov.Session || !slices.Contains(c.Ratios, v) {
			continue
		}
		k := requestKey(c.Engine, c.Mode, r)
		k.Session, k.Ratio = c.Session, v
		out = append(out, k)
	}
	return out
}

// measuredHalf returns, for a comparison that is missing only some of its
// engines, the cells the measured engines do have under the request, so
// the nearest rows show both sides.
func (p *Planner) measuredHalf(r resolved) []analytics.CellKey {
	if len(r.ok) == 0 || (r.w.intent != IntentCompare && r.w.intent != IntentClaim) || r.w.knob != "" || len(r.cores) != 1 {
		return nil
	}
	var out []analytics.CellKey
	for _, s := range r.ok {
		k := requestKey(s.engine(), s.mode(), r)
		k.Session = s.cov.Session
		out = append(out, k)
	}
	return out
}

// mergeBySeries folds a problem every candidate series of an engine shares
// into one engine-wide problem ("Redis was never run with MGET", not once
// per cluster series).
func mergeBySeries(problems []problem, cands []candidate) []problem {
	var out []problem
	done := map[string]bool{}
	for _, pr := range problems {
		key := pr.s.engine() + "\x00" + pr.knob + "\x00" + fmt.Sprint(pr.value)
		if done[key] {
			continue
		}
		n := 0
		for _, q := range problems {
			if q.s.engine() == pr.s.engine() && q.knob == pr.knob && fmt.Sprint(q.value) == fmt.Sprint(pr.value) {
				n++
			}
		}
		for _, c := range cands {
			if c.engine == pr.s.engine() && len(c.ss) > 1 && n == len(c.ss) {
				pr.engineWide = true
				done[key] = true
			}
		}
		out = append(out, pr)
	}
	return out
}

// single returns the only value of a list, or the zero value.
func single[T any](list []T) T {
	var zero T
	if len(list) == 1 {
		return list[0]
	}
	return zero
}

func intersect(a, b []string) []string {
	var out []string
	for _, v := range a {
		if slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// defaultCores is 48 where the engines have it; for named engines the
// largest core count every one of them was measured at (KeyDB: 16).
func (p *Planner) defaultCores(cands []candidate, enginesGiven bool, session int) int {
	if !enginesGiven && session == 0 {
		return defaultCores
	}
	var common []int
	for i, c := range cands {
		var cs []int
		for _, s := range c.ss {
			for _, n := range s.cov.Cores {
				cs = appendUnique(cs, n)
			}
		}
		if i == 0 {
			common = cs
			continue
		}
		var keep []int
		for _, n := range common {
			if slices.Contains(cs, n) {
				keep = append(keep, n)
			}
		}
		common = keep
	}
	if len(common) == 0 {
		return defaultCores
	}
	if slices.Contains(common, defaultCores) {
		return defaultCores
	}
	return slices.Max(common)
}

// check lists what a series never measured of the request.
func (p *Planner) check(s series, r resolved) []problem {
	w := r.w
	var ps []problem
	c := s.cov
	if w.coresRange && len(r.cores) == 2 {
		n := 0
		for _, v := range c.Cores {
			if v >= r.cores[0] && v <= r.cores[1] {
				n++
			}
		}
		if n < 2 {
			ps = append(ps, problem{s: s, knob: "cores_range", value: [2]int{r.cores[0], r.cores[1]}})
		}
	} else {
		for _, v := range r.cores {
			if !slices.Contains(c.Cores, v) {
				ps = append(ps, problem{s: s, knob: slotCores, value: v})
			}
		}
	}
	ratios, values, pipes := w.ratios, w.values, w.pipelines
	switch w.knob {
	case slotRatio:
		ratios = effectValues(w.ratios, defaultRatio)
	case slotValue:
		values = effectValues(w.values, defaultValue)
	case slotPipeline:
		pipes = effectValues(w.pipelines, defaultPipeline)
	}
	if r.ratio != "" && len(ratios) == 0 && w.knob != slotRatio {
		ratios = []string{r.ratio}
	}
	if r.value != 0 && len(values) == 0 && w.knob != slotValue {
		values = []int{r.value}
	}
	if r.pipeline != 0 && len(pipes) == 0 && w.knob != slotPipeline {
		pipes = []int{r.pipeline}
	}
	for _, v := range ratios {
		if !slices.Contains(c.Ratios, v) {
			ps = append(ps, problem{s: s, knob: slotRatio, value: v})
		}
	}
	for _, v := range values {
		if !slices.Contains(c.ValueBytes, v) {
			ps = append(ps, problem{s: s, knob: slotValue, value: v})
		}
	}
	for _, v := range pipes {
		if !slices.Contains(c.Pipelines, v) {
			ps = append(ps, problem{s: s, knob: slotPipeline, value: v})
		}
	}
	if len(ps) > 0 {
		return ps
	}
	// Each value exists on its own; the combination must too.
	key := analytics.CellKey{Session: c.Session, Engine: c.Engine, Mode: c.Mode, Ratio: r.ratio, ValueBytes: r.value, Pipeline: r.pipeline}
	switch w.knob {
	case slotRatio:
		key.Ratio = ""
	case slotValue:
		key.ValueBytes = 0
	case slotPipeline:
		key.Pipeline = 0
	}
	coreList := r.cores
	if w.coresRange || len(coreList) == 0 {
		coreList = []int{0}
	}
	for _, n := range coreList {
		key.Cores = n
		if !p.cov.Exists(key) {
			ps = append(ps, problem{s: s, knob: "combination", value: key})
			break
		}
	}
	if len(ps) > 0 {
		return ps
	}
	// An effect or scaling question needs two values of its knob.
	switch w.knob {
	case slotPipeline:
		if len(pick(c.Pipelines, pipes)) < 2 {
			ps = append(ps, problem{s: s, knob: "vary", value: slotPipeline})
		}
	case slotValue:
		if len(pick(c.ValueBytes, values)) < 2 {
			ps = append(ps, problem{s: s, knob: "vary", value: slotValue})
		}
	case slotRatio:
		if len(pick(c.Ratios, ratios)) < 2 {
			ps = append(ps, problem{s: s, knob: "vary", value: slotRatio})
		}
	case slotCores:
		cs := c.Cores
		if w.coresRange && len(r.cores) == 2 {
			cs = slices.DeleteFunc(slices.Clone(cs), func(v int) bool { return v < r.cores[0] || v > r.cores[1] })
		} else if len(r.cores) > 0 {
			cs = pick(cs, r.cores)
		}
		if len(cs) < 2 {
			ps = append(ps, problem{s: s, knob: "vary", value: slotCores})
		}
	}
	return ps
}

// pick keeps the measured values that were asked for (all when none were).
func pick[T comparable](measured, asked []T) []T {
	if len(asked) == 0 {
		return measured
	}
	var out []T
	for _, v := range measured {
		if slices.Contains(asked, v) {
			out = append(out, v)
		}
	}
	return out
}

// requestKey is the cell a request asks of one series, for nearest search.
func requestKey(engine, mode string, r resolved) analytics.CellKey {
	k := analytics.CellKey{Session: r.w.session, Engine: engine, Mode: mode, Ratio: r.ratio, ValueBytes: r.value, Pipeline: r.pipeline}
	if len(r.cores) > 0 {
		k.Cores = r.cores[0]
	}
	if k.Ratio == "" && len(r.w.ratios) > 0 {
		k.Ratio = r.w.ratios[len(r.w.ratios)-1]
	}
	if k.ValueBytes == 0 && len(r.w.values) > 0 {
		k.ValueBytes = r.w.values[len(r.w.values)-1]
	}
	if k.Pipeline == 0 && len(r.w.pipelines) > 0 {
		k.Pipeline = r.w.pipelines[len(r.w.pipelines)-1]
	}
	return k
}

// modeMissing says how an engine was run instead of the mode asked.
func modeMissing(engine string, asked, measured []string) string {
	s := fmt.Sprintf("%s was only run as %s, never as %s", engineName(engine), modePhrase(measured), modePhrase(asked))
	if why := whyMissing(engine, asked[0], "mode", asked[0]); why != "" {
		s += " (" + why + ")"
	}
	return s
}

// seriesName names a series in a sentence: the engine alone when it has
// one mode.
func seriesName(s series, cov []analytics.SeriesCoverage) string {
	if len(modesOf(seriesOf(cov, s.engine(), 0))) == 1 {
		return engineName(s.engine())
	}
	return shortSeries(s.engine(), s.mode())
}

// ownValues says, after a value no run had, the values the engine asked
// about was itself measured at, where they are fewer than every engine's
// ("32 cores were never measured — only 4, 8, 16, 24 and 48; KeyDB only
// 4, 8 and 16").
func ownValues[V comparable](name string, all, own []V, named bool, show func(V) string) string {
	if !named || len(own) == 0 || len(own) == len(all) {
		return ""
	}
	return "; " + name + " only " + joinMap(own, show)
}

// missingText is the sentence naming one missing part.
func missingText(pr problem, cov []analytics.SeriesCoverage, w want) string {
	e, m := pr.s.engine(), pr.s.mode()
	name := seriesName(pr.s, cov)
	mine := []analytics.SeriesCoverage{pr.s.cov}
	if pr.engineWide {
		name = engineName(e)
	}
	if pr.engineWide || len(modesOf(seriesOf(cov, e, 0))) == 1 {
		mine = nil
		for _, s := range seriesOf(cov, e, 0) {
			mine = append(mine, s.cov)
		}
	}
	with := func(s string) string {
		if why := whyMissing(e, m, pr.knob, pr.value); why != "" {
			return s + " (" + why + ")"
		}
		return s
	}
	switch pr.knob {
	case slotCores:
		v := pr.value.(int)
		all := allValues(cov, func(c analytics.SeriesCoverage) []int { return c.Cores })
		if !slices.Contains(all, v) {
			return fmt.Sprintf("%d cores were never measured — only %s", v, joinInts(all)) +
				ownValues(name, all, allValues(mine, func(c analytics.SeriesCoverage) []int { return c.Cores }), len(w.engines) > 0, strconv.Itoa)
		}
		return with(fmt.Sprintf("%s was never measured at %d cores — only %s", name, v, joinInts(allValues(mine, func(c analytics.SeriesCoverage) []int { return c.Cores }))))
	case "cores_range":
		v := pr.value.([2]int)
		return fmt.Sprintf("%s was measured at %s cores, not at two or more core counts between %d and %d", name,
			joinInts(allValues(mine, func(c analytics.SeriesCoverage) []int { return c.Cores })), v[0], v[1])
	case slotPipeline:
		v := pr.value.(int)
		all := allValues(cov, func(c analytics.SeriesCoverage) []int { return c.Pipelines })
		if !slices.Contains(all, v) {
			return fmt.Sprintf("pipeline %d was never measured — only %s", v, joinInts(all)) +
				ownValues(name, all, allValues(mine, func(c analytics.SeriesCoverage) []int { return c.Pipelines }), len(w.engines) > 0, strconv.Itoa)
		}
		return with(fmt.Sprintf("%s was never run at pipeline %d — only %s", name, v, joinInts(allValues(mine, func(c analytics.SeriesCoverage) []int { return c.Pipelines }))))
	case slotValue:
		v := pr.value.(int)
		all := allValues(cov, func(c analytics.SeriesCoverage) []int { return c.ValueBytes })
		if !slices.Contains(all, v) {
			return fmt.Sprintf("%s were never measured — only %s", valuePhrase(v), joinMap(all, valueShort)) +
				ownValues(name, all, allValues(mine, func(c analytics.SeriesCoverage) []int { return c.ValueBytes }), len(w.engines) > 0, valueShort)
		}
		return with(fmt.Sprintf("%s was measured only with %s values, never with %s", name,
			joinMap(allValues(mine, func(c analytics.SeriesCoverage) []int { return c.ValueBytes }), valueShort), valuePhrase(v)))
	case slotRatio:
		v := pr.value.(string)
		all := allRatios(cov)
		if !slices.Contains(all, v) {
			return fmt.Sprintf("%s was never measured — only %s", ratioPhrase(v), joinMap(all, ratioShort))
		}
		return with(fmt.Sprintf("%s was never run with %s — only %s", name, ratioPhrase(v), joinMap(allRatios(mine), ratioShort)))
	case "combination":
		k := pr.value.(analytics.CellKey)
		// Name the knobs the question set; defaults only when it set none.
		if w.given(slotCores) || w.given(slotRatio) || w.given(slotValue) || w.given(slotPipeline) {
			if !w.given(slotCores) {
				k.Cores = 0
			}
			if !w.given(slotRatio) {
				k.Ratio = ""
			}
			if !w.given(slotValue) {
				k.ValueBytes = 0
			}
			if !w.given(slotPipeline) {
				k.Pipeline = 0
			}
		}
		var parts []string
		if k.Cores != 0 {
			parts = append(parts, strconv.Itoa(k.Cores)+" cores")
		}
		if k.Ratio != "" {
			parts = append(parts, ratioPhrase(k.Ratio))
		}
		if k.ValueBytes != 0 {
			parts = append(parts, valuePhrase(k.ValueBytes))
		}
		if k.Pipeline != 0 {
			parts = append(parts, "pipeline "+strconv.Itoa(k.Pipeline))
		}
		return with(fmt.Sprintf("%s was never run with %s together", name, joinAnd(parts)))
	case "vary":
		knob := pr.value.(string)
		if n := len(knobValues(pr.s.cov, knob)); n >= 2 || knob == slotRatio && len(pr.s.cov.Ratios) >= 2 {
			// The series has the values; the question's own narrowed them
			// to one ("how does it scale at 48 cores?").
			return fmt.Sprintf("the question leaves only one %s of %s, so there is no change to show", knobPhrase(knob), name)
		}
		return fmt.Sprintf("%s was measured at only one %s, so the effect of changing it cannot be shown", name, knobPhrase(knob))
	}
	return name + " has no matching run"
}

// droppedText says why a series was left out of an answer that other
// series can give.
func droppedText(engine string, bad []problem) string {
	if len(bad) == 0 {
		return ""
	}
	pr := bad[0]
	label := shortSeries(pr.s.engine(), pr.s.mode())
	reason := ""
	switch pr.knob {
	case slotCores:
		reason = fmt.Sprintf("it has no %d-core runs", pr.value.(int))
	case "cores_range":
		reason = "it has too few core counts in that range"
	case slotPipeline:
		reason = fmt.Sprintf("it was never run at pipeline %d", pr.value.(int))
	case slotValue:
		reason = fmt.Sprintf("it was never run with %s", valuePhrase(pr.value.(int)))
	case slotRatio:
		reason = fmt.Sprintf("it was never run with %s", ratioPhrase(pr.value.(string)))
	case "combination":
		reason = "that combination was never run for it"
	case "vary":
		reason = fmt.Sprintf("it was measured at only one %s", knobPhrase(pr.value.(string)))
	}
	if why := whyMissing(engine, pr.s.mode(), pr.knob, pr.value); why != "" {
		reason += " — " + why
	}
	return fmt.Sprintf("%s is left out: %s.", label, reason)
}
