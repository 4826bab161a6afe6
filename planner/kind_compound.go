package planner

import (
	"regexp"
	"slices"
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
	if r.defineTailStart() < len(r.toks) {
		return Plan{}, false // "redis cluster - what is it?": the tail asks about what came first
	}
	parts := p.splitAsks(r.question)
	if len(parts) < 2 {
		parts = p.splitTables(r.question, r.x, prev)
	}
	if len(parts) < 2 {
		parts = p.splitCells(r.question, r.x, prev)
	}
	if len(parts) < 2 {
		return Plan{}, false
	}
	for i := 1; i < len(parts); i++ {
		if statesContext(parts[i-1]) && refersBack(parts[i]) {
			// "Our provider only offers 32-core machines; what would
			// Dragonfly do on one of those?", "X's homepage says 25x; does
			// that hold up?": the ask takes up what the statement said —
			// one question, planned whole.
			return Plan{}, false
		}
	}
	for _, part := range parts {
		if p.condition(part) {
			// "no pipelining for us; best engine at 16 cores?", "redis at
			// 8c; it's false that pipelining was off": a part that only
			// states a condition of the other — one question, planned whole.
			return Plan{}, false
		}
	}
	if !p.k.compoundStrong.MatchString(r.text) {
		// Only "and": one ask the ordinary rules answer whole ("what is
		// Garnet's peak and how does it compare with Dragonfly's?") stays
		// one, unless one end asks for a definition ("… and what is a hash
		// tag?"), which the whole would answer without.
		first, _ := p.ordinary(parts[0], prev)
		last, _ := p.ordinary(parts[len(parts)-1], threadBase(&first))
		definesOne := first.Intent == IntentDefine || last.Intent == IntentDefine && len(strings.Fields(parts[len(parts)-1])) <= 8
		// "Dragonfly's throughput at 48 cores, and how much memory per
		// key?": two measured tables, which no one plan reads.
		twoTables := p.twoTables(first, last, parts[len(parts)-1])
		if whole, ok := p.ordinary(r.question, prev); ok && !definesOne && !twoTables && !ownCells(first, last) {
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
		if !ok && last != nil {
			// A part the thread so far cannot continue may stand alone.
			pl, ok = p.ordinary(part, nil)
		}
		if !ok && (pl.Intent == IntentFailover || pl.Intent == IntentMemory) {
			// "what's the failover time?" names no engine, yet its
			// measured table is the whole answer.
			ok = true
		}
		if !ok || !answerable(pl) {
			return Plan{}, false
		}
		if len(plans) > 0 && !p.k.anotherAsk.MatchString(p.g.normalize(part)) && qualifies(pl, plans[len(plans)-1]) {
			// "p99 of valkey at 16 cores? I think the realistic one",
			// "garnet for 1024 bytes, you have it? at 16 cores": the part
			// only qualifies the ask before it — one question, planned whole.
			return Plan{}, false
		}
		pl.ThreadEngines = threadEngines(last, pl)
		plans = append(plans, pl)
		last = threadBase(&plans[len(plans)-1])
	}
	return compoundOf(r.question, plans), true
}

// qualifies reports a part, planned as a follow-up of the part before it,
// that asks the same kind again and changes nothing that part stated: it
// restates it ("garnet at 16 cores? is that a floor?"), fills a setting
// the earlier part left to a default ("… you have it? at 16 cores"), or
// narrows its series to one ("I think the realistic one"). Changing a
// stated value ("dragonfly 1kb at 8 cores? and with 100 byte values?") is
// a second ask, as is any part a follow-up's marker opens ("how about with
// 1kb values?").
func qualifies(pl, before Plan) bool {
	if pl.Intent != before.Intent || pl.Requested != before.Requested {
		return false
	}
	a, b := pl.Slots, before.Slots
	stated := func(slot string) bool { return !slices.Contains(before.Defaulted, slot) }
	switch {
	case !slices.Equal(a.Engines, b.Engines) && len(b.Engines) > 0,
		!slices.Equal(a.Modes, b.Modes) && len(b.Modes) > 0 && // none: every series, which one narrows
			!(len(a.Modes) < len(b.Modes) && !slices.ContainsFunc(a.Modes, func(m string) bool { return !slices.Contains(b.Modes, m) })),
		!slices.Equal(a.Cores, b.Cores) && stated(slotCores),
		a.Ratio != b.Ratio && stated(slotRatio),
		a.ValueBytes != b.ValueBytes && stated(slotValue),
		a.Pipeline != b.Pipeline && stated(slotPipeline),
		a.Session != b.Session && stated(slotSession),
		a.Metric != b.Metric && stated(slotMetric),
		a.Knob != b.Knob, a.TermID != b.TermID, a.ClaimID != b.ClaimID,
		pl.Position != before.Position, pl.Limit != before.Limit:
		return false
	}
	return true
}

// ownCells reports two asks that each name their own engines and their
// own cell: "garnet 48c ops/s and keydb 16c p99" pairs each engine with
// its settings, where one plan over both engines and both settings would
// answer cells nobody asked for (KeyDB at 48 cores).
func ownCells(first, last Plan) bool {
	if len(first.Slots.Engines) == 0 || len(last.Slots.Engines) == 0 || !isDataPlan(&first) || !isDataPlan(&last) {
		return false
	}
	for _, e := range last.Slots.Engines {
		if slices.Contains(first.Slots.Engines, e) {
			return false
		}
	}
	stated := func(pl Plan, slot string) bool { return !slices.Contains(pl.Defaulted, slot) }
	for _, slot := range []string{slotCores, slotRatio, slotValue, slotPipeline, slotSession} {
		if stated(first, slot) != stated(last, slot) {
			// "dragonfly p99 and redis ops at 16 cores": a setting one side
			// states may be the whole question's.
			return false
		}
	}
	return stated(first, slotCores) && stated(last, slotCores) && !slices.Equal(first.Slots.Cores, last.Slots.Cores) ||
		stated(first, slotMetric) && stated(last, slotMetric) && first.Slots.Metric != last.Slots.Metric
}

// cellJoin is where a question may join asks of two cells without a
// question word: "and", a comma, a semicolon, "&", "+".
var cellJoin = regexp.MustCompile(`,?\s+and\s+|,\s+|;\s*|\s+\+\s+|\s+&\s+`)

// splitCells cuts a question at a join when its two sides each name their
// own engines and their own cell (ownCells): "garnet 48c ops/s and keydb
// 16c p99", "valkey 8c p99, dragonfly 24c ops".
func (p *Planner) splitCells(question string, x *parsed, prev *Plan) []string {
	if len(x.engines) < 2 || len(x.cores) < 2 && len(x.metrics) < 2 {
		return nil
	}
	for _, m := range cellJoin.FindAllStringIndex(question, -1) {
		a, b := strings.TrimSpace(question[:m[0]]), strings.TrimSpace(question[m[1]:])
		if len(strings.Fields(a)) < 2 || len(strings.Fields(b)) < 2 {
			continue
		}
		first, ok := p.ordinary(a, prev)
		if !ok {
			continue
		}
		second, ok := p.ordinary(b, threadBase(&first))
		if !ok {
			continue
		}
		if ownCells(first, second) {
			return []string{a, b}
		}
		if tail := sharedTail(b); tail != "" && !strings.Contains(a, tail) {
			// "dragonfly p99 and redis ops at 16 cores": the settings at the
			// end are both asks'.
			if first, ok := p.ordinary(a+" "+tail, prev); ok && ownCells(first, second) {
				return []string{a + " " + tail, b}
			}
		}
	}
	return nil
}

// sharedTail is the settings phrase that ends an ask, from the first
// preposition that opens one ("redis ops at 16 cores with pipeline 1" →
// "at 16 cores with pipeline 1"), or "".
func sharedTail(ask string) string {
	words := strings.Fields(ask)
	for i, w := range words {
		switch strings.ToLower(w) {
		case "at", "on", "with", "under", "using":
			if i > 0 {
				return strings.Join(words[i:], " ")
			}
		}
	}
	return ""
}

// tableJoin is where a question may join asks of two measured tables
// without a question word: ", and", "and also", "+", "&".
var tableJoin = regexp.MustCompile(`,\s+and\s+|\s+and also\s+|\s+\+\s+|\s+&\s+`)

// splitTables cuts a question at a join no question word follows when its
// two sides ask of different measured tables ("df 48c ops + bytes/key",
// "redis failover outage at down-after 5000, and redis bytes per key?"):
// the runs, the memory table and the failover lab each answer one.
func (p *Planner) splitTables(question string, x *parsed, prev *Plan) []string {
	if !slices.Contains(x.metrics, "bytes_per_key") && !slices.Contains(x.metrics, "outage_s") {
		return nil // the runs alone answer it: one table
	}
	for _, m := range tableJoin.FindAllStringIndex(question, -1) {
		a, b := strings.TrimSpace(question[:m[0]]), strings.TrimSpace(question[m[1]:])
		if len(strings.Fields(a)) < 2 || b == "" {
			continue
		}
		first, ok := p.ordinary(a, prev)
		if !ok {
			continue
		}
		if second, _ := p.ordinary(b, threadBase(&first)); p.twoTables(first, second, b) {
			return []string{a, b}
		}
	}
	return nil
}

// twoTables reports plans of two asks that read different measured tables,
// the later naming what it measures itself ("… and bytes per key?"; "and
// is it slower than valkey?" in a failover question only continues it).
func (p *Planner) twoTables(first, later Plan, laterText string) bool {
	da, db := datasetOf(&first), datasetOf(&later)
	if da == "" || db == "" || da == db {
		return false
	}
	t := p.g.normalize(laterText)
	named := p.extract(t).metrics
	switch db {
	case "memory":
		return slices.Contains(named, "bytes_per_key")
	case "failover":
		return slices.Contains(named, "outage_s")
	}
	// A measure of the runs by name: "slower" alone compares on the
	// table the question is about.
	return runsMeasure.MatchString(t)
}

// runsMeasure names a measure of the runs outright.
var runsMeasure = regexp.MustCompile(`\b(?:throughput|ops|ops/s|qps|latency|p50|p99|p99\.9|p999|ops per core|hit rate)\b`)

// compoundOf is the plan answering each ask's plan in order (the rules'
// split, or a language model's).
func compoundOf(question string, plans []Plan) Plan {
	var reads []string
	for i, pl := range plans {
		reads = append(reads, strconv.Itoa(i+1)+") "+pl.Interpretation)
	}
	final := plans[len(plans)-1]
	return Plan{Intent: IntentCompound, Question: question, Source: "rules", Parts: plans,
		Slots:          final.Slots,
		Interpretation: strconv.Itoa(len(plans)) + " questions, answered in order: " + strings.Join(reads, "; ")}
}

// answerable reports whether a part's plan asks something of the data or
// the knowledge base (a split that leaves small talk or a clarify is no
// split).
func answerable(pl Plan) bool {
	switch pl.Intent {
	case IntentHelp:
		return pl.Slots.TermID != "" // a setup question ("what hardware was used?")
	case IntentClarify, IntentChatter, IntentOutOfScope, IntentCompound, "":
		return false
	}
	return true
}

// splitAsks cuts the question where a second ask begins: after a question
// mark, a semicolon, "also,", "plus" or "second," (strong joins, after
// which any words may start the next ask), or at an "and" followed by a
// question word. A part shorter than two words is no ask.
func (p *Planner) splitAsks(question string) []string {
	q := strings.TrimSpace(question)
	lower := strings.ToLower(q)
	if len(lower) != len(q) {
		q = lower // byte offsets must agree
	}
	listed := false // "two questions: A, and B"
	if m := p.k.compoundLead.FindStringIndex(lower); m != nil {
		lead := strings.TrimSpace(lower[m[0]:m[1]])
		listed = !strings.Contains(lead, "first") && !strings.Contains(lead, "1") // "two things: A, and B"
		q, lower = q[m[1]:], lower[m[1]:]
	}
	type cut struct{ end, next int } // end of one part, start of the next
	var cuts []cut
	for _, m := range p.k.compoundStrongJoin.FindAllStringIndex(lower, -1) {
		end := m[0]
		if lower[m[0]] == '?' {
			end++ // the question mark stays with its ask
		}
		if strings.HasPrefix(lower[m[0]:], "two questions") {
			// "two questions: A, and B": the ", and " is the cut.
			j := strings.LastIndex(lower[m[0]:m[1]], ", and ")
			if j < 0 {
				continue
			}
			end = m[0] + j
		}
		cuts = append(cuts, cut{end, m[1]})
	}
	if listed {
		// The lead promised several asks: the last ", and " joins them,
		// else the last bare " and " ("two qs: redis p99 at 8c and valkey
		// at 16c").
		if j := strings.LastIndex(lower, ", and "); j > 0 {
			cuts = append(cuts, cut{j, j + len(", and ")})
		} else if j := strings.LastIndex(lower, " and "); j > 0 && len(cuts) == 0 {
			cuts = append(cuts, cut{j, j + len(" and ")})
		}
	}
	for _, m := range p.k.compoundJoin.FindAllStringIndex(lower, -1) {
		if lower[m[0]] == '?' || lower[m[0]] == ';' {
			continue // a strong join, taken above
		}
		next := m[1]
		for next > m[0] && lower[next-1] != ' ' {
			next--
		}
		cuts = append(cuts, cut{m[0], next})
	}
	if len(cuts) == 0 {
		if m := p.k.defineAnd.FindStringIndex(lower); m != nil {
			// "define ops per core and dragonfly's at 48": a definition and
			// a second ask joined by a bare "and".
			cuts = append(cuts, cut{m[1] - len(" and "), m[1]})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.end - b.end })
	var parts []string
	start := 0
	for _, c := range cuts {
		if c.end < start {
			continue
		}
		head := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(q[start:c.end]), ",.;"))
		if len(strings.Fields(head)) < 2 {
			continue
		}
		parts = append(parts, head)
		start = c.next
	}
	if len(parts) == 0 {
		return nil
	}
	tail := strings.TrimSpace(q[start:])
	if len(strings.Fields(tail)) < 2 && !strings.HasPrefix(tail, "at ") {
		// "… and at 48 cores?" is short but an ask; one word is not.
		if len(strings.Fields(tail)) < 1 || !strings.ContainsAny(tail, "0123456789") {
			return nil
		}
	}
	parts = append(parts, tail)
	if len(parts) > maxParts {
		return nil
	}
	return parts
}

