package planner

import "strings"

// recogniseEngineTerm reads "what is a Redis Cluster?", "what's the
// Dragonfly cache_mode", "explain Redis Sentinel", "what is tsavorite in
// Garnet" as a definition: the glossary term decides the kind of answer
// even when its name, or the words around it, name an engine. The kind of
// question comes before its topic; a question that also names a metric,
// a number or a comparison is left to the slot grammar.
func (p *Planner) recogniseEngineTerm(question string, r *reading, _ *Plan) (Plan, bool) {
	// An engine may hide inside a claimant's name ("Redis Labs").
	if p.kb == nil || !r.has(mEngine) && !r.has(mClaimant) || len(p.tix().entries) == 0 {
		return Plan{}, false
	}
	lead, end := r.defineLeadEnd(), len(r.toks)
	if lead == 0 {
		if end = r.defineTailStart(); end < len(r.toks) {
			lead = -2 // asked by its tail: counts as a lead below
		}
	}
	if lead == -1 || end == 0 {
		return Plan{}, false
	}
	asked := lead != 0
	lead = max(lead, 0)
	id, alias := p.tix().find(r.text[r.toks[min(lead, len(r.toks)-1)].start:])
	from, to, ok := r.span(alias, lead)
	if id == "" || !ok {
		// No alias word for word ("a valkey io thread"): the words left
		// once the engine and fillers are set aside, looked up as a term
		// (the glossary's lookup tolerates plurals and typos).
		return p.engineTermByRest(question, r, lead, end, asked)
	}
	if to > end {
		return Plan{}, false
	}
	engineInside := false
	for _, t := range r.tags {
		if (t.meaning == mEngine || t.meaning == mClaimant) && t.from >= from && t.to <= to {
			engineInside = true
		}
	}
	// A term spelt only with slot words ("realistic", "p99") names the
	// slot; one with a word of its own ("proactor threads") is the term.
	slotInside := true
	for i := from; i < to; i++ {
		if r.toks[i].kind != tokPunct && !r.tokenMeans(i, mMetric) && !r.tokenMeans(i, mSetting) && !r.tokenMeans(i, mMode) &&
			!r.tokenMeans(i, mWorkload) && !r.tokenMeans(i, mEngine) {
			slotInside = false
		}
	}
	// A setting's own word asked with "what is" ("what is Dragonfly
	// pipelining?") asks what the setting is, in that engine's context; a
	// series or metric word ("what is the Valkey realistic series") asks
	// for its numbers.
	settingOnly := asked
	for i := from; i < to && settingOnly; i++ {
		if r.toks[i].kind != tokPunct && !r.tokenMeans(i, mSetting) {
			settingOnly = false
		}
	}
	if slotInside && !engineInside && !settingOnly {
		return Plan{}, false // "what is the Valkey realistic series": the series' numbers
	}
	if !asked && (slotInside || !engineInside) {
		// Without "what is", only a term whose own name holds the engine
		// ("Redis Sentinel?") is asked about as a term: "redis cluster?"
		// and "redis with persistence on" ask for numbers.
		return Plan{}, false
	}
	for i := lead; i < end; i++ {
		if i >= from && i < to {
			continue
		}
		t := r.toks[i]
		if t.kind == tokPunct || termFiller(t.text) || r.tokenMeans(i, mEngine) || r.tokenMeans(i, mPolite) {
			continue
		}
		return Plan{}, false
	}
	return p.termForEngines(question, id, r)
}

// termForEngines is the definition of a glossary entry, in the context of
// the engines the question names.
func (p *Planner) termForEngines(question, id string, r *reading) (Plan, bool) {
	name, ok := p.kbTerm(id)
	if !ok {
		return Plan{}, false
	}
	pl := p.defineOf(question, id, name, &parsed{})
	pl.Slots.Engines = r.values(mEngine)
	return pl, true
}

// engineTermByRest defines the term spelt by the words of a question that
// are neither lead, engine, filler nor punctuation, when they are all
// words of no slot.
func (p *Planner) engineTermByRest(question string, r *reading, lead, end int, asked bool) (Plan, bool) {
	if !asked {
		return Plan{}, false
	}
	var words, slots []string
	slotTerm := ""
	for i := lead; i < end; i++ {
		t := r.toks[i]
		switch {
		case t.kind == tokNumber || t.kind == tokRatio || r.tokenMeans(i, mMetric) || r.tokenMeans(i, mRelation) || r.tokenMeans(i, mWorkload):
			return Plan{}, false // a number, metric or relation: the grammar's question
		case t.kind == tokPunct || termFiller(t.text) || r.tokenMeans(i, mEngine) || r.tokenMeans(i, mPolite):
		case r.tokenMeans(i, mSetting) || r.tokenMeans(i, mMode):
			slots = append(slots, t.text)
			if slotTerm == "" {
				slotTerm = r.slotTermAt(i)
			}
		case r.tagged(i):
			return Plan{}, false
		default:
			words = append(words, t.text)
		}
	}
	if len(words) == 0 && slotTerm != "" && len(slots) <= 2 {
		// "what is valkey cluster?": asked what it is, the setting's own
		// entry, kind before topic.
		return p.termForEngines(question, slotTerm, r)
	}
	if len(slots) > 0 {
		return Plan{}, false
	}
	if len(words) == 0 || len(words) > 3 {
		return Plan{}, false
	}
	term, ok := p.kb.Define(strings.Join(words, " "))
	if !ok {
		return Plan{}, false
	}
	return p.termForEngines(question, term.ID, r)
}

