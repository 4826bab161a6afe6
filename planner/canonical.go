package planner

import (
	"slices"
	"strings"
)

// rewrite replaces the tokens [from, to) by text in the canonical form.
type rewrite struct {
	from, to int
	text     string
	// atEnd moves the text to the end of the question, as its own clause:
	// a setting's value standing next to other numbers ("pipeline 1
	// keydb on 8 cores") would read differently in place.
	atEnd bool
}

// canonical is the reading's text with every tagged meaning spelt the one
// way the slot grammar reads it: a negated setting as its negative value
// ("unpipelined" → "pipeline 1", "non-clustered" → "single process"), a
// double negative as the positive, a multi-key command with its key count
// as the workload ("multi-gets of 10 keys" → "mget10", so the count is not
// read as a keyspace size), workload phrases as their canonical name
// ("heavy writes" → "write-heavy") and relation words as the relation
// ("where do they cross" → "overtakes", "what is X worth" → "effect").
func (r *reading) canonical() string {
	rws := r.rewrites()
	if len(rws) == 0 {
		return r.text
	}
	slices.SortFunc(rws, func(a, b rewrite) int { return a.from - b.from })
	var b strings.Builder
	b.Grow(len(r.text) + 16)
	var tail []string
	last, lastTok := 0, 0
	for _, rw := range rws {
		if rw.from < lastTok || rw.to > len(r.toks) || rw.from >= rw.to {
			continue // overlapping rewrites: the first wins
		}
		start, end := r.toks[rw.from].start, r.toks[rw.to-1].end
		b.WriteString(r.text[last:start])
		if start > 0 && r.text[start-1] != ' ' {
			b.WriteByte(' ') // "doesn't use pipelining": the rewrite starts inside a word
		}
		if rw.atEnd {
			tail = append(tail, rw.text)
		} else {
			b.WriteString(rw.text)
		}
		if end < len(r.text) && r.text[end] != ' ' {
			b.WriteByte(' ')
		}
		last, lastTok = end, rw.to
	}
	b.WriteString(r.text[last:])
	for _, t := range tail {
		b.WriteString(" , ")
		b.WriteString(t)
	}
	return b.String()
}

// leadingAcknowledgement is the end of the chatter, politeness and
// punctuation that open the message, when a question follows them; 0 when
// none opens it or nothing follows.
func (r *reading) leadingAcknowledgement() int {
	end, chatter := 0, false
	for end < len(r.toks) {
		if r.toks[end].kind == tokPunct {
			end++
			continue
		}
		next := end
		for _, t := range r.tags {
			if t.from == end && (t.meaning == mChatter || t.meaning == mPolite && t.value == "") {
				chatter = chatter || t.meaning == mChatter
				next = max(next, t.to)
			}
		}
		if next == end {
			break
		}
		end = next
	}
	if !chatter || end >= len(r.toks) || end == 0 || r.toks[end-1].kind != tokPunct {
		return 0 // "thanks" alone is chatter; "ok redis at 8" reads whole
	}
	return end
}

