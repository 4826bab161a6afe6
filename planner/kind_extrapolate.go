package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// extrapolation refuses a prediction ("what would Dragonfly do at 128
// cores?", "estimate Valkey with pipeline 64", "if we doubled the cores")
// by name: the unmeasured value is stated, and the plan's queries select
// each series' measured trend over that knob, which the answer shows up to
// the last measured point and never beyond. A prediction of a measured
// value is an ordinary question.
func (p *Planner) extrapolation(r reading, prev *Plan) (Plan, bool) {
	if !p.k.extrapolate.MatchString(r.text) {
		return Plan{}, false
	}
	cov := p.coverage()
	engines := r.engines()
	if len(engines) == 0 && prev != nil {
		engines = slices.Clone(prev.Slots.Engines)
	}
	if len(engines) == 0 {
		engines = knownEngines(cov)
	}
	var ss []analytics.SeriesCoverage
	for _, e := range engines {
		for _, s := range seriesOf(cov, e, r.x.session) {
			ss = append(ss, s.cov)
		}
	}
	if len(ss) == 0 {
		return Plan{}, false
	}
	knob, value := "", 0
	x := r.x
	measuredCores := allValues(ss, func(c analytics.SeriesCoverage) []int { return c.Cores })
	switch {
	case p.k.doubled.MatchString(r.text) && (strings.Contains(r.text, "core") || strings.Contains(r.text, "cpu") || strings.Contains(r.text, "thread")) &&
		len(x.cores)+len(x.leftover) < 2: // "doubling the cores from 8 to 16" states both ends
		base := defaultCores
		if len(x.cores) > 0 {
			base = x.cores[0]
		} else if prev != nil && len(prev.Slots.Cores) == 1 {
			base = prev.Slots.Cores[0]
		}
		knob, value = slotCores, base*2
		if strings.Contains(r.text, "tripl") {
			value = base * 3
		}
	default:
		for _, c := range x.cores {
			if !slices.Contains(measuredCores, c) {
				knob, value = slotCores, c
			}
		}
		for _, v := range x.pipelines {
			if !slices.Contains(allValues(ss, func(c analytics.SeriesCoverage) []int { return c.Pipelines }), v) {
				knob, value = slotPipeline, v
			}
		}
		for _, v := range x.values {
			if !slices.Contains(allValues(ss, func(c analytics.SeriesCoverage) []int { return c.ValueBytes }), v) {
				knob, value = slotValue, v
			}
		}
	}
	if knob == "" || knob == slotCores && slices.Contains(measuredCores, value) {
		return Plan{}, false
	}
	ratio := defaultRatio
	if len(x.ratios) > 0 {
		ratio = x.ratios[0]
	}
	pl := Plan{Intent: IntentNoData, Requested: IntentScaling, Question: r.question, Source: "rules"}
	if knob != slotCores {
		pl.Requested = IntentEffect
	}
	pl.Slots.Engines = engines
	pl.Slots.Knob = knob
	pl.Slots.Metric = defaultOr(r.metric(), defaultMetric)
	last := 0
	var measured []int // every measured value of the knob, across the series
	for _, s := range ss {
		if s.Mode == "cluster-sat" && !slices.Contains(x.explicitModes(), "cluster-sat") {
			continue // the ceiling was run at one setting; the realistic series shows the trend
		}
		parts := []string{`engine == ` + strconv.Quote(s.Engine)}
		if len(modesOf(seriesOf(cov, s.Engine, 0))) > 1 {
			parts = append(parts, `mode == `+strconv.Quote(s.Mode))
		}
		if len(sessionsOf(cov, s.Engine)) > 1 {
			parts = append(parts, "session == "+strconv.Itoa(s.Session))
		}
		have := knobValues(s, knob)
		if len(have) == 0 {
			continue
		}
		last = max(last, slices.Max(have))
		measured = append(measured, have...)
		if knob != slotCores {
			cores := defaultCores
			if len(x.cores) > 0 {
				cores = x.cores[0]
			}
			if !slices.Contains(s.Cores, cores) {
				cores = slices.Max(s.Cores)
			}
			parts = append(parts, "cores == "+strconv.Itoa(cores))
		}
		if slices.Contains(s.Ratios, ratio) {
			parts = append(parts, "ratio == "+strconv.Quote(ratio))
		}
		if knob != slotValue {
			parts = append(parts, "value_bytes == "+strconv.Itoa(firstOr(x.values, defaultValue)))
		}
		if knob != slotPipeline {
			parts = append(parts, "pipeline == "+strconv.Itoa(firstOr(x.pipelines, defaultPipeline)))
		}
		pl.Queries = append(pl.Queries, Query{Label: seriesLabel(s.Engine, s.Mode), Filter: strings.Join(parts, " && "),
			Metric: pl.Slots.Metric, Engine: s.Engine, Mode: s.Mode, Session: s.Session})
	}
	pl.Prediction = &Prediction{Knob: knob, Value: value, LastMeasured: last}
	what := knobValueWords(knob, value)
	why := fmt.Sprintf("the runs stop at %s, so there is no figure for it and none is extrapolated", knobValueWords(knob, last))
	if below, above, ok := around(measured, value); ok {
		// 32 cores between the measured 24 and 48: not beyond the runs.
		why = fmt.Sprintf("the nearest measured are %s and %s, and no figure is interpolated between them", knobValueWords(knob, below), knobValueWords(knob, above))
	}
	pl.Missing = []string{fmt.Sprintf("%s at %s was never measured — %s", namesOf(engines), what, why)}
	pl.Interpretation = "Prediction requested: " + metricPhrase(pl.Slots.Metric) + " of " + namesOf(engines) + " at " + what + " — not measured"
	return pl, true
}

// around finds the measured values either side of v, when v lies
// between two of them.
func around(measured []int, v int) (below, above int, ok bool) {
	below, above = -1, -1
	for _, m := range measured {
		if m < v && m > below {
			below = m
		}
		if m > v && (above < 0 || m < above) {
			above = m
		}
	}
	return below, above, below >= 0 && above >= 0
}

func firstOr(ns []int, def int) int {
	if len(ns) > 0 {
		return ns[0]
	}
	return def
}

// knobValueWords says a knob's value in words ("128 cores", "pipeline 64").
func knobValueWords(knob string, v int) string {
	switch knob {
	case slotCores:
		return strconv.Itoa(v) + " cores"
	case slotPipeline:
		return "pipeline " + strconv.Itoa(v)
	case slotValue:
		return valuePhrase(v) + " values"
	}
	return strconv.Itoa(v)
}
