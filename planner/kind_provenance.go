package planner

import (
	"slices"
	"strconv"
	"strings"
)

// provenance plans questions about where the numbers come from: the
// server and client machines of each session, software versions, the load
// tool and its settings, run durations, repetitions and capture dates. The
// answer reads the knowledge base (with citations) and the runs' own
// fields; its queries select the runs of the sessions (or engines) asked.
func (p *Planner) provenance(r reading, prev *Plan) (Plan, bool) {
	k := p.k
	t := r.text
	if !k.provenance.MatchString(t) {
		return Plan{}, false
	}
	if len(r.x.metrics) > 0 && !k.provDuration.MatchString(t) && !k.provReps.MatchString(t) {
		return Plan{}, false // "which version had the best p99?" ranks
	}
	if k.spread.MatchString(t) && (len(r.x.engines) > 0 && r.x.hasKnobValue() || prev != nil && len(prev.Queries) > 0 && len(r.x.engines) == 0 && !r.x.hasKnobValue()) {
		if !k.provClient.MatchString(t) && !k.provServer.MatchString(t) && !k.provDates.MatchString(t) {
			return Plan{}, false // repetitions of a cell: spread
		}
	}
	// The setup and glossary entries already answer "what hardware was
	// used?", "what is memtier?", "how many reps per run?"; provenance
	// takes the client machine, durations and dates, and what they leave.
	ord, ok := p.ordinary(r.question, prev)
	if ord.Intent == IntentFailover || ord.Intent == IntentMemory || ord.Intent == IntentClaim || ord.Requested == IntentFailover {
		return Plan{}, false // "how long does a failover take?" is the failover table
	}
	if ok && (ord.Intent == IntentHelp || ord.Intent == IntentDefine || ord.Explain) {
		clientBox := k.provClient.MatchString(t) && k.provServer.MatchString(t) && !strings.Contains(t, "memtier")
		if !clientBox && !k.provDuration.MatchString(t) && !k.provDates.MatchString(t) {
			return Plan{}, false
		}
	}
	var topics []string
	add := func(ok bool, topic string) {
		if ok {
			topics = append(topics, topic)
		}
	}
	add(k.provServer.MatchString(t) && !strings.Contains(t, "client machine"), "server")
	add(k.provClient.MatchString(t), "client")
	add(k.provVersions.MatchString(t), "versions")
	add(k.provTool.MatchString(t), "tool")
	add(k.provDuration.MatchString(t), "duration")
	add(k.provReps.MatchString(t), "repetitions")
	add(k.provDates.MatchString(t), "dates")
	if len(topics) == 0 {
		topics = []string{"server", "client", "versions", "tool", "duration", "repetitions", "dates"}
	}
	engines := r.engines()
	if len(engines) == 0 && prev != nil && r.x.wordCount <= 10 && p.g.pronoun.MatchString(t) {
		engines = slices.Clone(prev.Slots.Engines) // "what box ran the client for that?"
	}
	cov := p.cov.Coverage()
	var sessions []int
	for _, e := range engines {
		for _, s := range sessionsOf(cov, e) {
			sessions = appendUnique(sessions, s)
		}
	}
	if r.x.session != 0 {
		sessions = []int{r.x.session}
	}
	if len(sessions) == 0 {
		for _, c := range cov {
			sessions = appendUnique(sessions, c.Session)
		}
	}
	slices.Sort(sessions)
	pl := Plan{Intent: IntentProvenance, Question: r.question, Source: "rules", Topics: topics}
	pl.Slots.Engines = engines
	if len(sessions) == 1 {
		pl.Slots.Session = sessions[0]
	}
	for _, s := range sessions {
		f := "session == " + strconv.Itoa(s)
		label := "session " + strconv.Itoa(s)
		var mine []string
		for _, e := range engines {
			if slices.Contains(sessionsOf(cov, e), s) {
				mine = append(mine, e)
			}
		}
		switch len(mine) {
		case 0:
		case 1:
			f = `engine == ` + strconv.Quote(mine[0]) + ` && ` + f
			label = engineName(mine[0]) + ", " + label
		default:
			f = `engine in ` + filterList(mine) + ` && ` + f
			label = namesOf(mine) + ", " + label
		}
		pl.Queries = append(pl.Queries, Query{Label: label, Filter: f, Metric: defaultMetric, Session: s})
	}
	who := "both sessions"
	if len(engines) > 0 {
		who = namesOf(engines)
	} else if len(sessions) == 1 {
		who = "session " + strconv.Itoa(sessions[0])
	}
	pl.Interpretation = "Provenance (" + strings.Join(topics, ", ") + ") of " + who + ", from the knowledge base and the runs' own fields"
	return pl, true
}