// rewrites lists the canonical spellings the reading calls for.
func (r *reading) rewrites() []rewrite {
	var out []rewrite
	contrast := r.contrastedSetting()
	hasKnob := false
	for _, t := range r.tags {
		if t.meaning == mSetting && t.value != "cores" || t.meaning == mWorkload {
			hasKnob = true
		}
	}
	if end := r.leadingAcknowledgement(); end > 0 {
		// "ok thanks. and for the 1:1 mix?", "danke, and at 8 cores?": the
		// acknowledgement before a follow-up asks nothing; what follows is
		// read as if it opened the message.
		out = append(out, rewrite{0, end, "", false})
	}
	for _, t := range r.tags {
		switch t.meaning {
		case mSetting, mMode:
			if contrast != "" && settingKey(t.value) == contrast {
				continue // spelt as the setting's effect (settingContrasts)
			}
			s, ok := offSpelling(t.value, t.negated)
			if !ok && t.negators > 0 {
				s = settingSpelling(t.meaning, t.value, t.negated)
			}
			if s == "" {
				continue
			}
			if each := r.spellForEachEngine(t, s); each != nil {
				out = append(out, each...)
				continue
			}
			out = append(out, rewrite{t.spanFrom, t.spanTo, s, true})
		case mWorkload:
			if t.negators > 0 {
				continue // a negated workload is ambiguous: the clarify recogniser asks
			}
			if t.value == "mget10" || t.value == "mset10" {
				// "mget" alone is the measured 10-key command; the count
				// is dropped so it cannot join a list of core counts.
				out = append(out, rewrite{t.from, r.keysPerCommandEnd(t.to), strings.TrimSuffix(t.value, "10"), false})
				continue
			}
			out = append(out, rewrite{t.from, t.to, workloadSpelling(t.value), false})
		case mFailover:
			out = append(out, rewrite{t.from, t.to, "failover", false})
		case mPolite:
			if t.value == "drop" {
				out = append(out, rewrite{t.from, t.to, "", false})
			}
		case mRelation:
			switch t.value {
			case "crossover":
				out = append(out, rewrite{t.from, t.to, "overtakes", false})
			case "crossover_ahead":
				if r.hasValue(mRelation, "crossover_at") {
					out = append(out, rewrite{t.from, t.to, "overtakes", false})
				}
			case "crossover_at":
				// "how many cores before X beats Y", "from how many cores
				// is X faster": a count asked with a winner is where
				// the lines cross.
				if r.asksWinner() && !r.hasValue(mSetting, "value_bytes") {
					out = append(out, rewrite{t.from, t.to, "at what point", false})
				}
			case "scaling":
				out = append(out, rewrite{t.from, t.to, "scaling with cores", false})
			case "scaling_cores":
				// "vary across 4 … 48 cores" scales; "vary across reps" is
				// the repetitions' spread.
				if r.coresFollow(t.to) {
					out = append(out, rewrite{t.from, t.to, "scaling with", false})
				}
			case "with_without":
				out = append(out, rewrite{t.from, t.to, "with vs without", false})
			case "effect":
				if hasKnob {
					out = append(out, rewrite{t.from, t.to, "effect", false})
				}
			case "gap":
				out = append(out, rewrite{t.from, t.to, "how many times", false})
			case "gap_engines":
				// "the difference between realistic and ceiling" is a
				// definition; between two engines it is a gap.
				if len(r.values(mEngine)) >= 2 {
					out = append(out, rewrite{t.from, t.to, "how many times", false})
				}
			}
		}
	}
	out = append(out, r.settingContrasts()...)
	out = append(out, r.sizeContrast()...)
	out = append(out, r.engineDown()...)
	out = append(out, r.pipelineFlags()...)
	out = append(out, r.pronounOnes()...)
	out = append(out, r.perKeyCost()...)
	return out
}

// perKeyCost spells a key with a cost word ("how many bytes does each key
// cost", "per-key overhead", "how much space does one key use") as bytes
// per key, the memory table's metric. A rate ("keys per second") or a
// value size names something else.
func (r *reading) perKeyCost() []rewrite {
	if r.has(mUnit) || r.hasValue(mMetric, "bytes_per_key") || r.hasValue(mSetting, "value_bytes") || r.has(mWorkload) {
		return nil
	}
	from, to := -1, -1
	for i := 0; i+1 < len(r.toks) && from < 0; i++ {
		switch r.toks[i].text {
		case "per", "each", "a", "one", "1", "every", "single":
			j := i + 1
			if r.toks[j].text == "-" && j+1 < len(r.toks) {
				j++ // "per-key"
			}
			if r.toks[j].text == "key" {
				from, to = i, j+1
			}
		}
	}
	if from < 0 {
		return nil
	}
	for _, t := range r.toks {
		switch t.text {
		case "bytes", "byte", "cost", "costs", "overhead", "space", "storage", "size", "weigh", "weighs", "weight",
			"take", "takes", "occupy", "occupies", "consume", "consumes", "eat", "eats":
			return []rewrite{{from, to, "bytes per key", false}}
		}
	}
	return nil
}

// keysPerCommandEnd extends a multi-key command over the key count that
// follows it ("of 10 keys", "with 10 keys each", "of 10"): the count is
// the command's, never the keyspace's. Only 10 keys per command was
// measured; another count is left for the grammar to refuse.
func (r *reading) keysPerCommandEnd(to int) int {
	j := to
	if j < len(r.toks) && (r.toks[j].text == "of" || r.toks[j].text == "with" || r.toks[j].text == "-") {
		j++
	}
	if j >= len(r.toks) || r.toks[j].kind != tokNumber || r.toks[j].text != "10" {
		return to
	}
	j++
	if j < len(r.toks) && (r.toks[j].text == "keys" || r.toks[j].text == "key") {
		j++
	}
	if j < len(r.toks) && r.toks[j].text == "each" {
		j++
	}
	return j
}

