package planner

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The kinds a language model may choose beyond the ordinary requests:
// search, recommend, spread and provenance. The model only names what the
// question asks (a metric, a threshold the question states, a direction,
// topics); the plan is built by the same code as the rules' plan for an
// equivalent question, and every number comes from the runs.

// llmThresholdOps are the comparisons a search threshold may use.
func llmThresholdOps() []string { return []string{">", ">=", "<", "<="} }

// llmTopics are the provenance topics, in the order the rules list them.
func llmTopics() []string {
	return []string{"server", "client", "versions", "tool", "duration", "repetitions", "dates", "config"}
}

// tableMetrics are read from measured tables in the knowledge base, not
// from the runs: no search, ranking or repetition reads them.
func tableMetrics() []string { return []string{"bytes_per_key", "outage_s"} }

// validateKindFields checks the fields of the newer kinds: each belongs to
// its intent only, and a kind that needs one (a search's metric and what
// it looks for) has it. A reply missing what its kind needs is rejected,
// never completed with a guess.
func (a llmAnswer) validateKindFields() error {
	searchFields := a.ThresholdOp != "" || a.Threshold != nil || a.Extreme != "" || a.Over != "" || a.FewestCores
	if searchFields && a.Intent != string(IntentSearch) {
		return fmt.Errorf("search fields on intent %q", a.Intent)
	}
	if len(a.Topics) > 0 && a.Intent != string(IntentProvenance) {
		return fmt.Errorf("topics on intent %q", a.Intent)
	}
	if len(a.Topics) > len(llmTopics()) {
		return fmt.Errorf("too many values")
	}
	for _, t := range a.Topics {
		if !slices.Contains(llmTopics(), t) {
			return fmt.Errorf("unknown topic %q", t)
		}
	}
	switch Intent(a.Intent) {
	case IntentSearch, IntentRecommend, IntentSpread, IntentProvenance:
	default:
		return nil
	}
	if a.Knob != "" || a.Term != "" || a.ClaimID != "" || a.DownAfterMs != 0 {
		return fmt.Errorf("knob, term, claim or down-after on intent %q", a.Intent)
	}
	if slices.Contains(tableMetrics(), a.Metric) {
		return fmt.Errorf("metric %q is a measured table, not a field of the runs (intent %q)", a.Metric, a.Intent)
	}
	switch Intent(a.Intent) {
	case IntentProvenance:
		if a.Metric != "" {
			return fmt.Errorf("a provenance question ranks no metric (%q)", a.Metric)
		}
	case IntentSearch:
		return a.validateSearch()
	}
	return nil
}

// validateSearch checks that a search says what it looks for, in range.
func (a llmAnswer) validateSearch() error {
	if a.Metric == "" {
		return fmt.Errorf("a search without a metric")
	}
	if (a.ThresholdOp == "") != (a.Threshold == nil) {
		return fmt.Errorf("a threshold needs both its comparison and its value")
	}
	if a.ThresholdOp == "" && a.Extreme == "" {
		return fmt.Errorf("a search without a threshold or an extreme")
	}
	if a.ThresholdOp != "" && !slices.Contains(llmThresholdOps(), a.ThresholdOp) {
		return fmt.Errorf("unknown threshold comparison %q", a.ThresholdOp)
	}
	if a.Extreme != "" && a.Extreme != "highest" && a.Extreme != "lowest" {
		return fmt.Errorf("unknown extreme %q", a.Extreme)
	}
	if a.Over != "" && a.Over != "cells" && a.Over != "runs" {
		return fmt.Errorf("unknown search unit %q", a.Over)
	}
	if a.FewestCores && a.Threshold == nil {
		return fmt.Errorf("fewest cores without a threshold to reach")
	}
	if a.Threshold != nil {
		limit := 1e10 // ops/s, ops/s per core, KB/s
		switch {
		case isLatencyMetric(a.Metric):
			limit = 1e6 // ms
		case a.Metric == "hit_rate":
			limit = 100 // percent
		}
		if v := *a.Threshold; v < 0 || v > limit {
			return fmt.Errorf("threshold %v out of range for %s", v, a.Metric)
		}
	}
	return nil
}

// checkParts checks a compound reply: two to maxParts asks, each a whole
// reply of its own that asks something of the data (no compound inside,
// no help, no "unclear"), and nothing beside them; parts on any other
// intent are rejected.
func (g *grammar) checkParts(a *llmAnswer, question string) error {
	if a.Intent != string(IntentCompound) {
		if len(a.Parts) > 0 {
			return fmt.Errorf("parts on intent %q", a.Intent)
		}
		return nil
	}
	if len(a.Parts) < 2 || len(a.Parts) > maxParts {
		return fmt.Errorf("a compound of %d parts (2 to %d)", len(a.Parts), maxParts)
	}
	if !reflect.DeepEqual(*a, llmAnswer{Intent: a.Intent, Parts: a.Parts}) {
		return fmt.Errorf("a compound carries its fields in its parts only")
	}
	for i := range a.Parts {
		part := &a.Parts[i]
		switch Intent(part.Intent) {
		case IntentCompound, IntentHelp, IntentOutOfScope, "unclear":
			return fmt.Errorf("part %d: intent %q is no ask of the data", i+1, part.Intent)
		}
		if err := g.checkLLM(part, question); err != nil {
			return fmt.Errorf("part %d: %w", i+1, err)
		}
	}
	return nil
}

