package planner

import "strings"

// recogniseChatter marks messages that ask the bot nothing: thanks,
// acknowledgements, laughter, "+1", emoji alone, and anything addressed to
// another person ("@sam what do you think?"). Chat adapters stay silent on
// them inside threads.
func (p *Planner) recogniseChatter(question string, r *reading, prev *Plan) (Plan, bool) {
	why := ""
	switch {
	case len(r.toks) > 0 && r.toks[0].kind == tokMention:
		why = "addressed to " + strings.TrimPrefix(r.toks[0].text, "@") + ", not to me"
	case !hasWordContent(question) && strings.Trim(question, " ?\t\n") != "" && !(prev != nil && r.terseGap()):
		// "%?" after a comparison asks the gap in percent; alone it is noise.
		why = "no words, only symbols or emoji"
	case isChatter(r):
		why = "an acknowledgement, not a question"
	default:
		return Plan{}, false
	}
	return Plan{Intent: IntentChatter, Question: question, Source: "rules", Interpretation: "Not a question: " + why}, true
}

// isChatter reports a message that asks nothing: made only of chatter and
// politeness words and punctuation with at least one chatter word
// ("thanks!", "ok cool", "lol", "+1"), or an acknowledgement that opens
// the message followed by a short clause naming nothing of the domain and
// asking nothing ("thanks, that helps!", "perfect, exactly what I
// needed", "ah makes sense").
func isChatter(r *reading) bool {
	chatter, other := false, false
	for _, t := range r.tags {
		switch t.meaning {
		case mChatter:
			chatter = true
		case mPolite:
		case mEngine, mMode, mSetting, mWorkload, mMetric, mClaimant, mDomain, mUnit, mFailover, mClaimTopic, mFollowUp, mHelp, mKind:
			return false
		case mRelation:
			if t.value == "gap" || t.value == "multiple" { // "the ratio between the two" asks; "that helps" need not
				return false
			}
			other = true
		default:
			other = true
		}
	}
	if !chatter {
		return false
	}
	covered := 0
	for i, t := range r.toks {
		if t.kind == tokPunct || r.tagged(i) {
			covered++
		}
	}
	if covered == len(r.toks) && !other {
		return true
	}
	return (r.opensWithChatter() || r.closesWithChatter()) && len(r.toks) <= 24 && !r.asksSomething()
}

// closesWithChatter reports a message whose last word is an
// acknowledgement ("numbers reconcile with my notebook. ta", "gg ty").
func (r *reading) closesWithChatter() bool {
	last := len(r.toks) - 1
	for last >= 0 && r.toks[last].kind == tokPunct {
		last--
	}
	for _, t := range r.tags {
		if t.meaning == mChatter && t.to > last {
			return true
		}
	}
	return false
}

// opensWithChatter reports a first word that is an acknowledgement
// ("thanks", "ok", "perfect", "ah").
func (r *reading) opensWithChatter() bool {
	for _, t := range r.tags {
		if t.from == 0 && (t.meaning == mChatter || t.meaning == mPolite && r.toks[0].text != "can" && r.toks[0].text != "could") {
			return true
		}
	}
	return false
}

// asksSomething reports a question mark, or a clause that opens with a
// question word or a request ("ok, how do I …", "thanks, now compare …").
func (r *reading) asksSomething() bool {
	start := true
	for i, t := range r.toks {
		if t.text == "?" {
			return true
		}
		if t.kind == tokPunct {
			start = true
			continue
		}
		// "didn't know that", "can't complain": a negated auxiliary
		// without a question mark states, it does not ask.
		negatedAux := i+1 < len(r.toks) && r.toks[i+1].text == "not" && r.toks[i+1].start < t.end+4 && auxiliary(t.text)
		if start && questionOpener(t.text) && !negatedAux {
			return true
		}
		switch t.text {
		case "but", "and", "so", "now", "then", "also":
			start = true
		default:
			start = chatterWord(t.text)
		}
	}
	return false
}

// chatterWord is an acknowledgement a clause may open with before its
// question ("ok so how …").
func chatterWord(w string) bool {
	switch w {
	case "ok", "okay", "k", "cool", "thanks", "thx", "ty", "nice", "great", "ah", "oh", "hmm", "yes", "yeah", "well", "right":
		return true
	}
	return false
}

// auxiliary is a verb that opens a yes/no question.
func auxiliary(w string) bool {
	switch w {
	case "is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "will", "should":
		return true
	}
	return false
}

// questionOpener is a word that opens a question or a request.
func questionOpener(w string) bool {
	switch w {
	case "what", "whats", "how", "hows", "why", "when", "where", "which", "who", "whom", "whose", "can", "could", "would",
		"should", "is", "are", "was", "were", "do", "does", "did", "tell", "write", "give", "show", "explain",
		"compare", "list", "find", "translate", "summarise", "summarize", "recommend", "make", "book", "help", "i", "we",
		"let", "lets", "please", "any", "anything", "rank", "plot", "draw", "check", "calculate", "compute", "get", "fetch":
		return true
	}
	return false
}

// recogniseHelp reads a message made only of help words, politeness and
// punctuation ("usage?", "commands?", "halp", "help me pls") as asking
// what the bot can do.
func (p *Planner) recogniseHelp(question string, r *reading, _ *Plan) (Plan, bool) {
	if !r.has(mHelp) {
		return Plan{}, false
	}
	for i, t := range r.toks {
		if t.kind == tokPunct {
			continue
		}
		ok := false
		for _, tg := range r.tags {
			if i >= tg.from && i < tg.to && (tg.meaning == mHelp || tg.meaning == mPolite || tg.meaning == mChatter) {
				ok = true
				break
			}
		}
		if !ok {
			return Plan{}, false
		}
	}
	return p.helpPlan(question, ""), true
}