// pipelineFlags spells "-p 1", "-p=1", "p=16" as "pipeline N" at the end
// of the question, and so a "depth 1" or "pipeline 1" followed by ", 16
// cores", where the number would join the list of core counts.
func (r *reading) pipelineFlags() []rewrite {
	var out []rewrite
	for i := 0; i < len(r.toks); i++ {
		t := r.toks[i]
		if t.text != "depth" && !r.tokenIs(i, mSetting, "pipeline") {
			continue
		}
		j := i + 1
		for j < len(r.toks) && (r.toks[j].text == "depth" || r.toks[j].text == "of" || r.toks[j].text == "=" || r.toks[j].text == ":" || r.toks[j].text == "at") {
			j++
		}
		if j >= len(r.toks) || r.toks[j].kind != tokNumber || r.unitFollows(j) || !r.listFollows(j) {
			continue
		}
		from := i
		if i > 0 && r.toks[i-1].text == "at" {
			from = i - 1
		}
		out = append(out, rewrite{from, j + 1, "pipeline " + r.toks[j].text, true})
		i = j
	}
	for i, t := range r.toks {
		if t.text != "p" || i+1 >= len(r.toks) {
			continue
		}
		from := i
		dashed := i > 0 && r.toks[i-1].text == "-"
		if dashed {
			from = i - 1
		}
		j := i + 1
		eq := r.toks[j].text == "=" || r.toks[j].text == ":"
		if eq {
			j++
		}
		if j >= len(r.toks) || r.toks[j].kind != tokNumber || !dashed && !eq {
			continue
		}
		out = append(out, rewrite{from, j + 1, "pipeline " + r.toks[j].text, true})
	}
	return out
}

// settingSpellings are, per setting or mode, its canonical spelling and
// the spelling of its negation.
var settingSpellings = map[meaning]map[string][2]string{
	mSetting: {
		"pipeline": {"pipelined", "pipeline 1"},
		"cluster":  {"cluster", "single process"},
	},
	mMode: {
		"cluster":     {"realistic", "fully driven ceiling"},
		"single":      {"single process", "cluster"},
		"cluster-sat": {"fully driven ceiling", "realistic"},
	},
}

// settingSpelling is the canonical spelling of a setting or mode read
// through negations: negated → its opposite, double-negated → itself.
func settingSpelling(m meaning, value string, negated bool) string {
	sp, ok := settingSpellings[m][value]
	if !ok {
		return ""
	}
	if negated {
		return sp[1]
	}
	return sp[0]
}

// workloadSpelling is the canonical name of a workload.
func workloadSpelling(ratio string) string {
	return nameOf("workload", ratio, 2, ratio)
}

// offSpellings are, per phrase value that means a setting is off by
// itself ("one request at a time", "we can't shard"), its spelling and the
// spelling of its negation.
var offSpellings = map[string][2]string{
	"pipeline_off": {"pipeline 1", "pipelined"},
	"cluster_off":  {"single process", "cluster"},
}

// offSpelling spells a phrase that means a setting is off, or its
// negation; ok is false for any other value.
func offSpelling(value string, negated bool) (string, bool) {
	sp, ok := offSpellings[value]
	if !ok {
		return "", false
	}
	if negated {
		return sp[1], true
	}
	return sp[0], true
}

// tokenIs reports whether token i is covered by a tag of the meaning and value.
func (r *reading) tokenIs(i int, m meaning, value string) bool {
	for _, t := range r.tags {
		if t.meaning == m && t.value == value && i >= t.from && i < t.to {
			return true
		}
	}
	return false
}

// unitFollows reports a unit word right after number token i ("16
// cores", "1 kb"): the number is that unit's, not a setting's value.
func (r *reading) unitFollows(i int) bool {
	if i+1 >= len(r.toks) {
		return false
	}
	switch r.toks[i+1].text {
	case "cores", "core", "c", "cpus", "vcpus", "threads", "shards", "kb", "b", "bytes", "byte", "k", "keys", "x", "times", "ms", "s", "%":
		return true
	}
	return false
}