// kindFromLLM plans a validated reply of the newer kinds through the
// rules' own construction; false when the reply names nothing to read
// (a spread of no cell, with no thread to continue). A reply that names
// no cells or conditions continues the thread as the rules' follow-ups
// do: a spread reads the repetitions of the thread's cells, a
// recommendation its conditions.
func (p *Planner) kindFromLLM(question string, a llmAnswer, prev *Plan) (Plan, bool) {
	switch Intent(a.Intent) {
	case IntentSearch:
		return p.searchPlan(a.reading(question), a.search(), nil), true
	case IntentRecommend:
		w := a.want(question)
		if !a.namesConditions() {
			w = withThreadConditions(w, prev)
		}
		return p.recommendOf(w), true
	case IntentSpread:
		if len(a.Engines) == 0 && !a.namesConditions() {
			return repetitionsOfThread(question, prev) // which cells' repetitions: the thread's, or none
		}
		w := a.want(question)
		w.intent = IntentCompare
		if len(w.engines) == 1 {
			w.intent = IntentLookup
		}
		return repetitionsOf(p.planWant(w)), true
	case IntentProvenance:
		return p.provenanceOf(a.reading(question), nil, slices.Clone(a.Topics)), true
	case IntentCompound:
		var plans []Plan
		var last *Plan
		for _, part := range a.Parts {
			pl, ok := p.fromLLM(question, part, prev)
			if !ok || !answerable(pl) {
				return Plan{}, false // one ask the model could not place: the whole reply is no reading
			}
			pl.Source, pl.UnboundReading = "llm", partReading(pl)
			pl.ThreadEngines = threadEngines(last, pl)
			plans = append(plans, pl)
			last = &plans[len(plans)-1]
		}
		return compoundOf(question, plans), true
	}
	return Plan{}, false
}

// search is the search a reply asks for: the order follows the extreme
// asked, else the threshold's direction; a hit-rate threshold in percent
// becomes the fraction the runs record.
func (a llmAnswer) search() Search {
	s := Search{Limit: searchLimit, Over: defaultOr(a.Over, "cells"), Metric: a.Metric, Order: OrderDesc, FewestCores: a.FewestCores}
	if a.Threshold != nil {
		s.Op, s.Value = a.ThresholdOp, *a.Threshold
		if s.Metric == "hit_rate" {
			s.Value /= 100
		}
		if strings.HasPrefix(s.Op, "<") {
			s.Order = OrderAsc
		}
	}
	switch a.Extreme {
	case "highest":
		s.Order = OrderDesc
	case "lowest":
		s.Order = OrderAsc
	}
	return s
}

// namesConditions reports a reply that states a condition of its own
// (cores, workload, value size, pipeline, session).
func (a llmAnswer) namesConditions() bool {
	return len(a.Cores) > 0 || a.Ratio != "" || a.ValueBytes != 0 || a.Pipeline != 0 || a.Session != 0
}

// want is the request a reply states, as the rules' want holds it.
func (a llmAnswer) want(question string) want {
	x := a.parsed()
	return want{
		question: question, intent: Intent(a.Intent), cued: true,
		engines: a.Engines, modes: a.Modes, cores: a.Cores, session: a.Session,
		ratios: x.ratios, values: x.values, pipelines: x.pipelines,
		metric: a.Metric, knob: a.Knob, downAfter: a.DownAfterMs,
	}
}

// reading is the question as the kind rules read it, with the reply's
// values standing for what the slot grammar would have extracted.
func (a llmAnswer) reading(question string) reading {
	return reading{question: question, x: a.parsed()}
}

// parsed is the reply's values as the slot grammar holds what it
// extracted.
func (a llmAnswer) parsed() *parsed {
	x := &parsed{cores: slices.Clone(a.Cores), session: a.Session, pipelinedNote: -1}
	for _, e := range a.Engines {
		x.engines = append(x.engines, mention{value: e})
	}
	for _, m := range a.Modes {
		x.modes = append(x.modes, modeMention{modes: []string{m}, specific: true})
	}
	if a.Ratio != "" {
		x.ratios = []string{a.Ratio}
	}
	if a.ValueBytes != 0 {
		x.values = []int{a.ValueBytes}
	}
	if a.Pipeline != 0 {
		x.pipelines = []int{a.Pipeline}
	}
	if a.Metric != "" {
		x.metrics = []string{a.Metric}
	}
	return x
}

// modelReadingLead opens the first line of every answer the language
// model read.
const modelReadingLead = "Read by the language model"

// modelReading is that opening: who read the question and, kept short
// so the answer still fits the line, what the model read that the
// answer's own figures do not state — a search's threshold verbatim, a
// recommendation's ranking metric, a provenance question's topics.
func modelReading(pl Plan) string {
	switch pl.Intent {
	case IntentSearch:
		if pl.Search != nil && pl.Search.Op != "" {
			return modelReadingLead + " as " + searchCondition(*pl.Search)
		}
		return modelReadingLead + " as a dataset-wide search"
	case IntentRecommend:
		return modelReadingLead + " as a recommendation on " + metricPhrase(defaultOr(pl.Slots.Metric, defaultMetric))
	case IntentSpread:
		return modelReadingLead + " as a question on repetitions"
	case IntentProvenance:
		return modelReadingLead + " as a question on how the runs were made (" + strings.Join(pl.Topics, ", ") + ")"
	case IntentCompound:
		return modelReadingLead + " as " + strconv.Itoa(len(pl.Parts)) + " questions"
	}
	return modelReadingLead
}

// partReading opens the line of one ask of a compound reply the model
// read: what the model read of it, the compound's own line having said
// who read it.
func partReading(pl Plan) string {
	r := strings.TrimPrefix(modelReading(pl), modelReadingLead)
	if r == "" {
		return ""
	}
	return "Read" + r
}