// slotTerms are the glossary entries that define what a setting or
// series word names.
var slotTerms = map[meaning]map[string]string{
	mSetting: {"cluster": "term:redis-cluster", "pipeline": "term:pipelining", "value_bytes": "term:value-size", "ratio": "term:get-set-ratio"},
	mMode:    {"single": "term:single-mode", "cluster": "term:realistic", "cluster-sat": "term:ceiling"},
}

// slotTermAt is the glossary entry for the setting or series word at
// token i (a setting's entry before a series'), or "".
func (r *reading) slotTermAt(i int) string {
	for _, m := range [...]meaning{mSetting, mMode} {
		for _, t := range r.tags {
			if t.meaning == m && i >= t.from && i < t.to {
				if id := slotTerms[m][t.value]; id != "" {
					return id
				}
			}
		}
	}
	return ""
}

// defineLeadEnd is the token after a lead that asks what something is
// ("what is", "what exactly is", "explain", "can you explain what",
// "tell me what", "define"), 0 when the question has none but may still
// be a bare term, -1 when it opens with something else.
func (r *reading) defineLeadEnd() int {
	i := 0
	skip := func() {
		for i < len(r.toks) && (r.tokenMeans(i, mPolite) || r.toks[i].kind == tokPunct) {
			i++
		}
	}
	skip()
	for i < len(r.toks) {
		switch r.toks[i].text {
		case "and", "so", "ok", "but", "hey", "quick", "q", "sorry":
			i++
			skip()
			continue
		}
		break
	}
	if i >= len(r.toks) {
		return -1
	}
	at := func(k int) string {
		if k < len(r.toks) {
			return r.toks[k].text
		}
		return ""
	}
	// "explain what", "tell me what", "do you know what": a verb that
	// asks for an explanation, then an optional question.
	verb := true
	switch {
	case at(i) == "explain" || at(i) == "describe" || at(i) == "define" || at(i) == "eli5":
		i++
	case at(i) == "tell" && at(i+1) == "me" && (at(i+2) == "about" || at(i+2) == "what"):
		i += 2
		if at(i) == "about" {
			return i + 1
		}
	case at(i) == "do" && at(i+1) == "you" && at(i+2) == "know":
		i += 3
	case at(i) == "meaning" && at(i+1) == "of", at(i) == "definition" && at(i+1) == "of":
		return i + 2
	case at(i) != "what" && at(i) != "wat" && at(i) != "wht" && at(i) != "whats" && at(i) != "wats":
		return 0
	default:
		verb = false
	}
	if at(i) == "whats" || at(i) == "wats" {
		return i + 1
	}
	if at(i) != "what" && at(i) != "wat" && at(i) != "wht" {
		return i // "explain redis cluster"
	}
	i++
	for at(i) == "exactly" || at(i) == "actually" || at(i) == "really" || at(i) == "even" {
		i++
	}
	switch {
	case at(i) == "is" || at(i) == "s" || at(i) == "are" || at(i) == "was":
		return i + 1
	case (at(i) == "does" || at(i) == "do") && (r.endsWithMean() || r.endsWithDo()):
		return i + 1
	case verb || at(i) == "a" || at(i) == "an" || at(i) == "the":
		return i // "explain what a redis shard is", "tell me what proactor threads are"
	}
	return -1
}

// endsWithDo reports a question ending in "do" ("what does X do?").
func (r *reading) endsWithDo() bool {
	n := len(r.toks)
	for n > 0 && r.toks[n-1].kind == tokPunct {
		n--
	}
	return n > 0 && r.toks[n-1].text == "do"
}

// defineTailStart is where a trailing "what is it?", "what's that?",
// "what are they?" begins (the subject came first: "redis cluster - what
// is it?"), or len(toks) when there is none.
func (r *reading) defineTailStart() int {
	n := len(r.toks)
	for n > 0 && r.toks[n-1].kind == tokPunct {
		n--
	}
	if n < 3 {
		return len(r.toks)
	}
	w0, w1, w2 := r.toks[n-3].text, r.toks[n-2].text, r.toks[n-1].text
	if (w0 == "what" || w0 == "wat") && (w1 == "is" || w1 == "s" || w1 == "are") && (w2 == "it" || w2 == "that" || w2 == "this" || w2 == "they" || w2 == "those") {
		return n - 3
	}
	return len(r.toks)
}