// statesContext reports a part that asks nothing and tells something: no
// question mark, and the asker's own situation ("we run one Redis today",
// "our provider only offers 32-core machines") or what someone said ("the
// homepage says 25x"). "dragonfly throughput at 16 cores" is an ask.
func statesContext(part string) bool {
	if strings.Contains(part, "?") {
		return false
	}
	words := accountWords(part)
	if len(words) == 0 {
		return false
	}
	switch words[0].lower {
	case "we", "i", "our", "my", "us", "they", "their":
		return true
	}
	for _, w := range words {
		switch w.lower {
		case "says", "said", "claims", "claimed", "tells", "told", "promises", "promised", "advertises", "quotes", "reports", "mentions":
			return true
		}
	}
	return false
}

// refersBack reports a part with a word that takes up what came before:
// "that", "those", "it", "one of those", "like that".
func refersBack(part string) bool {
	for _, w := range accountWords(part) {
		switch w.lower {
		case "that", "this", "those", "these", "it", "such", "there":
			return true
		}
	}
	return false
}

// condition reports a part that asks nothing and only rules a setting in
// or out ("no 48 core boxes for us", "no pipelining here", "it's false
// that pipelining was off"): no question mark, no engine, a negation.
func (p *Planner) condition(part string) bool {
	if strings.Contains(part, "?") {
		return false
	}
	r := p.readTokens(part)
	if r.has(mEngine) {
		return false
	}
	for _, t := range r.tags {
		if t.meaning == mNegation || t.negated || strings.HasSuffix(t.value, "_off") {
			return true
		}
	}
	return false
}
