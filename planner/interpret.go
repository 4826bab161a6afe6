package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// interpret writes the one-line reading of a measured plan: what is
// measured, of which series, under which conditions, with the defaults and
// the slots kept from the thread said out loud.
func interpret(w want, r resolved, pl Plan) string {
	var names []string
	for _, q := range pl.Queries {
		names = append(names, shortSeries(q.Engine, q.Mode))
	}
	return sentence(w, headline(w, names), conditions(w, r, pl.Queries), pl)
}

// interpretNoData reads a plan that asked for something never measured.
func interpretNoData(w want, r resolved, pl Plan) string {
	var names []string
	for _, e := range r.engines {
		name := engineName(e)
		if m := w.modeFor[e]; len(m) > 0 {
			name += " (" + modeWords(m) + ")"
		} else if len(w.modes) > 0 && len(r.engines) == 1 {
			name += " (" + modeWords(w.modes) + ")"
		}
		names = append(names, name)
	}
	if len(w.engines) == 0 {
		names = []string{"every engine"}
	}
	return sentence(w, headline(w, names), conditions(w, r, nil), pl) + " — not measured"
}

func modeWords(modes []string) string {
	return joinMap(modes, func(m string) string {
		switch m {
		case "single":
			return "single process"
		case "cluster":
			return "realistic cluster"
		case "cluster-sat":
			return "fully driven ceiling"
		}
		return m
	})
}

func sentence(w want, head, cond string, pl Plan) string {
	s := head
	if cond != "" {
		s += ", " + cond
	}
	var tail []string
	if len(pl.Defaults) > 0 {
		tail = append(tail, "defaults: "+strings.Join(pl.Defaults, ", "))
	}
	if len(pl.Inherited) > 0 {
		tail = append(tail, "kept from the previous question: "+strings.Join(pl.Inherited, ", "))
	}
	if len(tail) > 0 {
		s += " (" + strings.Join(tail, "; ") + ")"
	}
	if w.explain {
		s = "Why: " + s
	}
	return s
}

func headline(w want, names []string) string {
	metric := metricPhrase(w.metric)
	switch w.intent {
	case IntentCompare:
		better := "highest"
		if lowerIsBetter(w.metric) != w.worst {
			better = "lowest"
		}
		if w.multiple {
			return fmt.Sprintf("How many times apart in %s: %s", metric, strings.Join(names, " vs "))
		}
		return fmt.Sprintf("Which has the %s %s: %s", better, metric, strings.Join(names, " vs "))
	case IntentScaling:
		if w.crossover {
			return fmt.Sprintf("Where the lines cross as cores grow, %s: %s", metric, strings.Join(names, " vs "))
		}
		return fmt.Sprintf("How %s scales with cores: %s", metric, joinAnd(names))
	case IntentEffect:
		return fmt.Sprintf("Effect of %s on %s: %s", knobPhrase(w.knob), metric, joinAnd(names))
	case IntentClaim:
		return fmt.Sprintf("Claim %s checked against %s: %s", w.claimID, metric, strings.Join(names, " vs "))
	}
	if !strings.HasPrefix(metric, "p") {
		metric = upperFirst(metric)
	}
	return fmt.Sprintf("%s of %s", metric, joinAnd(names))
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// conditions lists the knob values in force: the single values, the range
// a scaling question spans, the values an effect question compares.
func conditions(w want, r resolved, qs []Query) string {
	var parts []string
	switch {
	case w.intent == IntentScaling && w.coresRange && len(r.cores) == 2:
		parts = append(parts, fmt.Sprintf("from %d to %d cores", r.cores[0], r.cores[1]))
	case w.intent == IntentScaling && len(r.cores) == 0:
		var cores []int
		for _, s := range r.ok {
			for _, c := range s.cov.Cores {
				cores = appendUnique(cores, c)
			}
		}
		slices.Sort(cores)
		if len(cores) > 0 {
			parts = append(parts, "over "+joinInts(cores)+" cores")
		} else {
			parts = append(parts, "over every core count measured")
		}
	case len(r.cores) == 1:
		parts = append(parts, strconv.Itoa(r.cores[0])+" cores")
	case len(r.cores) > 1:
		parts = append(parts, joinInts(r.cores)+" cores")
	}
	if w.knob == slotRatio {
		if list := effectValues(w.ratios, defaultRatio); len(list) > 0 {
			parts = append(parts, joinMap(list, ratioPhrase)+" compared")
		} else {
			parts = append(parts, "every workload mix measured")
		}
	} else if r.ratio != "" {
		parts = append(parts, ratioPhrase(r.ratio))
	}
	if w.knob == slotValue {
		if list := effectValues(w.values, defaultValue); len(list) > 0 {
			parts = append(parts, joinMap(list, valuePhrase)+" compared")
		} else {
			parts = append(parts, "every value size measured")
		}
	} else if r.value != 0 {
		parts = append(parts, valuePhrase(r.value))
	}
	if w.knob == slotPipeline {
		if list := effectValues(w.pipelines, defaultPipeline); len(list) > 0 {
			parts = append(parts, "pipeline "+joinInts(list)+" compared")
		} else {
			parts = append(parts, "every pipeline depth measured")
		}
	} else if r.pipeline != 0 {
		parts = append(parts, "pipeline "+strconv.Itoa(r.pipeline))
	}
	var sessions []int
	for _, q := range qs {
		sessions = appendUnique(sessions, q.Session)
	}
	if w.session != 0 && len(sessions) == 0 {
		sessions = []int{w.session}
	}
	slices.Sort(sessions)
	switch len(sessions) {
	case 0:
	case 1:
		parts = append(parts, "session "+strconv.Itoa(sessions[0]))
	default:
		parts = append(parts, "sessions "+joinInts(sessions)+" (cross-session)")
	}
	return strings.Join(parts, ", ")
}

// neighborText describes a nearest cell without its numbers.
func neighborText(n analytics.Neighbor) string {
	s := fmt.Sprintf("%s, session %d, %d cores, %s, %s, pipeline %d", shortSeries(n.Engine, n.Mode), n.Session, n.Cores,
		ratioPhrase(n.Ratio), valuePhrase(n.ValueBytes), n.Pipeline)
	if len(n.Differs) > 0 {
		s += " (differs in " + strings.Join(n.Differs, ", ") + ")"
	}
	return s
}
