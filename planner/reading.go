package planner

import (
	"slices"
	"strings"
)

// tag is one typed meaning the lexicon found over the tokens [from, to).
type tag struct {
	meaning  meaning
	value    string
	from, to int
	// negated is set on settings, modes and workloads a negation scopes
	// over, after double negatives cancel ("not without pipelining" is
	// pipelined).
	negated bool
	// negators counts the negations that scoped over it (prefix, words
	// before, words after): 2 means a double negative.
	negators int
	// prefixed marks a negation glued to the word ("unpipelined").
	prefixed bool
	// span is the token range the negation phrase covers, the setting
	// included ("without any pipelining"), for rewriting.
	spanFrom, spanTo int
}

// reading is one question read into typed tokens: the normalized text,
// its tokens and the meanings the lexicon tagged. Intent recognisers, the
// kind rules and the slot grammar work from it.
type reading struct {
	question string
	text     string
	toks     []token
	tags     []tag
	// x is what the slot grammar extracted from the text (set by read,
	// not by readTokens).
	x *parsed
	// plain is the normalized text before typo correction (set by read),
	// which the kind rules also match: a correction can turn a word they
	// know into another ("percentage" → "percentile").
	plain string
}

// readTokens normalizes, corrects typos, tokenizes and tags a question.
func (p *Planner) readTokens(question string) reading {
	r := p.readingOf(strings.TrimSpace(question))
	r.question = question
	return r
}

// read is readTokens plus the slot grammar's extraction, for the kind
// rules.
func (p *Planner) read(question string) reading {
	r := p.readTokens(question)
	// The slots are the canonical text's: a negated setting as its
	// negative value ("nothing is pipelined" is pipeline 1), as the
	// ordinary rules read it.
	r.x = p.extract(r.canonical())
	r.plain = p.normalized(strings.TrimSpace(question))
	return r
}

// read tags normalized text.
func (lx *lexicon) read(text string) reading {
	r := reading{text: text, toks: tokenize(text)}
	r.tags = make([]tag, 0, len(r.toks)/2+1)
	for i := 0; i < len(r.toks); {
		n := lx.tagAt(&r, i)
		if n == 0 {
			n = 1
		}
		i += n
	}
	// "a single request" is not the single-process mode, for the slot
	// grammar either (singleNotMode).
	r.tags = slices.DeleteFunc(r.tags, func(t tag) bool {
		return t.meaning == mMode && t.to == t.from+1 && r.toks[t.from].text == "single" && t.to < len(r.toks) && singleNotMode[r.toks[t.to].text]
	})
	r.scopeNegations()
	return r
}

// tagAt tags the longest phrase starting at token i and returns how many
// tokens it covers (0 when none). A phrase may carry several meanings
// ("cluster" is a mode and a setting); all are tagged.
func (lx *lexicon) tagAt(r *reading, i int) int {
	t := r.toks[i]
	best := 0
	for _, ph := range lx.byFirst[t.text] {
		n := len(ph.words)
		if n < best {
			break
		}
		if !r.matches(i, ph.words) {
			continue
		}
		best = n
		r.tags = append(r.tags, tag{meaning: ph.meaning, value: ph.value, from: i, to: i + n, spanFrom: i, spanTo: i + n})
	}
	if best > 0 || t.kind != tokWord {
		return best
	}
	// A negating prefix glued to a setting: "unpipelined", "nonclustered",
	// "depipelined".
	for _, pre := range [...]string{"non", "un", "de", "dis"} {
		rest, ok := strings.CutPrefix(t.text, pre)
		if !ok {
			continue
		}
		if ph, ok := lx.settingWords[rest]; ok {
			r.tags = append(r.tags, tag{meaning: ph.meaning, value: ph.value, from: i, to: i + 1, prefixed: true, negators: 1, spanFrom: i, spanTo: i + 1})
			return 1
		}
	}
	return 0
}

// matches reports whether the tokens from i spell words.
func (r *reading) matches(i int, words []string) bool {
	if i+len(words) > len(r.toks) {
		return false
	}
	for k, w := range words {
		if r.toks[i+k].text != w {
			return false
		}
	}
	return true
}

// negatable reports the meanings a negation can scope over.
func negatable(m meaning) bool {
	return m == mSetting || m == mMode || m == mWorkload
}

