package compose

import (
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// readAs is the plan's interpretation as an answer shows it: a claim named
// by its title rather than its id, the defaults said once (the conditions
// the defaults filled are not listed a second time before them), and the
// slots kept from the thread in words. An interpretation the planner wrote
// in another shape is shown as it is.
func (b *Composer) readAs(p planner.Plan) string {
	s := p.Interpretation
	if id := p.Slots.ClaimID; id != "" {
		if c, ok := b.cfg.Knowledge.Claim(id); ok && c.Title != "" {
			s = strings.Replace(s, "Claim "+id+" checked against", c.Title+" — checked against", 1)
		}
	}
	if p.Intent == planner.IntentDefine {
		// The entry's id is cited in the sources; the reading names it.
		s = entryIDs().ReplaceAllString(s, "")
	}
	return defaultsOnce(s, p.Defaults)
}

// defaultsOnce rewrites "…, 48 cores, pipeline 16 (defaults: 48 cores,
// pipeline 16; kept from the previous question: engines)" as "…; defaults:
// 48 cores, pipeline 16; kept from the previous question: engines". The
// kept slots are read from the text: a "why?" keeps the previous
// interpretation, whose list may differ from the plan's.
func defaultsOnce(s string, defaults []string) string {
	const keptLabel = "kept from the previous question: "
	open := " (" + keptLabel
	if len(defaults) > 0 {
		open = " (defaults: " + strings.Join(defaults, ", ")
	}
	i := strings.LastIndex(s, open)
	if i < 0 {
		return s
	}
	head, rest := s[:i], s[i+len(open):]
	var kept string
	switch {
	case len(defaults) == 0:
		j := strings.Index(rest, ")")
		if j < 0 {
			return s
		}
		kept, rest = rest[:j], rest[j+1:]
	case strings.HasPrefix(rest, "; "+keptLabel):
		j := strings.Index(rest, ")")
		if j < 0 {
			return s
		}
		kept, rest = rest[len("; "+keptLabel):j], rest[j+1:]
	case strings.HasPrefix(rest, ")"):
		rest = rest[1:]
	default:
		return s
	}
	for _, d := range defaults {
		head = dropCondition(head, d)
	}
	out := head + rest
	if len(defaults) > 0 {
		out += "; defaults: " + strings.Join(defaults, ", ")
	}
	if kept != "" {
		slots := strings.Split(kept, ", ")
		for i, slot := range slots {
			slots[i] = slotWords(slot)
		}
		out += "; " + keptLabel + strings.Join(slots, ", ")
	}
	return out
}

// dropCondition removes one condition a default filled from the list of
// conditions: the default as written ("SET:GET 1:10 (read-heavy)"), else
// without its trailing remark ("session 1 (where Redis was measured)" is
// listed as "session 1").
func dropCondition(head, d string) string {
	cands := []string{d}
	if j := strings.LastIndex(d, " ("); j > 0 && strings.HasSuffix(d, ")") {
		cands = append(cands, d[:j])
	}
	for _, c := range cands {
		if strings.HasSuffix(head, ", "+c) {
			return strings.TrimSuffix(head, ", "+c)
		}
		if k := strings.Index(head, ", "+c+","); k >= 0 {
			return head[:k] + head[k+len(", "+c):]
		}
	}
	return head
}

// slotWords names a plan slot (its JSON name) for a reader.
func slotWords(slot string) string {
	switch slot {
	case "modes":
		return "series"
	case "ratio":
		return "SET:GET mix"
	case "value_bytes":
		return "value size"
	case "down_after_ms":
		return "down-after setting"
	case "knob":
		return "what is varied"
	}
	return slot
}
