package planner

import (
	"strings"
	"unicode/utf8"
)

// maxEngineQuestion is the longest question read as an engine description;
// "Tell me about the KeyDB database" is short, so longer text goes to the rules.
const maxEngineQuestion = 80

// describeEngine plans a question asking what an engine is, before the
// other rules run; ok is false for every other question.
func (p *Planner) describeEngine(question string) (Plan, bool) {
	q := strings.TrimSpace(question)
	if q == "" || utf8.RuneCountInString(q) > maxEngineQuestion {
		return Plan{}, false
	}
	text := p.corrected(q)
	if !p.g.defineLead.MatchString(text) {
		return Plan{}, false
	}
	return p.enginePlan(question, text, p.extract(text))
}

// engineMarks are the punctuation around an engine's name in a request
// for its description.
var engineMarks = strings.NewReplacer("?", " ", "!", " ", ".", " ", "'s", " ", "'", " ", "\"", " ", ",", " ")

// engineFillers are words that may stand around an engine's name in a
// request for its description ("what is the Valkey database?").
var engineFillers = map[string]bool{"db": true, "database": true, "engine": true, "server": true, "exactly": true, "then": true, "the": true, "a": true, "an": true, "project": true}

// enginePlan reads "What is Valkey?" / "Tell me about KeyDB" — a question
// holding nothing but one engine's name after a describing lead — as a
// request for the engine's knowledge entry (Slots.TermID "engine:valkey").
// The plan also carries the lookup at the engine's defaults, so the answer
// can show its measured headline with conditions, filters and run IDs.
func (p *Planner) enginePlan(question, text string, x *parsed) (Plan, bool) {
	if len(x.engines) != 1 || x.allEngines || x.hasKnobValue() || len(x.metrics) > 0 || len(x.versions) > 0 || len(x.topics) > 0 {
		return Plan{}, false
	}
	if !p.g.defineLead.MatchString(text) {
		return Plan{}, false
	}
	m := p.g.defineLead.FindStringSubmatchIndex(text)
	if m == nil || m[2] < 0 {
		return Plan{}, false
	}
	e := x.engines[0]
	if e.start < m[2] || e.end > m[3] {
		return Plan{}, false
	}
	rest := text[m[2]:e.start] + " " + text[e.end:m[3]]
	for _, f := range strings.Fields(engineMarks.Replace(rest)) {
		if !engineFillers[f] {
			return Plan{}, false
		}
	}
	return p.engineEntry(question, text, x, e.value)
}

// engineEntry plans an engine's knowledge entry (define, term engine:…)
// with the lookup at its defaults as the measured headline.
func (p *Planner) engineEntry(question, text string, x *parsed, engine string) (Plan, bool) {
	w := p.fresh(x, text)
	w.question = question
	w.intent, w.knob, w.multiple, w.crossover, w.explain = IntentLookup, "", false, false, false
	pl := p.measuredPlan(w)
	if pl.Intent != IntentLookup {
		return Plan{}, false
	}
	id := "engine:" + engine
	pl.Intent = IntentDefine
	pl.Slots.TermID = id
	pl.Interpretation = "Description of " + engineName(engine) + " (" + id + "), with its measured headline: " + pl.Interpretation
	return pl, true
}