// scopeWordsBefore may stand between a negation and the setting it
// negates ("without any pipelining", "doesn't use a cluster").
func scopeWordBefore(w string) bool {
	switch w {
	case "the", "a", "an", "any", "use", "using", "used", "uses", "of", "with", "-", "in", "some", "its", "their",
		"request", "command", "run", "running", "ran", "enabled",
		// a quantified negation's noun: "none of the requests are
		// pipelined", "no command gets pipelined"
		"requests", "commands", "op", "ops", "operation", "operations", "query", "queries", "call", "calls", "gets", "got", "getting", "will", "would", "single", "one", "1", "on", "be", "been", "being", "is", "was", "there", "were", "are", "it", "they",
		// modal and situational: "can't do pipelining", "don't support
		// cluster mode", "aren't able to use pipelining"
		"do", "does", "did", "doing", "support", "supports", "handle", "handles", "speak", "speaks", "talk", "talks", "afford", "able", "to",
		"allowed", "want", "need", "plan", "going", "really", "even", "ever", "actually", "get", "turn", "switch", "enable":
		return true
	}
	return false
}

// scopeWordAfter may stand between a setting and a negation that follows
// it ("pipelining is off", "pipelining was disabled").
func scopeWordAfter(w string) bool {
	switch w {
	case "is", "was", "are", "were", "being", "set", "kept", "left", "-", ",", "=", "totally", "completely", "fully", "mode", "just", "simply", "s", ":":
		return true
	}
	return false
}

// scopeNegations counts, for every negatable tag, the negations that
// reach it: a glued prefix, a chain of "pre" negations before it (each may
// negate the next: "not without"), and a "post" negation right after it.
// An odd count negates the setting; an even one (a double negative) keeps
// it positive.
func (r *reading) scopeNegations() {
	negAt := make([]int, len(r.toks)) // token → index+1 of a negation tag starting there
	negEnd := make([]int, len(r.toks)+1)
	for k, t := range r.tags {
		if t.meaning == mNegation {
			negAt[t.from] = k + 1
			negEnd[t.to] = k + 1
		}
	}
	for k := range r.tags {
		t := &r.tags[k]
		if !negatable(t.meaning) {
			continue
		}
		// Backwards: skip scope words, take a "pre" negation, repeat.
		j := t.from
		skipped := 0
		for j > 0 && skipped <= 4 {
			if n := negEnd[j]; n > 0 && (r.tags[n-1].value == "pre" || r.toks[j].text == "to") {
				// a "post" phrase before "to" negates what follows too
				// ("not allowed to pipeline", "impossible to shard")
				t.negators++
				j = r.tags[n-1].from
				t.spanFrom = j
				skipped = 0
				continue
			}
			if r.isTaggedSetting(j-1) || !scopeWordBefore(r.toks[j-1].text) {
				break
			}
			j--
			skipped++
		}
		// Forwards: skip scope words, take one "post" negation.
		j = t.to
		for skipped = 0; j < len(r.toks) && skipped <= 2; j++ {
			if n := negAt[j]; n > 0 {
				if r.tags[n-1].value == "post" {
					t.negators++
					t.spanTo = r.tags[n-1].to
				}
				break
			}
			if !scopeWordAfter(r.toks[j].text) {
				break
			}
			skipped++
		}
		t.negated = t.negators%2 == 1
	}
}

// isTaggedSetting reports a token inside another negatable tag, which ends
// a negation's backward reach ("no pipelining, cluster mode").
func (r *reading) isTaggedSetting(i int) bool {
	for _, t := range r.tags {
		if negatable(t.meaning) && i >= t.from && i < t.to {
			return true
		}
	}
	return false
}

// has reports whether any tag has the meaning.
func (r *reading) has(m meaning) bool {
	for _, t := range r.tags {
		if t.meaning == m {
			return true
		}
	}
	return false
}

// values lists the values of the tags with a meaning, in order, unique.
func (r *reading) values(m meaning) []string {
	var out []string
	for _, t := range r.tags {
		if t.meaning == m {
			out = appendUnique(out, t.value)
		}
	}
	return out
}

// hasValue reports a tag with the meaning and value.
func (r *reading) hasValue(m meaning, v string) bool {
	for _, t := range r.tags {
		if t.meaning == m && t.value == v {
			return true
		}
	}
	return false
}

// tagged reports whether token i is covered by any tag.
func (r *reading) tagged(i int) bool {
	for _, t := range r.tags {
		if i >= t.from && i < t.to {
			return true
		}
	}
	return false
}

// words is the text of tokens [from, to).
func (r *reading) words(from, to int) string {
	if from >= to || to > len(r.toks) {
		return ""
	}
	return r.text[r.toks[from].start:r.toks[to-1].end]
}
