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
	asked := r.setupFacts()
	if len(asked) == 0 && !k.provenance.MatchString(t) {
		return Plan{}, false
	}
	if len(r.x.engines) > 0 && r.x.hasKnobValue() && !slices.ContainsFunc(strings.Fields(t), questionOpener) {
		return Plan{}, false // "memtier valkey 24c": the figures of a cell, the tool only named as their source
	}
	if len(r.x.engines) > 0 && r.x.hasKnobValue() && slices.ContainsFunc(strings.Fields(t), performs) && !k.provenance.MatchString(t) &&
		!slices.ContainsFunc(asked, func(f string) bool { return f != "server" }) {
		// "what does a single redis instance do on 16 cores?": the
		// engine's figures; "instance" is its process, not the server.
		return Plan{}, false
	}
	if p.asksThreshold(&r) {
		return Plan{}, false // "which runs used more than 32 client threads" asks for the runs: a search
	}
	if len(r.x.metrics) > 0 && !k.provDuration.MatchString(t) && !k.provReps.MatchString(t) {
		return Plan{}, false // "which version had the best p99?" ranks
	}
	if k.spread.MatchString(t) && (len(r.x.engines) > 0 && r.x.hasKnobValue() || prev != nil && len(prev.Queries) > 0 && len(r.x.engines) == 0 && !r.x.hasKnobValue()) {
		if !k.provClient.MatchString(t) && !k.provServer.MatchString(t) && !k.provDates.MatchString(t) {
			return Plan{}, false // repetitions of a cell: spread
		}
	}
	// The setup and glossary entries also carry "what hardware was
	// used?", "what is memtier?", "how many reps per run?".
	ord, ok := p.ordinary(r.question, prev)
	if ord.Intent == IntentFailover || ord.Intent == IntentMemory || ord.Intent == IntentClaim || ord.Requested == IntentFailover {
		return Plan{}, false // "how long does a failover take?" is the failover table
	}
	topics := p.provTopics(t)
	if len(asked) > 0 {
		// "what version of valkey was tested", "how many shards at 48
		// cores", "how many connections": a recorded fact of the runs,
		// answered with its citation even where a glossary entry carries
		// it too. A question the setup entries answer whole keeps their
		// answer (it is provenance, told from those entries).
		for _, a := range asked {
			topics = appendUnique(topics, a)
		}
		if ok && ord.Intent == IntentHelp && strings.HasPrefix(ord.Slots.TermID, "setup:") && !slices.Contains(topics, "client") {
			ord.Intent, ord.Topics, ord.Source = IntentProvenance, topics, "rules"
			return ord, true
		}
		return p.provenanceOf(r, prev, topics), true
	}
	// Otherwise provenance takes the client machine, durations and dates,
	// and what the entries leave.
	if ok && (ord.Intent == IntentHelp || ord.Intent == IntentDefine || ord.Explain) {
		clientBox := k.provClient.MatchString(t) && k.provServer.MatchString(t) && !strings.Contains(t, "memtier")
		if !clientBox && !k.provDuration.MatchString(t) && !k.provDates.MatchString(t) {
			return Plan{}, false
		}
	}
	return p.provenanceOf(r, prev, topics), true
}

// provTopics are the provenance topics the words of a question name.
func (p *Planner) provTopics(t string) []string {
	k := p.k
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
	add(k.provSource.MatchString(t), "source")
	return topics
}

