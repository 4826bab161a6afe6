package planner

import (
	"cmp"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Slot names as Plan.Defaulted and Plan.Inherited list them (Slots' JSON
// names).
const (
	slotEngines   = "engines"
	slotModes     = "modes"
	slotCores     = "cores"
	slotRatio     = "ratio"
	slotValue     = "value_bytes"
	slotPipeline  = "pipeline"
	slotSession   = "session"
	slotMetric    = "metric"
	slotKnob      = "knob"
	slotDownAfter = "down_after_ms"
)

// want is a request being planned: what the question (and the thread)
// asked for, before coverage decides what can be answered.
type want struct {
	question string
	intent   Intent
	cued     bool // the intent came from the wording, not from a default

	engines []string
	modes   []string
	// modesGeneric: the modes come only from a bare "cluster", which
	// names Redis's or Valkey's kind of deployment rather than one series.
	modesGeneric bool
	modeFor      map[string][]string // modes written next to one engine's name
	// modeOrder is the specific modes in the order the question wrote
	// them: the first is the subject of "how much faster is X than Y".
	modeOrder []string

	cores      []int
	coresRange bool
	ratios     []string
	values     []int
	pipelines  []int
	session    int
	metric     string
	knob       string
	downAfter  int
	keys       int

	termID, claimID string
	claimTopic      string
	// claimAt holds the conditions a claim's measured counter-figures
	// share; they stand in for the defaults of knobs the question left out.
	claimAt  analytics.CellKey
	versions []version

	multiple, crossover, explain bool
	// worst ranks the other way round: "slowest", "worst p99", "lowest
	// throughput", "highest latency".
	worst bool

	notes     []string
	inherited []string
}

// given reports whether the question or the thread set a slot.
func (w *want) given(slot string) bool {
	switch slot {
	case slotEngines:
		return len(w.engines) > 0
	case slotModes:
		return len(w.modes) > 0
	case slotCores:
		return len(w.cores) > 0
	case slotRatio:
		return len(w.ratios) > 0
	case slotValue:
		return len(w.values) > 0
	case slotPipeline:
		return len(w.pipelines) > 0
	case slotSession:
		return w.session != 0
	case slotMetric:
		return w.metric != ""
	case slotKnob:
		return w.knob != ""
	case slotDownAfter:
		return w.downAfter != 0
	}
	return false
}

// fresh turns what the grammar found into a request with no thread context.
func (p *Planner) fresh(x *parsed, text string) want {
	w := want{
		cores:        slices.Clone(x.cores),
		coresRange:   x.coresRange,
		ratios:       slices.Clone(x.ratios),
		values:       slices.Clone(x.values),
		pipelines:    slices.Clone(x.pipelines),
		session:      x.session,
		downAfter:    x.downAfter,
		keys:         x.keys,
		versions:     x.versions,
		notes:        slices.Clone(x.notes),
		modes:        x.explicitModes(),
		modeOrder:    x.modeOrder(),
		modesGeneric: len(x.modes) > 0 && !slices.ContainsFunc(x.modes, func(m modeMention) bool { return m.specific }),
	}
	for _, e := range x.engines {
		w.engines = append(w.engines, e.value)
		if m := x.modesFor(e.value); len(m) > 0 {
			if w.modeFor == nil {
				w.modeFor = map[string][]string{}
			}
			w.modeFor[e.value] = m
		}
	}
	if len(x.metrics) > 0 {
		w.metric = x.metrics[0]
		// "fastest failover", "lowest memory": the measured table is the
		// subject, the speed word only how to rank it.
		for _, m := range []string{"outage_s", "bytes_per_key"} {
			if slices.Contains(x.metrics, m) {
				w.metric = m
				break
			}
		}
	}
	w.intent, w.knob, w.cued = p.classify(x, text, &w)
	if w.intent == IntentScaling && len(w.cores) == 1 && !w.coresRange {
		// "KeyDB's wall at 16 threads", "does Garnet plateau at 24 cores":
		// the count is a point on the curve, not the curve.
		w.cores = nil
	}
	if w.intent == IntentScaling && len(w.engines) != 1 {
		w.crossover = p.g.crossover.MatchString(text)
	}
	if w.knob == slotPipeline && x.pipelinedNote >= 0 {
		w.notes = slices.Delete(w.notes, x.pipelinedNote, x.pipelinedNote+1)
	}
	if w.intent == IntentCompare || w.intent == IntentEffect {
		w.multiple = p.g.multiple.MatchString(text)
	}
	w.worst = p.g.worstWord.MatchString(text) || !p.g.bestWord.MatchString(text) &&
		(lowerIsBetter(w.metric) && p.g.highWord.MatchString(text) && !p.g.lowWord.MatchString(text) ||
			!lowerIsBetter(cmp.Or(w.metric, defaultMetric)) && p.g.lowWord.MatchString(text) && !p.g.highWord.MatchString(text))
	if p.g.why.MatchString(text) {
		w.explain = true
	}
	return w
}

// classify picks the intent of a data question and, for effect and
// scaling, the knob it varies. cued is false when nothing in the wording
// chose the intent (a plain lookup).
func (p *Planner) classify(x *parsed, text string, w *want) (intent Intent, knob string, cued bool) {
	g := p.g
	switch w.metric {
	case "bytes_per_key":
		return IntentMemory, "", true
	case "outage_s":
		return IntentFailover, "", true
	}
	if w.downAfter != 0 {
		return IntentFailover, "", true
	}
	if len(w.cores) >= 2 || g.scaling.MatchString(text) {
		return IntentScaling, slotCores, true
	}
	// A knob with several values, or a knob named as a topic next to an
	// effect wording, is an effect question.
	multiKnob := ""
	switch {
	case len(w.pipelines) >= 2:
		multiKnob = slotPipeline
	case len(w.values) >= 2:
		multiKnob = slotValue
	case len(w.ratios) >= 2:
		multiKnob = slotRatio
	}
	topicKnob := ""
	switch {
	case x.topics["pipeline"] && len(w.pipelines) == 0:
		topicKnob = slotPipeline
	case x.topics["value_bytes"] && len(w.values) == 0:
		topicKnob = slotValue
	case x.topics["multi"]:
		topicKnob = slotRatio
	case x.topics["ratio"] && len(w.ratios) == 0 && g.effect.MatchString(text):
		topicKnob = slotRatio
	}
	effectWords := g.effect.MatchString(text) && g.effect.MatchString(withoutEngineDoes(text, w.engines))
	switch {
	case x.topics["multi"] && len(w.ratios) < 2:
		return IntentEffect, slotRatio, true
	case multiKnob != "":
		return IntentEffect, multiKnob, true
	case topicKnob != "" && (effectWords || len(w.engines) <= 1 && (g.compare.MatchString(text) || g.multiple.MatchString(text) || g.superlative.MatchString(text))):
		return IntentEffect, topicKnob, true
	case effectWords && len(w.pipelines) == 1:
		return IntentEffect, slotPipeline, true
	case effectWords && len(w.values) == 1:
		return IntentEffect, slotValue, true
	case effectWords && len(w.ratios) == 1:
		return IntentEffect, slotRatio, true
	}
	n := len(w.engines)
	switch {
	case n >= 2, x.allEngines, g.multiple.MatchString(text):
		return IntentCompare, "", true
	case n != 1 && (g.superlative.MatchString(text) || g.compare.MatchString(text)):
		return IntentCompare, "", true
	case n == 1 && len(w.modes) >= 2 && g.compare.MatchString(text):
		return IntentCompare, "", true // one engine's two series, against each other
	case n == 1:
		return IntentLookup, "", false
	case x.hasKnobValue() || len(x.metrics) > 0 || len(x.versions) > 0:
		return IntentCompare, "", false
	}
	return "", "", false
}

// withoutEngineDoes drops "what does <engine> do": asked of an engine
// ("what does valkey do unpipelined at 16 cores"), it asks for its figure,
// not for what a setting does.
func withoutEngineDoes(text string, engines []string) string {
	if len(engines) > 0 {
		// "Garnet on 8 cores: what did it do for an even mix?": the
		// pronoun is the engine named.
		engines = append(slices.Clone(engines), "it", "they", "that one", "this one")
	}
	for _, e := range engines {
		for _, verb := range []string{"does", "do", "did", "would"} {
			text = strings.ReplaceAll(text, "what "+verb+" "+e+" do", "")
		}
	}
	return text
}

// fromPlan rebuilds the request a previous plan answered: only the slots
// its question or thread set, not its defaults.
func fromPlan(prev *Plan) want {
	defaulted := func(slot string) bool { return slices.Contains(prev.Defaulted, slot) }
	s := prev.Slots
	w := want{question: prev.Question, explain: false, multiple: prev.Multiple, crossover: prev.Crossover}
	// A ranking the other way round than its metric's usual one stays so.
	w.worst = prev.Order != "" && (prev.Order == OrderAsc) != lowerIsBetter(cmp.Or(s.Metric, defaultMetric))
	w.intent = prev.Intent
	if prev.Intent == IntentNoData || prev.Intent == IntentClarify {
		w.intent = prev.Requested
	}
	if !defaulted(slotEngines) {
		w.engines = slices.Clone(s.Engines)
	}
	if !defaulted(slotModes) {
		w.modes = slices.Clone(s.Modes)
		// Both cluster series together are what a bare "cluster" asks for.
		w.modesGeneric = slices.Equal(s.Modes, []string{"cluster", "cluster-sat"})
	}
	if !defaulted(slotCores) {
		w.cores = slices.Clone(s.Cores)
		w.coresRange = s.CoresRange
	}
	if !defaulted(slotRatio) && s.Ratio != "" {
		w.ratios = []string{s.Ratio}
	}
	if !defaulted(slotValue) && s.ValueBytes != 0 {
		w.values = []int{s.ValueBytes}
	}
	if !defaulted(slotPipeline) && s.Pipeline != 0 {
		w.pipelines = []int{s.Pipeline}
	}
	if !defaulted(slotSession) {
		w.session = s.Session
	}
	if !defaulted(slotMetric) {
		w.metric = s.Metric
	}
	w.knob = s.Knob
	if !defaulted(slotDownAfter) {
		w.downAfter = s.DownAfterMs
	}
	return w
}
