package planner

import "strings"

// recogniseChatter marks messages that ask the bot nothing: thanks,
// acknowledgements, laughter, "+1", emoji alone, and anything addressed to
// another person ("@sam what do you think?"). Chat adapters stay silent on
// them inside threads.
func (p *Planner) recogniseChatter(question string, r *reading, _ *Plan) (Plan, bool) {
	why := ""
	switch {
	case len(r.toks) > 0 && r.toks[0].kind == tokMention:
		why = "addressed to " + strings.TrimPrefix(r.toks[0].text, "@") + ", not to me"
	case !hasWordContent(question) && strings.Trim(question, " ?\t\n") != "":
		why = "no words, only symbols or emoji"
	case isChatter(r):
		why = "an acknowledgement, not a question"
	default:
		return Plan{}, false
	}
	return Plan{Intent: IntentChatter, Question: question, Source: "rules", Interpretation: "Not a question: " + why}, true
}

// isChatter reports a message made only of chatter and politeness words
// and punctuation, with at least one chatter word ("thanks!", "ok cool",
// "lol", "+1").
func isChatter(r *reading) bool {
	chatter := false
	covered := 0
	for _, t := range r.tags {
		switch t.meaning {
		case mChatter:
			chatter = true
		case mPolite:
		default:
			return false
		}
	}
	for i, t := range r.toks {
		if t.kind == tokPunct || r.tagged(i) {
			covered++
		}
	}
	return chatter && covered == len(r.toks)
}