// provenanceOf plans a provenance answer on the topics, for the engines
// (or sessions) the question or, for a short follow-up, the thread names.
func (p *Planner) provenanceOf(r reading, prev *Plan, topics []string) Plan {
	t := r.text
	if len(topics) == 0 {
		topics = []string{"server", "client", "versions", "tool", "duration", "repetitions", "dates"}
	}
	engines := r.engines()
	if len(engines) == 0 && prev != nil && r.x.wordCount <= 10 && p.g.pronoun.MatchString(t) {
		engines = slices.Clone(prev.Slots.Engines) // "what box ran the client for that?"
	}
	cov := p.coverage()
	var sessions []int
	for _, e := range engines {
		for _, s := range sessionsOf(cov, e) {
			sessions = appendUnique(sessions, s)
		}
	}
	if r.x.session != 0 {
		sessions = []int{r.x.session}
	}
	if len(sessions) == 0 && len(engines) == 0 && prev != nil && prev.Intent == IntentProvenance && prev.Slots.Session != 0 && r.x.wordCount <= 10 {
		// "src of runs-session2-aws.csv? which repo?": a short provenance
		// question after one about a session asks about that session.
		sessions = []int{prev.Slots.Session}
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
	return pl
}

// performs reports a verb a question about an engine's figures asks with.
func performs(w string) bool {
	switch w {
	case "do", "does", "perform", "performs", "handle", "handles", "manage", "manages", "push", "pushes", "deliver", "delivers":
		return true
	}
	return false
}

// setupNouns map the words naming a part of the benchmark's setup onto
// the provenance topic that answers it.
var setupNouns = map[string]string{
	"version": "versions", "versions": "versions", "release": "versions", "releases": "versions",
	"hardware": "server", "machine": "server", "machines": "server", "instance": "server", "instances": "server",
	"box": "server", "boxes": "server", "cpu": "server", "cpus": "server", "processor": "server", "aws": "server",
	"ec2": "server", "vm": "server", "host": "server", "kernel": "versions", "os": "versions",
	"shards": "config", "shard": "config", "connections": "tool", "connection": "tool", "clients": "tool",
	"threads": "tool", "repetitions": "repetitions", "reps": "repetitions", "repeats": "repetitions",
	"keys": "tool", "keyspace": "tool", "build": "versions", "builds": "versions", "image": "versions", "images": "versions",
}

// setupFacts lists the provenance topics a question asks as a fact of the
// runs: "what/which <setup noun>" ("which memtier version", "what
// instance type ran this"), "how many <counted part>" ("how many shards
// at 48 cores", "how many connections"), "how long did each run last",
// "how was the redis cluster set up". A question asking what a word means
// ("what is a shard?") or ranking anything asks no fact.
func (r *reading) setupFacts() []string {
	var topics []string
	add := func(topic string) {
		if !slices.Contains(topics, topic) {
			topics = append(topics, topic)
		}
	}
	for _, t := range r.tags {
		if t.meaning == mKind && t.value == "define" || t.meaning == mRelation || t.meaning == mUnit || t.meaning == mWorkload {
			return nil
		}
	}
	for _, t := range r.toks {
		switch t.text {
		case "should", "recommend", "recommended", "pick", "choose", "buy", "best", "better", "ideal":
			return nil // advice ("what machine should I use"), not a fact of the runs
		}
	}
	for i := 0; i+1 < len(r.toks); i++ {
		w, next := r.toks[i].text, r.toks[i+1].text
		switch {
		case w == "how" && next == "many":
			// the counted part within three words ("how many client
			// connections", "how many redis shards")
			for j := i + 2; j < len(r.toks) && j <= i+4; j++ {
				if topic, ok := setupNouns[r.toks[j].text]; ok && topic != "server" && topic != "versions" {
					add(topic)
					break
				}
				if r.toks[j].text == "times" || r.toks[j].text == "runs" && j+1 < len(r.toks) && (r.toks[j+1].text == "per" || r.toks[j+1].text == "of" || r.toks[j+1].text == "for") {
					add("repetitions") // "how many runs per cell" ("how many runs are there" is the coverage)
					break
				}
			}
		case w == "how" && next == "long" && r.namesRepetitions():
			add("duration")
		case (w == "how" || w == "who") && (next == "was" || next == "were" || next == "did"):
			for j := i + 2; j < len(r.toks); j++ {
				switch r.toks[j].text {
				case "set", "setup", "configured", "config", "deployed", "tuned", "sized", "pinned":
					if j+1 >= len(r.toks) || r.toks[j].text != "set" || r.toks[j+1].text == "up" {
						add("config")
					}
				}
			}
		case w == "what" || w == "which":
			// the setup noun within five words ("what version of valkey",
			// "which memtier version", "what aws instance")
			for j := i + 1; j < len(r.toks) && j <= i+5; j++ {
				topic, ok := setupNouns[r.toks[j].text]
				if ok && (topic == "server" || topic == "versions") && !r.usageFollows(j) {
					add(topic)
					break
				}
			}
		}
	}
	return topics
}

// usageFollows reports a load word after token i ("CPU usage", "cpu
// load"): how busy a part was, which no run recorded, not what it was.
func (r *reading) usageFollows(i int) bool {
	if i+1 >= len(r.toks) {
		return false
	}
	switch r.toks[i+1].text {
	case "usage", "use", "utilization", "utilisation", "load", "percent", "%", "time", "busy":
		return true
	}
	return false
}