// pronounOnes spells "the realistic one", "which one" back as "one":
// normalization read it as the number 1, which would join a list of core
// counts ("the realistic one, 16 cores").
func (r *reading) pronounOnes() []rewrite {
	var out []rewrite
	for i, t := range r.toks {
		if t.text != "1" || i == 0 || r.unitFollows(i) {
			continue
		}
		prev := r.toks[i-1].text
		switch {
		case prev == "the" || prev == "which" || prev == "this" || prev == "that" || prev == "other" || prev == "each":
		case r.tokenIs(i-1, mMode, "cluster") || r.tokenIs(i-1, mMode, "cluster-sat") || r.tokenIs(i-1, mMode, "single"):
		default:
			continue
		}
		out = append(out, rewrite{i, i + 1, "one", false})
	}
	// "the two", "those two", "both": the two series of the thread, not a
	// core count ("the ratio between the two").
	for i, t := range r.toks {
		if t.text != "2" || i == 0 || r.unitFollows(i) {
			continue
		}
		switch r.toks[i-1].text {
		case "the", "these", "those", "them", "between":
			out = append(out, rewrite{i, i + 1, "two", false})
		}
	}
	return out
}

// listFollows reports ", N" right after token i: a following number that
// would read as a list with it.
func (r *reading) listFollows(i int) bool {
	return i+2 < len(r.toks) && r.toks[i+1].text == "," && r.toks[i+2].kind == tokNumber
}

// asksWinner reports a word that asks which result is ahead ("beats",
// "faster", "ahead", "wins").
func (r *reading) asksWinner() bool {
	for _, t := range r.toks {
		switch t.text {
		case "beat", "beats", "beating", "faster", "quicker", "ahead", "better", "outperform", "outperforms", "win", "wins",
			"winning", "outrun", "outruns", "outpace", "outpaces", "overtake", "overtakes", "higher", "lead", "leads":
			return true
		}
	}
	return false
}

// settingKey is the setting a tag value is about ("pipeline_off" is
// pipelining).
func settingKey(v string) string {
	return strings.TrimSuffix(v, "_off")
}

// contrastSpelling is, per setting, how the slot grammar reads its effect.
var contrastSpelling = map[string]string{
	"pipeline": "with vs without pipelining",
}

// contrastedSetting returns the setting the question sets against its own
// negation ("pipelined vs unpipelined", "pipelining on vs off",
// "batching or no batching"): that is the setting's effect, not either
// side. "" when there is none.
func (r *reading) contrastedSetting() string {
	var pos, neg [4]string
	np, nn := 0, 0
	for _, t := range r.tags {
		if t.meaning != mSetting {
			continue
		}
		k := settingKey(t.value)
		if _, ok := contrastSpelling[k]; !ok {
			continue
		}
		negated := t.negated != strings.HasSuffix(t.value, "_off")
		switch {
		case r.onOffAfter(t.to):
			return k
		case negated && nn < len(neg):
			neg[nn] = k
			nn++
		case !negated && np < len(pos):
			pos[np] = k
			np++
		}
	}
	for _, a := range pos[:np] {
		for _, b := range neg[:nn] {
			if a == b {
				return a
			}
		}
	}
	return ""
}

// onOffAfter reports, from token i, "on vs off", "on or off", "off/on",
// "enabled vs disabled" (after an optional "is" or ":"), or a bare
// negation after a conjunction ("with pipelining and without").
func (r *reading) onOffAfter(i int) bool { return r.onOffEnd(i) > 0 }

// onOffEnd is the token after the contrast onOffAfter finds at i, or 0.
func (r *reading) onOffEnd(i int) int {
	for i < len(r.toks) && (r.toks[i].text == "is" || r.toks[i].text == ":" || r.toks[i].text == "-" || r.toks[i].text == "being") {
		i++
	}
	conj := func(w string) bool { return w == "vs" || w == "versus" || w == "or" || w == "/" || w == "and" }
	on := func(w string) bool { return w == "on" || w == "enabled" || w == "yes" }
	off := func(w string) bool { return w == "off" || w == "disabled" || w == "no" || w == "without" || w == "not" }
	if i+2 < len(r.toks) && conj(r.toks[i+1].text) && (on(r.toks[i].text) && off(r.toks[i+2].text) || off(r.toks[i].text) && on(r.toks[i+2].text)) {
		return i + 3
	}
	// "with pipelining and without", "pipelined or not": the negation
	// closes the clause.
	if i+1 < len(r.toks) && conj(r.toks[i].text) && off(r.toks[i+1].text) && (i+2 == len(r.toks) || r.toks[i+2].kind == tokPunct || r.toks[i+2].text == "for" || r.toks[i+2].text == "on" || r.toks[i+2].text == "at") {
		return i + 2
	}
	return 0
}

