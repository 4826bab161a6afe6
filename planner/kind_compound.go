package planner

import (
	"strconv"
	"strings"
)

// maxParts bounds how many asks one message is split into.
const maxParts = 4

// compound splits a message holding two or more asks ("What is pipelining?
// And how does Valkey scale?") and plans each in order; each later part
// continues the one before it, as a follow-up would. The split stands only
// when every part plans on its own as a question about the data.
func (p *Planner) compound(r reading, prev *Plan) (Plan, bool) {
	parts := p.splitAsks(r.question)
	if len(parts) < 2 {
		return Plan{}, false
	}
	if !p.k.compoundStrong.MatchString(r.text) {
		// Only "and": one ask the ordinary rules answer whole ("what is
		// Garnet's peak and how does it compare with Dragonfly's?") stays
		// one; a definition answers one half only, so it splits.
		if whole, ok := p.ordinary(r.question, prev); ok {
			switch whole.Intent {
			case IntentDefine, IntentHelp, IntentClarify, IntentOutOfScope:
			default:
				return Plan{}, false
			}
		}
	}
	var plans []Plan
	last := prev
	for _, part := range parts {
		pl, ok := p.planKindOf(part, last, false)
		if !ok {
			pl, ok = p.ordinary(part, last)
		}
		if !ok || !answerable(pl.Intent) {
			return Plan{}, false
		}
		pl.ThreadEngines = threadEngines(last, pl)
		plans = append(plans, pl)
		last = threadBase(&plans[len(plans)-1])
	}
	var reads []string
	for i, pl := range plans {
		reads = append(reads, strconv.Itoa(i+1)+") "+pl.Interpretation)
	}
	final := plans[len(plans)-1]
	return Plan{Intent: IntentCompound, Question: r.question, Source: "rules", Parts: plans,
		Slots:          final.Slots,
		Interpretation: strconv.Itoa(len(plans)) + " questions, answered in order: " + strings.Join(reads, "; ")}, true
}

// answerable reports whether a part's plan asks something of the data or
// the knowledge base (a split that leaves small talk or a clarify is no
// split).
func answerable(in Intent) bool {
	switch in {
	case IntentClarify, IntentChatter, IntentOutOfScope, IntentHelp, IntentCompound, "":
		return false
	}
	return true
}

// splitAsks cuts the question where a second ask begins. Each cut keeps the
// question word that starts the next ask; a part shorter than two words is
// no ask.
func (p *Planner) splitAsks(question string) []string {
	q := strings.TrimSpace(question)
	lower := strings.ToLower(q)
	if len(lower) != len(q) {
		q = lower // byte offsets must agree
	}
	var parts []string
	start := 0
	for _, m := range p.k.compoundJoin.re.FindAllStringIndex(lower, -1) {
		// The join ends at the next ask's first word; find where that word
		// starts inside the match.
		cut := m[1]
		for cut > m[0] && lower[cut-1] != ' ' {
			cut--
		}
		head := strings.TrimSpace(q[start:m[0]])
		if strings.HasPrefix(q[m[0]:], "?") {
			head += "?"
		}
		if len(strings.Fields(head)) < 2 {
			continue
		}
		parts = append(parts, head)
		start = cut
	}
	if len(parts) == 0 {
		return nil
	}
	tail := strings.TrimSpace(q[start:])
	if len(strings.Fields(tail)) < 2 {
		return nil
	}
	parts = append(parts, tail)
	if len(parts) > maxParts {
		return nil
	}
	return parts
}