// endsWithMean reports a question ending in "mean" or "stand for" (before
// punctuation and a trailing context).
func (r *reading) endsWithMean() bool {
	for _, t := range r.toks {
		if t.text == "mean" || t.text == "means" || t.text == "stand" || t.text == "stands" {
			return true
		}
	}
	return false
}

// span finds the tokens an alias covers, from token lead on.
func (r *reading) span(alias string, lead int) (from, to int, ok bool) {
	base := r.toks[min(lead, len(r.toks)-1)].start
	for off := base; off < len(r.text); {
		i := strings.Index(r.text[off:], alias)
		if i < 0 {
			return 0, 0, false
		}
		start, end := off+i, off+i+len(alias)
		from, to = -1, -1
		for k, t := range r.toks {
			if t.start == start {
				from = k
			}
			if t.end == end {
				to = k + 1
			}
		}
		if from >= 0 && to > from {
			return from, to, true
		}
		off = start + 1
	}
	return 0, 0, false
}

// tokenMeans reports whether token i is covered by a tag of the meaning.
func (r *reading) tokenMeans(i int, m meaning) bool {
	for _, t := range r.tags {
		if t.meaning == m && i >= t.from && i < t.to {
			return true
		}
	}
	return false
}

// termFiller is a word that may stand around a term in a request for its
// definition ("the", "in", "exactly", "mode").
func termFiller(w string) bool {
	switch w {
	case "a", "an", "the", "in", "of", "for", "on", "with", "s", "exactly", "concept", "term", "thing", "here", "this",
		"benchmark", "feature", "option", "flag", "setting", "config", "again", "actually", "really", "mean", "means",
		"stand", "stands", "does", "do", "by", "as", "used", "called", "mode", "s's", "anyway", "about", "that", "their", "its",
		"is", "are", "design", "model", "approach", "architecture", "even", "what", "it", "like", "deal", "um", "so",
		"store", "storage", "layer", "system", "mechanism", "component", "part", "internals":
		return true
	}
	return false
}

// recogniseDefinitionFollowUp keeps a definition's subject when the next
// message only names an engine ("what does pipelining mean?" → "and for
// Dragonfly?"): the same term, in that engine's context.
func (p *Planner) recogniseDefinitionFollowUp(question string, r *reading, prev *Plan) (Plan, bool) {
	if p.kb == nil || prev == nil || prev.Intent != IntentDefine || !strings.HasPrefix(prev.Slots.TermID, "term:") || !r.has(mEngine) {
		return Plan{}, false
	}
	for i, t := range r.toks {
		if t.kind == tokPunct || r.tokenMeans(i, mEngine) || r.tokenMeans(i, mPolite) || r.tokenMeans(i, mFollowUp) {
			continue
		}
		switch t.text {
		case "for", "in", "on", "with", "the", "case", "of", "then", "here", "there", "s",
			"same", "too", "though", "also", "does", "that", "it", "apply", "applies", "to":
			// "same for garnet", "in redis though?", "does that apply to dragonfly"
			continue
		}
		return Plan{}, false
	}
	pl, ok := p.termForEngines(question, prev.Slots.TermID, r)
	pl.Inherited = []string{"term"}
	return pl, ok
}

// recogniseMethod answers how the runs were set up for one engine ("how
// was Redis configured?", "why did they run Valkey as a cluster?", "what
// was the reason for the Dragonfly setup?") from the engine's knowledge
// entry, with its measured headline: a methodology question, not a
// request for numbers.
func (p *Planner) recogniseMethod(question string, r *reading, _ *Plan) (Plan, bool) {
	if p.kb == nil || r.has(mMetric) || r.has(mRelation) || r.has(mWorkload) {
		return Plan{}, false
	}
	for _, t := range r.tags {
		// "how many shards did the redis cluster have": the entry that
		// says how many were used.
		if id, ok := strings.CutPrefix(t.value, "count:"); ok && t.meaning == mKind {
			return p.termForEngines(question, id, r)
		}
	}
	if !r.hasValue(mKind, "method") {
		return Plan{}, false
	}
	engines := r.values(mEngine)
	if len(engines) != 1 {
		return Plan{}, false
	}
	for _, t := range r.toks {
		if t.kind == tokNumber {
			return Plan{}, false // "how was redis set up at 16 cores": the cell's numbers
		}
	}
	text := r.canonical()
	return p.engineEntry(question, text, p.g.extract(text), engines[0])
}
