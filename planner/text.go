package planner

import (
	"fmt"
	"strconv"
	"strings"
)

// Text renders the plan for people: one field per line, the queries with
// their filters verbatim, omitting empty fields. `memdb-oracle plan` prints
// it and the planner's golden tests compare it.
func (p Plan) Text() string {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	list := func(k string, vs []string) {
		for _, v := range vs {
			line(k, v)
		}
	}
	line("intent", string(p.Intent))
	line("requested", string(p.Requested))
	line("interpretation", p.Interpretation)
	line("slots", p.Slots.text())
	line("defaults", strings.Join(p.Defaults, "; "))
	line("defaulted", strings.Join(p.Defaulted, ", "))
	line("inherited", strings.Join(p.Inherited, ", "))
	if p.Explain {
		line("explain", "yes")
	}
	if p.Multiple {
		line("multiple", "yes")
	}
	if p.Crossover {
		line("crossover", "yes")
	}
	line("order", string(p.Order))
	for _, q := range p.Queries {
		line("query", q.Label)
		line("  filter", q.Filter)
		line("  metric", q.Metric)
	}
	list("missing", p.Missing)
	line("unmeasured", strings.Join(p.Unmeasured, ", "))
	for _, n := range p.Nearest {
		line("nearest", neighborText(n))
	}
	list("note", p.Notes)
	line("unbound", strings.Join(p.Unbound, "; "))
	line("unbound reading", p.UnboundReading)
	line("refusal", p.Refusal)
	list("option", p.Options)
	list("suggestion", p.Suggestions)
	line("source", p.Source)
	return b.String()
}

// text renders the slots that are set, in field order.
func (s Slots) text() string {
	var parts []string
	add := func(k, v string) {
		if v != "" && v != "0" {
			parts = append(parts, k+"="+v)
		}
	}
	add("engines", strings.Join(s.Engines, ","))
	add("modes", strings.Join(s.Modes, ","))
	cores := make([]string, len(s.Cores))
	for i, c := range s.Cores {
		cores[i] = strconv.Itoa(c)
	}
	sep := ","
	if s.CoresRange {
		sep = "-"
	}
	add("cores", strings.Join(cores, sep))
	add("ratio", s.Ratio)
	add("value_bytes", strconv.Itoa(s.ValueBytes))
	add("pipeline", strconv.Itoa(s.Pipeline))
	add("session", strconv.Itoa(s.Session))
	add("metric", s.Metric)
	add("knob", s.Knob)
	add("down_after_ms", strconv.Itoa(s.DownAfterMs))
	add("term", s.TermID)
	add("claim", s.ClaimID)
	add("versions", strings.Join(s.Versions, ","))
	return strings.Join(parts, " ")
}