// settingContrasts spells a setting set against its negation as its
// effect, over the whole span from its first mention to its last.
func (r *reading) settingContrasts() []rewrite {
	k := r.contrastedSetting()
	if k == "" {
		return nil
	}
	from, to := len(r.toks), 0
	for _, t := range r.tags {
		if t.meaning == mSetting && settingKey(t.value) == k {
			from, to = min(from, t.spanFrom), max(to, t.spanTo)
			if r.onOffAfter(t.to) {
				to = max(to, r.onOffEnd(t.to))
			}
		}
	}
	if from >= to {
		return nil
	}
	return []rewrite{{from, to, contrastSpelling[k], false}}
}

// spellForEachEngine spells a single-process reading ("our clients aren't
// cluster-aware", "we can't shard") before every engine a comparison
// names, when the words stand apart from any one engine: the situation
// rules the cluster out for all of them, so an engine measured only as a
// cluster is refused by name rather than shown as one. nil when the
// spelling is another, fewer than two engines are named, or the words
// sit next to an engine ("non-clustered Dragonfly vs Redis").
func (r *reading) spellForEachEngine(t tag, spelling string) []rewrite {
	if spelling != "single process" {
		return nil
	}
	var engines []tag
	for _, e := range r.tags {
		if e.meaning != mEngine {
			continue
		}
		if e.to == t.spanFrom || e.from == t.spanTo {
			return nil
		}
		engines = append(engines, e)
	}
	if len(engines) < 2 {
		return nil
	}
	out := []rewrite{{t.spanFrom, t.spanTo, "", false}}
	for _, e := range engines {
		out = append(out, rewrite{e.from, e.to, spelling + " " + r.words(e.from, e.to), false})
	}
	return out
}

// sizeWord is an adjective of size ("small", "bigger").
func sizeWord(w string) bool {
	switch w {
	case "small", "smaller", "tiny", "big", "bigger", "large", "larger", "huge":
		return true
	}
	return false
}

// sizeContrast spells "small vs large values", "values big or small" as
// the effect of the value size: two sizes set against each other are the
// setting's effect, not one of them.
func (r *reading) sizeContrast() []rewrite {
	for i := 0; i+2 < len(r.toks); i++ {
		if !sizeWord(r.toks[i].text) || !sizeWord(r.toks[i+2].text) {
			continue
		}
		switch r.toks[i+1].text {
		case "vs", "versus", "or", "and", "/":
		default:
			continue
		}
		from, to := i, i+3
		switch {
		case to < len(r.toks) && r.tokenIs(to, mSetting, "value_bytes"):
			to++
		case from > 0 && r.tokenIs(from-1, mSetting, "value_bytes"):
			from--
		case from > 1 && (r.toks[from-1].text == "are" || r.toks[from-1].text == "is") && r.tokenIs(from-2, mSetting, "value_bytes"):
			from -= 2
		default:
			continue
		}
		return []rewrite{{from, to, "effect of value size", false}}
	}
	return nil
}

// engineDownPhrases say that an engine's server was lost ("redis goes
// down", "if dragonfly crashes"): what the failover lab measured.
var engineDownPhrases = [][]string{
	{"goes", "down"}, {"go", "down"}, {"went", "down"}, {"crashes"}, {"crash"}, {"crashed"}, {"dies"}, {"died"},
	{"fails"}, {"failed"}, {"is", "killed"}, {"gets", "killed"}, {"falls", "over"}, {"fell", "over"}, {"recover", "from", "a", "node", "failure"},
}

// engineDown rewrites the loss of a named engine's server as a failover.
func (r *reading) engineDown() []rewrite {
	var out []rewrite
	for _, t := range r.tags {
		if t.meaning != mEngine {
			continue
		}
		i := t.to
		if i < len(r.toks) && r.toks[i].text == "s" { // "redis's primary"
			continue
		}
		for _, ph := range engineDownPhrases {
			if r.matches(i, ph) && !r.matches(i+len(ph), []string{"to"}) { // "fails to scale" is not a crash
				out = append(out, rewrite{i, i + len(ph), "failover", false})
				break
			}
		}
	}
	return out
}

// coresFollow reports core counts right after token i ("4 8 16 cores",
// "core counts", "the cores").
func (r *reading) coresFollow(i int) bool {
	if i < len(r.toks) && r.toks[i].text == "the" {
		i++
	}
	return i < len(r.toks) && (r.toks[i].kind == tokNumber || r.tokenIs(i, mSetting, "cores"))
}

// scalesOverCores reports a scaling word, or "vary across" followed by
// core counts: the question is about cores, not repetitions.
func (r *reading) scalesOverCores() bool {
	for _, t := range r.tags {
		if t.meaning == mRelation && (t.value == "scaling" || t.value == "scaling_cores" && r.coresFollow(t.to)) {
			return true
		}
	}
	return false
}
