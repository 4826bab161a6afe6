package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// correction replaces one slot of the thread's last plan ("sorry, I meant
// Valkey", "no — Valkey", "make that 8 cores", "not p99, p99.9") and plans
// it again; Corrected says what changed. Values written after "not" (or
// "instead of") are the ones being replaced.
func (p *Planner) correction(r reading, prev *Plan) (Plan, bool) {
	if prev == nil {
		return Plan{}, false
	}
	lead := p.k.correctionLead.FindString(r.text)
	if lead == "" && !strings.HasPrefix(r.text, "not ") {
		return Plan{}, false // "not p99, p99.9" is a correction by its own shape
	}
	rest := strings.TrimSpace(r.text[len(lead):])
	if rest == "" || len(strings.Fields(rest)) > 6 && !p.k.correctionExplicit.MatchString(lead) {
		return Plan{}, false // "actually, how does Valkey scale?" is a question of its own
	}
	base := threadBase(prev)
	switch base.Intent {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentMemory, IntentFailover, IntentNoData:
	default:
		return Plan{}, false
	}
	if base.Intent == IntentNoData && base.Requested == "" {
		return Plan{}, false
	}
	// Split the fragment into what it asks for and what it takes back.
	fresh, dropped := rest, ""
	if loc := p.k.notThis.FindStringIndex(rest); loc != nil {
		// "not p99, p99.9" / "valkey, not redis" / "8 cores instead of 16"
		after := rest[loc[1]:]
		before := strings.TrimSpace(rest[:loc[0]])
		if before == "" {
			// "not p99, p99.9": the first item after "not" is dropped.
			head, tail, ok := strings.Cut(after, ",")
			if !ok {
				head, tail, _ = strings.Cut(after, " but ")
			}
			dropped, fresh = head, tail
		} else {
			fresh, dropped = before, after
		}
	}
	nx := p.g.extract(fresh)
	ox := p.g.extract(dropped)
	if n, err := strconv.Atoi(strings.Trim(fresh, " ?!.")); err == nil && !nx.hasKnobValue() && len(nx.engines) == 0 {
		// "no, 16": a bare number sets the knob the thread varies, else
		// the cores.
		switch base.Slots.Knob {
		case slotPipeline:
			nx.pipelines = []int{n}
		case slotValue:
			nx.values = []int{n}
		default:
			nx.cores = []int{n}
		}
	}
	w := fromPlan(base)
	w.question = r.question
	var changed []string
	change := func(slot, from, to string) {
		changed = append(changed, fmt.Sprintf("%s: %s → %s", slot, from, to))
	}
	if len(nx.engines) > 0 {
		var to []string
		for _, e := range nx.engines {
			to = append(to, e.value)
		}
		from := slices.Clone(base.Slots.Engines)
		switch {
		case len(from) <= 1 || len(to) >= len(from):
			w.engines = to
		default:
			// Replace the engine taken back, or else the last one named.
			drop := len(from) - 1
			for _, e := range ox.engines {
				if i := slices.Index(from, e.value); i >= 0 {
					drop = i
				}
			}
			w.engines = slices.Clone(from)
			w.engines[drop] = to[0]
			from = []string{from[drop]}
		}
		w.modes, w.modeFor, w.modesGeneric = nx.explicitModes(), nil, false
		change("engine", namesOf(from), namesOf(to))
	}
	if len(nx.cores) > 0 {
		change("cores", intsOr(base.Slots.Cores, "the default"), joinInts(nx.cores))
		w.cores, w.coresRange = slices.Clone(nx.cores), nx.coresRange
		if w.intent == IntentScaling && len(w.cores) == 1 {
			// "make that 16 cores" after a scaling answer: that point.
			w.intent, w.knob = IntentLookup, ""
		}
	}
	if len(nx.ratios) > 0 {
		change("workload", ratioOr(base.Slots.Ratio), ratioPhrase(nx.ratios[0]))
		w.ratios = slices.Clone(nx.ratios)
	}
	if len(nx.values) > 0 {
		change("value size", valueOr(base.Slots.ValueBytes), valuePhrase(nx.values[0]))
		w.values = slices.Clone(nx.values)
	}
	if len(nx.pipelines) > 0 {
		change("pipeline", intOr(base.Slots.Pipeline), strconv.Itoa(nx.pipelines[0]))
		w.pipelines = slices.Clone(nx.pipelines)
	}
	if nx.session != 0 {
		change("session", intOr(base.Slots.Session), strconv.Itoa(nx.session))
		w.session = nx.session
	}
	if m := firstMetric(nx.metrics, ox.metrics); m != "" {
		change("metric", metricPhrase(defaultOr(base.Slots.Metric, defaultMetric)), metricPhrase(m))
		w.metric = m
	}
	if len(changed) == 0 {
		return Plan{}, false
	}
	if w.intent == "" {
		w.intent = IntentLookup
	}
	pl := p.planWant(w)
	pl.Question = r.question
	pl.Corrected = changed
	pl.Interpretation = "Corrected (" + strings.Join(changed, "; ") + "): " + pl.Interpretation
	// A correction of a recommendation or a repetitions question stays one.
	if prev.Intent == IntentRecommend || prev.Intent == IntentSpread {
		if pl.Intent == base.Intent {
			pl.Requested, pl.Intent = pl.Intent, prev.Intent
		}
	}
	return pl, true
}

// firstMetric is the first metric of the fragment that is not taken back.
func firstMetric(asked, dropped []string) string {
	for _, m := range asked {
		if !slices.Contains(dropped, m) {
			return m
		}
	}
	return ""
}

func namesOf(engines []string) string {
	if len(engines) == 0 {
		return "every engine"
	}
	var out []string
	for _, e := range engines {
		out = append(out, engineName(e))
	}
	return joinAnd(out)
}

func intsOr(ns []int, def string) string {
	if len(ns) == 0 {
		return def
	}
	return joinInts(ns)
}

func intOr(n int) string {
	if n == 0 {
		return "the default"
	}
	return strconv.Itoa(n)
}

func ratioOr(r string) string {
	if r == "" {
		return "the default"
	}
	return ratioPhrase(r)
}

func valueOr(v int) string {
	if v == 0 {
		return "the default"
	}
	return valuePhrase(v)
}

func defaultOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
