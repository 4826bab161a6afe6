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
	lead := r.defineLeadEnd()
	if lead < 0 {
		return Plan{}, false
	}
	id, alias := p.tix().find(r.text[r.toks[min(lead, len(r.toks)-1)].start:])
	from, to, ok := r.span(alias, lead)
	if id == "" || !ok {
		// No alias word for word ("a valkey io thread"): the words left
		// once the engine and fillers are set aside, looked up as a term
		// (the glossary's lookup tolerates plurals and typos).
		return p.engineTermByRest(question, r, lead)
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
	if slotInside && !engineInside {
		return Plan{}, false // "what is the Valkey realistic series": the series' numbers
	}
	if lead == 0 && (slotInside || !engineInside) {
		// Without "what is", only a term whose own name holds the engine
		// ("Redis Sentinel?") is asked about as a term: "redis cluster?"
		// and "redis with persistence on" ask for numbers.
		return Plan{}, false
	}
	for i := lead; i < len(r.toks); i++ {
		if i >= from && i < to {
			continue
		}
		t := r.toks[i]
		if t.kind == tokPunct || termFiller(t.text) || r.tokenMeans(i, mEngine) || r.tokenMeans(i, mPolite) {
			continue
		}
		return Plan{}, false
	}
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
func (p *Planner) engineTermByRest(question string, r *reading, lead int) (Plan, bool) {
	if lead == 0 {
		return Plan{}, false
	}
	var words []string
	for i := lead; i < len(r.toks); i++ {
		t := r.toks[i]
		switch {
		case t.kind == tokPunct || termFiller(t.text) || r.tokenMeans(i, mEngine) || r.tokenMeans(i, mPolite):
		case r.tagged(i):
			return Plan{}, false // a slot word: the grammar's question
		default:
			words = append(words, t.text)
		}
	}
	if len(words) == 0 || len(words) > 3 {
		return Plan{}, false
	}
	term, ok := p.kb.Define(strings.Join(words, " "))
	if !ok {
		return Plan{}, false
	}
	pl := p.defineOf(question, term.ID, term.Name, &parsed{})
	pl.Slots.Engines = r.values(mEngine)
	return pl, true
}

// defineLeadEnd is the token after a lead that asks what something is
// ("what is", "what's", "explain", "tell me about", "define"), 0 when the
// question has none but may still be a bare term, -1 when it opens with
// something else.
func (r *reading) defineLeadEnd() int {
	i := 0
	for i < len(r.toks) && (r.tokenMeans(i, mPolite) || r.toks[i].text == "and" || r.toks[i].text == "so" || r.toks[i].text == "ok" || r.toks[i].kind == tokPunct) {
		i++
	}
	if i >= len(r.toks) {
		return -1
	}
	w := r.toks[i].text
	next := ""
	if i+1 < len(r.toks) {
		next = r.toks[i+1].text
	}
	switch {
	case (w == "what" || w == "wat" || w == "wht") && (next == "is" || next == "s" || next == "are" || next == "was"):
		return i + 2
	case w == "whats" || w == "wats" || w == "explain" || w == "describe" || w == "define" || w == "eli5":
		return i + 1
	case w == "tell" && next == "me" && i+2 < len(r.toks) && r.toks[i+2].text == "about":
		return i + 3
	case (w == "what" || w == "wat") && (next == "does" || next == "do") && (r.endsWithMean() || r.toks[len(r.toks)-1].text == "do" ||
		len(r.toks) > 2 && r.toks[len(r.toks)-2].text == "do" && r.toks[len(r.toks)-1].kind == tokPunct):
		return i + 2
	case w == "meaning" && next == "of", w == "definition" && next == "of":
		return i + 2
	}
	return 0
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
		"stand", "stands", "does", "do", "by", "as", "used", "called", "mode", "s's", "anyway", "about", "that", "their", "its":
		return true
	}
	return false
}
