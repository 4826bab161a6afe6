package planner

import (
	"context"
	_ "embed"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// The accounting stage runs after the rules: every content word of the
// question is either read by the plan or named back (Plan.Unread). Three
// kinds of words are checked, because they are what a wrong answer hides
// behind: settings the settings stage took out (a client flag, a config
// line never varied), numbers no slot of the plan holds, and words the bot
// does not know standing next to a setting or where a name stands. A
// stated setting is never replaced by a default in silence: when an unread
// word sits on a setting the plan filled by default, the plan asks back.

//go:embed data/function-words.txt
var functionWordsTable string

// functionWords are the function-words table alone: ordinary English (and
// the other languages'), as opposed to the lexicon's vocabulary.
var functionWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(functionWordsTable, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			for _, w := range strings.Fields(line) {
				out[w] = true
			}
		}
	}
	return out
})

// sharedKnownWords are every word the vocabulary holds: function words
// and every word of the lexicon's phrases. Built once per process.
var sharedKnownWords = sync.OnceValue(func() map[string]bool {
	known := maps.Clone(loneWords())
	for w := range phraseOnlyWords() {
		known[w] = true
	}
	return known
})

// loneWords are the words read wherever they stand: function words and
// the lexicon's one-word phrases.
var loneWords = sync.OnceValue(func() map[string]bool {
	known := maps.Clone(functionWords())
	for _, t := range lexiconTables() {
		for _, e := range t.entries {
			if ws := strings.Fields(e.phrase); len(ws) == 1 {
				known[ws[0]] = true
			}
		}
	}
	return known
})

// phraseOnlyWords maps each word the lexicon holds only inside longer
// phrases (and the function words do not hold) to those phrases (their
// words, punctuation left out). Such a word is read only where one of its
// phrases stands: "sense" is read in "makes sense", and named back in
// "redis sense pipeline" (Catalan for "without"), where it would otherwise
// pass as known and the default pipeline answer the question.
var phraseOnlyWords = sync.OnceValue(func() map[string][][]string {
	lone := loneWords()
	out := map[string][][]string{}
	for _, t := range lexiconTables() {
		for _, e := range t.entries {
			var ws []string
			for _, w := range strings.Fields(e.phrase) {
				if hasLetter(w) || isNumber(w) {
					ws = append(ws, w)
				}
			}
			if len(strings.Fields(e.phrase)) < 2 {
				continue
			}
			for _, w := range ws {
				if !lone[w] {
					out[w] = append(out[w], ws)
				}
			}
		}
	}
	return out
})

// inPhrase reports whether words[i] stands inside one of the lexicon's
// phrases that hold it.
func inPhrase(words []accountWord, i int) bool {
	for _, ph := range phraseOnlyWords()[words[i].lower] {
		for k, w := range ph {
			if w != words[i].lower || i-k < 0 || i-k+len(ph) > len(words) {
				continue
			}
			if slices.EqualFunc(ph, words[i-k:i-k+len(ph)], func(a string, b accountWord) bool { return a == b.lower }) {
				return true
			}
		}
	}
	return false
}

// knownWords adds the knowledge base's own names (terms, engines and
// their aliases) to the words read wherever they stand.
func (p *Planner) knownWords() map[string]bool {
	if p.known == nil {
		return loneWords()
	}
	return p.known()
}

func newKnownWords(kb Knowledge) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		shared := loneWords()
		known := make(map[string]bool, len(shared)+512)
		for w := range shared {
			known[w] = true
		}
		if kb == nil {
			return known
		}
		add := func(s string) {
			for _, w := range accountWords(s) {
				known[w.lower] = true
			}
		}
		for _, t := range kb.Terms() {
			add(t.Name)
			for _, a := range t.Aliases {
				add(a)
			}
		}
		if ek, ok := kb.(engineKnowledge); ok {
			for _, e := range ek.Engines() {
				add(e.Name)
				add(e.Key)
				for _, a := range e.Aliases {
					add(a)
				}
			}
		}
		return known
	})
}

// engineKnowledge is the part of the knowledge base that describes the
// engines (*knowledge.Base has it; test fakes may not).
type engineKnowledge interface {
	Engines() []knowledge.Engine
}

// accountWord is one word of the question as the stage sees it.
type accountWord struct {
	text, lower string
	first       bool // the first word of a sentence
}

// accountWords splits text into words, keeping dots, colons and dashes
// inside them ("p99.9", "1:10", "io-threads").
func accountWords(text string) []accountWord {
	fields := strings.Fields(text)
	out := make([]accountWord, 0, len(fields))
	first := true
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '%' && r != '-' && r != '+'
		})
		w = strings.Trim(w, "-+")
		if w != "" {
			lower := strings.ToLower(w)
			if d, ok := numberWord(lower); ok && lower != "one" { // "which one", "the realistic one"
				lower = d // "sixteen" is read as 16, and checked as a number
			} else if head, tail, ok := strings.Cut(lower, "-"); ok && tail != "" && !strings.ContainsAny(tail, "0123456789") {
				// "sixteen-way", "8-core": a number with a word glued on
				// is checked as the number.
				if d, ok := numberWord(head); ok && head != "one" {
					lower = d
				} else if isNumber(head) {
					lower = head
				}
			}
			out = append(out, accountWord{text: w, lower: lower, first: first})
		}
		first = strings.ContainsAny(f[len(f)-1:], ".?!:;")
	}
	return out
}

// account fills Plan.Unread and applies the policy for it.
func (p *Planner) account(ctx context.Context, pl *Plan, asked string, settings settingsRead, prev *Plan) {
	for i := range pl.Parts {
		pl.Parts[i].Unread = nil
	}
	pl.Question = asked
	if p.ablating {
		return
	}
	// "compare them", "and the latter?" opening a conversation read as
	// nothing of the domain; "sentinel outage for it?" as every engine.
	dangling := (pl.Intent == IntentOutOfScope || pl.Intent == IntentChatter) && comparesSomething(accountWords(settings.text)) ||
		pl.Intent == IntentFailover && len(pl.Slots.Engines) == 0
	if !accountable(pl.Intent) && !dangling {
		return
	}
	if nothingBefore(prev) && !statedEngines(pl) && (namesAnEngine(pl.Intent) || dangling) {
		if w, ok := referent(accountWords(settings.text)); ok {
			// "is it faster?" opening a conversation: there is nothing for
			// "it" to stand for, and a ranking of everything would answer
			// a question nobody asked.
			c := clarifyPlan(asked, "“"+w+"” refers back, but there is nothing before it in this conversation: which engines do you mean?",
				[]string{"Is Dragonfly faster than Redis?", "Is Valkey faster than Redis?", "Which engine is fastest?"})
			c.Requested = pl.Intent
			if pl.Intent == IntentOutOfScope || pl.Intent == IntentChatter {
				c.Requested = IntentCompare
			}
			c.Unread = []string{"“" + w + "”"}
			*pl = c
			return
		}
	}
	if w, ok := pairReferent(accountWords(settings.text)); ok && !nothingBefore(prev) && len(prev.ThreadEngines) < 2 && len(prev.Slots.Modes) < 2 {
		// "and the latter?", "those two side by side?" after an answer
		// about one engine: there is no second thing to take up.
		one := joinMap(prev.ThreadEngines, engineName)
		c := clarifyPlan(asked, "“"+w+"” takes up one of two things said before, but this conversation has named only "+either(one != "", one, "one thing")+": which engines do you mean?",
			[]string{"Compare Dragonfly and Redis", "Compare Valkey and Redis"})
		c.Requested = pl.Intent
		if strings.Contains(w, "two") || strings.Contains(w, "2") {
			c.Requested = IntentCompare
		}
		c.Unread = []string{"“" + w + "”"}
		*pl = c
		return
	}
	if !accountable(pl.Intent) {
		return
	}
	if nothingBefore(prev) && !statedEngines(pl) && pl.Intent == IntentCompare {
		if w, ok := bareComparative(accountWords(settings.text)); ok {
			// "faster?" opening a conversation: faster than what? A
			// ranking of everything answers a question nobody asked.
			c := clarifyPlan(asked, "“"+w+"” than what? Nothing before it in this conversation says which engines to compare.",
				[]string{"Is Dragonfly " + w + " than Redis?", "Is Valkey " + w + " than Redis?", "Which engine is fastest?"})
			c.Requested = IntentCompare
			c.Unread = []string{"“" + w + "”"}
			*pl = c
			return
		}
	}
	if prev == nil && len(pl.Slots.Engines) == 1 && namesAnEngine(pl.Intent) {
		if t := p.g.normalize(settings.text); p.k.better.MatchString(t) || p.k.worse.MatchString(t) {
			words := accountWords(settings.text)
			// Only a pronoun before the engine's name can be the other
			// side: in "is Redis faster, isn't it?" it is Redis.
			for i, w := range words {
				if p.g.engineKey(w.lower) != "" {
					words = words[:i]
					break
				}
			}
			if w, ok := referent(words); ok {
				// "does it beat Redis?" opening a conversation: one side
				// of the comparison is a word with nothing to stand for,
				// and Redis alone is not what was asked.
				e := pl.Slots.Engines[0]
				var opts []string
				for _, o := range []string{"dragonfly", "valkey", "redis", "keydb"} {
					if o != e && len(opts) < 3 {
						opts = append(opts, "Is "+engineName(o)+" faster than "+engineName(e)+"?")
					}
				}
				c := clarifyPlan(asked, "“"+w+"” refers back, but there is nothing before it in this conversation: which engine do you compare with "+engineName(e)+"?", opts)
				c.Requested = IntentCompare
				c.Unread = []string{"“" + w + "”"}
				*pl = c
				return
			}
		}
	}
	raw := strings.Fields(settings.text)
	// without plans the question with one word taken out, once per word:
	// ok is false when the word is not in the rules' text.
	type ablation struct {
		plan Plan
		err  error
	}
	ablations := map[string]ablation{}
	without := func(word string) (ablation, bool) {
		if a, ok := ablations[word]; ok {
			return a, true
		}
		i := slices.Index(raw, word)
		if i < 0 {
			i = slices.IndexFunc(raw, func(r string) bool { return strings.Contains(r, word) })
		}
		if i < 0 {
			return ablation{}, false
		}
		q, err := p.ablated(ctx, strings.Join(slices.Delete(slices.Clone(raw), i, i+1), " "), prev)
		ablations[word] = ablation{q, err}
		return ablations[word], true
	}
	// read reports whether a word was read: taking it out changes the
	// plan.
	read := func(word string) bool {
		a, ok := without(word)
		return !ok || a.err != nil || planMeaning(a.plan) != planMeaning(*pl)
	}
	// readName is read for a name: a word that only kept the reader from a
	// setting beside it was not read.
	readName := func(word string) bool {
		if !read(word) {
			return false
		}
		a, ok := without(word)
		return !ok || a.err != nil || !onlyHid(a.plan, *pl)
	}
	var unread, leads []string
	if table, ok := fixedSetups[pl.Intent]; ok {
		// "does Valkey fail over faster at 16 cores?", "memory of Valkey
		// with pipeline 1": the table has one setup; its figures hold no
		// core count or pipeline depth. (A memory table's value size is
		// its own: another is never measured, said by the plan.)
		r := p.readTokens(settings.text)
		x := p.extract(r.canonical())
		if pl.Intent == IntentMemory {
			x.values = nil
		}
		if stated := runSettingsIn(x); len(stated) > 0 {
			unread = append(unread, stated...)
			leads = append(leads, "Left out "+joinAnd(stated)+": "+table+" does not vary "+either(len(stated) == 1, "it", "them")+", so its figures are at its own setup")
		}
	}
	var fixed []string
	for _, r := range settings.unread() {
		unread = appendUnique(unread, "“"+r.text+"” ("+r.what+")")
		fixed = append(fixed, "“"+r.text+"” ("+r.what+")")
	}
	if len(fixed) > 0 {
		// Short, so that line 1 still holds the figure after it.
		leads = append(leads, "Left out "+joinAnd(fixed)+": the runs did not vary "+either(len(fixed) == 1, "it", "them")+"; the figures are at each run's own")
	}
	words := accountWords(settings.text)
	var numbers []string
	for _, n := range unreadNumbers(pl, words, p.curvePoints(pl)) {
		// The failover lab's answer describes its own fixed topology (one
		// primary, two replicas, three sentinels, three kills), the demo
		// its 3 keys and 3 shards: a count of those is the table's, not a
		// setting.
		if pl.Intent != IntentFailover && pl.Intent != IntentCrossSlot && pl.Intent != IntentDiagnostic && !p.memorySetup(pl, n) && !repetitionCount(pl, words, n) && !read(n) && !named(unread, n) {
			numbers = append(numbers, "“"+p.numberWithKey(words, n)+"”")
		}
	}
	if len(numbers) > 0 {
		unread = append(unread, numbers...)
		leads = append(leads, "Left out "+joinAnd(numbers)+": no setting here holds "+either(len(numbers) == 1, "it", "them"))
	}
	spoken := pl.Unbound // words a part of the plan already accounts for
	spoken = append(slices.Clip(spoken), p.g.featureWords(p.g.normalize(settings.text))...)
	names, onSetting, beside, glued := p.unreadNames(words, spoken)
	var quoted []string
	for _, n := range names {
		// A misspelling the typo corrector reads ("dragnfly") is read.
		if fixed := strings.TrimSpace(p.g.correctTypos(p.g.normalize(n))); !glued[n] && (fixed != strings.ToLower(n) && p.knownWords()[fixed] || readName(n)) {
			delete(onSetting, n)
			continue
		}
		quoted = append(quoted, "“"+n+"”")
	}
	if len(quoted) > 0 {
		unread = append(unread, quoted...)
		leads = append(leads, "I don't know "+joinAnd(quoted))
	}
	if said, had := p.offSettings(settings); len(said) > 0 {
		// "appendonly no" pasted from a config file: what every run had.
		leads = append(leads, "Read "+joinAnd(said)+" as the runs' own setup: "+joinAnd(had))
	}
	if hedged := hedgedNumbers(pl, settings.text); len(hedged) > 0 {
		// "garnet at maybe 16 cores": read, and said to be read as exact.
		leads = append(leads, "Read "+joinAnd(hedged))
	}
	if len(unread) == 0 {
		if len(leads) > 0 {
			pl.UnboundReading = joinReading(joinLeads(leads), pl.UnboundReading)
		}
		return
	}
	pl.Unread = unread
	if slot, word, ok := defaultedSetting(pl, onSetting, glued); ok {
		// A stated setting the reader could not read stood where a default
		// now stands: ask, rather than answer at the default.
		*pl = p.settingClarify(*pl, slot, word)
		return
	}
	inPlace := 0 // names standing where an engine would: not beside a setting or a value
	for _, n := range names {
		if _, ok := onSetting[n]; !ok && !beside[n] && slices.Contains(quoted, "“"+n+"”") {
			inPlace++
		}
	}
	if inPlace > 0 && !statedEngines(pl) && namesAnEngine(pl.Intent) {
		// A name in place of the engine: an answer over every engine would
		// answer a question nobody asked.
		*pl = unknownNameRefusal(*pl, quoted)
		return
	}
	pl.UnboundReading = joinReading(joinLeads(leads), pl.UnboundReading)
}

// joinLeads joins line 1's notes into one sentence: "Left out “-c 20” …;
// read “about 16 cores” as exactly 16" (a later note's first letter in
// lower case, "I" aside).
func joinLeads(leads []string) string {
	out := slices.Clone(leads)
	for i := 1; i < len(out); i++ {
		if r := []rune(out[i]); len(r) > 1 && unicode.IsUpper(r[0]) && r[1] != ' ' && !unicode.IsUpper(r[1]) {
			out[i] = string(unicode.ToLower(r[0])) + string(r[1:])
		}
	}
	return strings.Join(out, "; ")
}

// offSettings are the pasted settings of an unmeasured feature at the
// value every run had ("appendonly no", "maxmemory-policy noeviction"), as
// typed, and what every run had.
func (p *Planner) offSettings(settings settingsRead) (said, had []string) {
	for _, r := range settings.reads {
		if r.status != statusUnmeasured || !sharedSettings().asRunValue(r.field, r.value) {
			continue
		}
		for _, f := range p.g.features {
			if f.key == r.field && f.off != "" {
				said = append(said, "“"+r.text+"”")
				had = appendUnique(had, f.off)
			}
		}
	}
	return said, had
}

// numberWithKey is an unread number with the unknown word that names it,
// when one stands just before it ("maxclients 10000"): the word is what
// the asker set, and is named back with its value.
func (p *Planner) numberWithKey(words []accountWord, n string) string {
	i := slices.IndexFunc(words, func(w accountWord) bool { return w.text == n })
	if i < 1 {
		return n
	}
	key := words[i-1].lower
	if !hasLetter(key) || p.knownWords()[key] || sharedKnownWords()[key] || englishWords()[key] {
		return n
	}
	return words[i-1].text + " " + n
}

// repetitionCount reports a number that counts the repetitions a spread
// answer lists ("the 2 reps of garnet 24c", "the two repetitions"): the
// answer states how many there were.
func repetitionCount(pl *Plan, words []accountWord, n string) bool {
	if pl.Intent != IntentSpread {
		return false
	}
	i := slices.IndexFunc(words, func(w accountWord) bool { return w.text == n })
	if i < 0 || i+1 >= len(words) {
		return false
	}
	switch strings.TrimSuffix(words[i+1].lower, "s") {
	case "rep", "repetition", "run", "repeat", "sample", "time", "attempt", "trial":
		return true
	}
	return false
}

// memorySetup reports a number that is the memory table's own setup (its
// 1,000,000 keys or its value size): "used_memory for 1M keys" restates
// how the table was measured.
func (p *Planner) memorySetup(pl *Plan, n string) bool {
	mt, ok := p.kb.(memoryTables)
	if pl.Intent != IntentMemory || !ok {
		return false
	}
	vals, ok := numberToken(strings.ToLower(n))
	if !ok {
		return false
	}
	t := mt.MemoryTable()
	for _, v := range vals {
		if v == float64(t.Keys) || v == float64(t.ValueBytes) {
			return true
		}
	}
	return false
}

// joinReading puts the accounting's lead before the reading the plan
// already had.
func joinReading(lead, had string) string {
	if had == "" {
		return lead
	}
	return lead + "; " + lowerFirst(had)
}

// hedgedNumbers finds the numbers said loosely ("maybe 16 cores", "16
// cores or so", "~16", "16ish") that a slot of the plan holds as stated,
// each quoted as written, with the word after the number, and how it was
// read ("“maybe 16 cores” as exactly 16"). A number the plan does not
// hold is named back as unread.
func hedgedNumbers(pl *Plan, text string) []string {
	if !strings.ContainsAny(text, "0123456789") {
		return nil // a hedge loosens a number
	}
	var words []string
	for _, f := range strings.Fields(strings.ToLower(text)) {
		if w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '~' && r != '≈' }); w != "" {
			words = append(words, w)
		}
	}
	held := func(w string) bool {
		n, err := strconv.Atoi(w)
		if err != nil {
			return false
		}
		return slices.Contains(pl.Slots.Cores, n) && !slices.Contains(pl.Defaulted, "cores") ||
			pl.Slots.Pipeline == n && !slices.Contains(pl.Defaulted, "pipeline") ||
			pl.Slots.ValueBytes == n && !slices.Contains(pl.Defaulted, "value_bytes")
	}
	pre, post := hedgePhrases()
	at := func(i int, ph []string) bool {
		return i >= 0 && i+len(ph) <= len(words) && slices.Equal(words[i:i+len(ph)], ph)
	}
	var out []string
	for i, w := range words {
		n, end, loose := w, i+1, false
		if rest := strings.TrimLeft(w, "~≈"); rest != w {
			n, loose = rest, true
		} else if base, ok := strings.CutSuffix(strings.TrimSuffix(w, "-ish"), "ish"); ok || base != w {
			n, loose = strings.TrimSuffix(base, "-"), true
		}
		if !held(n) {
			continue
		}
		start := i
		if i > 0 && (words[i-1] == "~" || words[i-1] == "≈") {
			start, loose = i-1, true // "~ 24 cores"
		}
		for _, ph := range pre {
			if at(i-len(ph), ph) && !asksAbout(words, i-len(ph)) {
				start, loose = i-len(ph), true
				break
			}
		}
		after := end
		if after < len(words) && !isNumber(words[after]) {
			after++ // "16 cores or so": the unit, then the hedge
		}
		for _, ph := range post {
			if at(after, ph) {
				end, loose = after+len(ph), true
				break
			}
		}
		if !loose {
			continue
		}
		if end == i+1 && i+1 < len(words) && !isNumber(words[i+1]) {
			end = i + 2 // the unit or setting the number is of
		}
		out = append(out, "“"+strings.Join(words[start:end], " ")+"” as exactly "+n)
	}
	return out
}

// asksAbout reports "how about" or "what about" at words[i]: a question
// about what follows, not a loose number ("how about 16 cores?").
func asksAbout(words []string, i int) bool {
	return i > 0 && words[i] == "about" && (words[i-1] == "how" || words[i-1] == "what")
}

// hedgePhrases are the lexicon's hedge table, before and after a number.
var hedgePhrases = sync.OnceValues(func() (pre, post [][]string) { return sidedPhrases(mHedge) })

// pairReferent finds a word that takes up one of two things said before
// ("the latter", "the former's", "those two").
func pairReferent(words []accountWord) (string, bool) {
	for i, w := range words {
		lw := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(w.lower, "?!.,"), "'s"), "’s")
		switch {
		case lw == "former" || lw == "latter":
			return w.text, true
		case (lw == "those" || lw == "these") && i+1 < len(words):
			if n := strings.Trim(words[i+1].lower, "?!.,"); n == "two" || n == "2" {
				return w.text + " " + words[i+1].text, true
			}
		}
	}
	return "", false
}

// nothingBefore reports a conversation with nothing a word like "it" or
// "the latter" could take up: no earlier message, or only greetings and
// thanks.
func nothingBefore(prev *Plan) bool {
	return prev == nil || len(prev.ThreadEngines) == 0 && len(prev.Slots.Engines) == 0 && !isDataPlan(prev) && prev.Intent != IntentDefine
}

// referent finds a word that stands for something said before ("it",
// "they", "the former", "those two") and has nothing in the question to
// stand for, with no noun before it that it could take up ("runs over
// 10M: what's their p99" has its own; so has "who comes second, and by how
// much does it trail?").
func referent(words []accountWord) (string, bool) {
	nouns, things := false, false
	for i, w := range words {
		prior, next := "", ""
		if i > 0 {
			prior = words[i-1].lower
		}
		if i+1 < len(words) {
			next = words[i+1].lower
		}
		if antecedents[w.lower] && next != "of" {
			// "which of those two" takes nothing up: "those" still
			// refers back.
			nouns = true
			things = things || choosable[w.lower]
			continue
		}
		switch {
		case w.lower == "it" && slices.Contains([]string{"true", "possible", "impossible", "worth", "mean", "means", "is", "was", "seems", "looks", "matters", "depends"}, next):
			// "it" inside "is it true that …", "make it", "what is it" is
			// not an engine.
		case slices.Contains([]string{"it", "its", "they", "them", "their", "those", "these", "both", "former", "latter"}, w.lower):
			if !nouns {
				return w.text, true
			}
		case w.lower == "one" && (prior == "that" || prior == "this"), w.lower == "other" && prior == "the":
			// "this one" and "the other" pick from things named before,
			// which "numbers by noon" is not.
			if !things {
				return words[i-1].text + " " + w.text, true
			}
		}
	}
	return "", false
}

// choosable are the antecedents "this one" or "the other" can pick from.
var choosable = map[string]bool{"engine": true, "engines": true, "databases": true, "stores": true, "series": true, "options": true,
	"setups": true, "setup": true, "server": true, "rig": true, "box": true, "machine": true, "host": true}

// bareComparative finds a comparative standing alone ("faster?", "is it
// quicker?" without "it"): the question's only content word, with no
// "than" and nothing to rank.
func bareComparative(words []accountWord) (string, bool) {
	found := ""
	for _, w := range words {
		lw := strings.Trim(w.lower, "?!.,")
		switch {
		case lw == "":
		case comparatives[lw]:
			found = lw
		case functionWords()[lw] && lw != "than" && lw != "which" && lw != "who" && lw != "what":
		default:
			return "", false
		}
	}
	return found, found != ""
}

var comparatives = map[string]bool{"faster": true, "slower": true, "quicker": true, "better": true, "worse": true}

// comparesSomething reports a question that asks how things compare
// ("compare them", "which of those wins?"), whatever it names.
func comparesSomething(words []accountWord) bool {
	return slices.ContainsFunc(words, func(w accountWord) bool { return comparisonCues[strings.Trim(w.lower, "?!.,")] })
}

var comparisonCues = map[string]bool{"compare": true, "comparison": true, "vs": true, "versus": true, "win": true, "wins": true,
	"beat": true, "beats": true, "faster": true, "slower": true, "quicker": true, "better": true, "worse": true, "difference": true,
	"former": true, "latter": true, "ahead": true, "behind": true}

// antecedents are the words a later pronoun can take up inside the
// question itself: the nouns that name what was measured, and the
// quantifiers that open a noun phrase of their own ("did any attempt keep
// its p99 …").
var antecedents = map[string]bool{
	"any": true, "every": true, "each": true, "some": true, "all": true, "which": true, "whichever": true, "who": true,
	"engine": true, "runs": true, "run": true, "cells": true, "results": true, "numbers": true, "figures": true,
	"series": true, "measurements": true, "engines": true, "databases": true, "stores": true,
	"setups": true, "setup": true, "rig": true, "box": true, "machine": true, "server": true, "host": true, "fleet": true, "workloads": true, "repetitions": true, "reps": true, "options": true,
}

// statedEngines reports whether the question (or its thread) named the
// plan's engines, rather than a default of every engine.
func statedEngines(pl *Plan) bool {
	return len(pl.Slots.Engines) > 0 && !slices.Contains(pl.Defaulted, slotEngines)
}

// namesAnEngine reports the kinds whose answer is about the engines the
// question names (all of them when it names none).
func namesAnEngine(in Intent) bool {
	switch in {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentRecommend, IntentSpread, IntentSearch:
		return true
	}
	return false
}

// unknownNameRefusal declines a question about a name the bot does not
// know, with the engines it does.
func unknownNameRefusal(pl Plan, names []string) Plan {
	why := "I don't know " + joinAnd(names) + ": the engines measured here are Redis, Valkey, Dragonfly, KeyDB and Garnet. Name one of them, or import runs for another engine."
	c := clarifyPlan(pl.Question, why, nil)
	c.Requested = pl.Intent
	c.Unread = pl.Unread
	return c
}

func either(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// ablated plans text with the rules alone, as the accounting does.
func (p *Planner) ablated(ctx context.Context, text string, prev *Plan) (Plan, error) {
	call := *p
	call.ablating = true
	call.memo = nil
	call.opts.Completer = nil // the rules alone decide what a word did
	return call.Plan(ctx, text, prev)
}

// onlyHid reports whether the plan without a word (q) is the plan with it
// (pl) with settings stated that pl filled by default: the word said
// nothing, it only kept the reader from a setting beside it ("pipeline
// flurble 16").
func onlyHid(q, pl Plan) bool {
	if q.Intent != pl.Intent || q.Requested != pl.Requested || !reflect.DeepEqual(q.Slots, pl.Slots) || len(q.Defaulted) >= len(pl.Defaulted) {
		return false
	}
	for _, d := range q.Defaulted {
		if !slices.Contains(pl.Defaulted, d) {
			return false
		}
	}
	return true
}

// planMeaning is what a plan reads a question as: its kind, slots and
// shape, without the question's own text.
func planMeaning(pl Plan) string {
	var b strings.Builder
	b.WriteString(string(pl.Intent) + "|" + string(pl.Requested) + "|" + pl.Interpretation + "|")
	s := pl.Slots
	fmt.Fprintf(&b, "%v|%v|%v|%s|%d|%d|%d|%s|%s|%s|%s|%v|", s.Engines, s.Modes, s.Cores, s.Ratio, s.ValueBytes, s.Pipeline, s.Session, s.Metric, s.Knob, s.TermID, s.ClaimID, s.Versions)
	if pl.Search != nil {
		fmt.Fprintf(&b, "%+v|", *pl.Search)
	}
	if pl.Premise != nil {
		fmt.Fprintf(&b, "%+v|", *pl.Premise)
	}
	if pl.Units != nil {
		fmt.Fprintf(&b, "%+v|", *pl.Units)
	}
	if pl.Prediction != nil {
		fmt.Fprintf(&b, "%+v|", *pl.Prediction)
	}
	fmt.Fprintf(&b, "%v|%v|%v|%d|%d|%s", pl.Missing, pl.Notes, pl.Options, pl.Position, pl.Limit, pl.Aggregate)
	for _, part := range pl.Parts {
		b.WriteString("{" + planMeaning(part) + "}")
	}
	return b.String()
}

// accountable reports whether a plan answers with figures, which is where
// a word left out could change the number.
func accountable(in Intent) bool {
	switch in {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentSearch, IntentRecommend,
		IntentSpread, IntentNoData, IntentMemory, IntentFailover, IntentCompound, IntentCrossSlot, IntentDiagnostic:
		return true
	}
	return false
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[1]) {
		return s // an acronym
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// numberToken reads a number as people type it: "16", "1.5e7", "15,5M",
// "2.6m", "15mil", "10k", "1kb", "3ms", "99%". ok is false for words that
// only contain digits (p99, mget10, c6i, run IDs, dates, ratios).
func numberToken(w string) (vals []float64, ok bool) {
	s := strings.ToLower(w)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
		i++
	}
	if i == 0 {
		return nil, false
	}
	num, unit := s[:i], s[i:]
	if strings.HasPrefix(unit, "e") && len(unit) > 1 && unit[1] >= '0' && unit[1] <= '9' {
		j := 1
		for j < len(unit) && unit[j] >= '0' && unit[j] <= '9' {
			j++
		}
		num, unit = num+unit[:j], unit[j:]
	}
	switch {
	case strings.Count(num, ",") == 1 && len(num)-strings.Index(num, ",") != 4:
		num = strings.Replace(num, ",", ".", 1) // a decimal comma: "15,5M"
	default:
		num = strings.ReplaceAll(num, ",", "")
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return nil, false
	}
	scale := unitScales[unit]
	if scale == nil {
		return nil, false
	}
	for _, f := range scale {
		vals = append(vals, v*f)
	}
	return vals, true
}

// curvePoints are the core counts a curve over cores shows (a scaling or
// crossover plan reads "at 16" as a point on it).
func (p *Planner) curvePoints(pl *Plan) []float64 {
	if pl.Slots.Knob != slotCores || p.cov == nil {
		return nil
	}
	var out []float64
	for _, c := range p.coverage() {
		if len(pl.Slots.Engines) > 0 && !slices.Contains(pl.Slots.Engines, c.Engine) {
			continue
		}
		for _, n := range c.Cores {
			out = append(out, float64(n))
		}
	}
	return out
}

// unitScales are the units a number may carry, with what each multiplies
// it by (several where the unit is read more than one way: "1kb" is 1,
// 1000 or 1024).
var unitScales = map[string][]float64{
	"": {1}, "k": {1e3}, "m": {1e6}, "mil": {1e6}, "mio": {1e6}, "million": {1e6}, "mm": {1e6}, "b": {1, 1e9}, "bn": {1e9},
	"kb": {1, 1024, 1000}, "kib": {1, 1024}, "k/s": {1e3}, "m/s": {1e6}, "ms": {1}, "s": {1, 1000}, "sec": {1, 1000}, "us": {1, 1e-3}, "µs": {1, 1e-3},
	"%": {1, 0.01}, "x": {1}, "c": {1}, "core": {1}, "cores": {1}, "vcpu": {1}, "vcpus": {1}, "cpu": {1}, "cpus": {1},
	"ops": {1}, "qps": {1}, "rps": {1}, "mops": {1e6}, "kops": {1e3}, "gb": {1, 1e9}, "mb": {1, 1e6},
	"th": {1}, "st": {1}, "nd": {1}, "rd": {1},
}

// unreadNumbers lists the numbers of the question that no slot of the
// plan holds. A slot the plan filled by default does not count: "48
// clients" is not read by a default of 48 cores.
func unreadNumbers(pl *Plan, words []accountWord, points []float64) []string {
	held := points
	var multiples []float64
	for _, w := range words {
		if strings.HasSuffix(w.lower, "x") {
			if vals, ok := numberToken(w.lower); ok {
				multiples = append(multiples, vals...)
			}
		}
	}
	var out []string
	collected := false
	for i, w := range words {
		vals, ok := numberToken(w.lower)
		if !ok || ratioAround(words, i) {
			continue
		}
		if !collected {
			collectHeld(pl, &held, multiples)
			collected = true
		}
		if !slices.ContainsFunc(vals, func(v float64) bool { return heldValue(held, v) }) {
			out = append(out, w.text)
		}
	}
	return out
}

// ratioAround reports a number that is part of a mix written with spaces
// or a slash ("1 : 10", "50/50", "90 / 10").
func ratioAround(words []accountWord, i int) bool {
	if strings.ContainsAny(words[i].lower, "/:") {
		return true
	}
	near := func(j int) bool { return j >= 0 && j < len(words) && (words[j].lower == "/" || words[j].lower == ":") }
	return near(i-1) || near(i+1)
}

func heldValue(held []float64, v float64) bool {
	for _, h := range held {
		if h == v || math.Abs(h-v) <= 1e-9*math.Max(math.Abs(h), 1) {
			return true
		}
	}
	return false
}

// collectHeld gathers every number the plan read, its parts' too.
// A plan that checks a multiple ("is X 25x faster", a claim) reads the
// multiples the question states.
func collectHeld(pl *Plan, held *[]float64, multiples []float64) {
	add := func(vs ...float64) { *held = append(*held, vs...) }
	s := pl.Slots
	defaulted := func(slot string) bool { return slices.Contains(pl.Defaulted, slot) }
	if !defaulted(slotCores) {
		for _, c := range s.Cores {
			add(float64(c))
		}
	}
	if s.ValueBytes > 0 && !defaulted(slotValue) {
		add(float64(s.ValueBytes), float64(s.ValueBytes)/1024, float64(s.ValueBytes)/1000)
	}
	if s.Pipeline > 0 && !defaulted(slotPipeline) {
		add(float64(s.Pipeline))
	}
	if s.Session > 0 && !defaulted(slotSession) {
		add(float64(s.Session))
	}
	if s.Ratio != "" && !defaulted(slotRatio) {
		textNumbers(s.Ratio, held)
		// "MGET of 10 keys per command" is mget10: its 10 is the keys.
		if digits := strings.TrimLeft(s.Ratio, "abcdefghijklmnopqrstuvwxyz"); digits != s.Ratio && digits != "" {
			textNumbers(digits, held)
		}
	}
	// A percentile names its number ("99.9th percentile" is p99.9).
	for _, m := range append([]string{s.Metric}, metricsOf(pl)...) {
		switch m {
		case "p50_ms":
			add(50)
		case "p99_ms":
			add(99)
		case "p999_ms":
			add(99.9, 999)
		}
	}
	if s.DownAfterMs > 0 {
		add(float64(s.DownAfterMs), float64(s.DownAfterMs)/1000)
	}
	for _, v := range s.Versions {
		textNumbers(v, held)
	}
	if pl.Position > 0 {
		add(float64(pl.Position))
	}
	if pl.Multiple || pl.Premise != nil || s.ClaimID != "" {
		*held = append(*held, multiples...)
	}
	if pl.Limit > 0 {
		add(float64(pl.Limit))
	}
	if sr := pl.Search; sr != nil {
		add(sr.Value)
		for _, c := range sr.Conditions {
			textNumbers(c.Filter(), held)
		}
	}
	if b := pl.Bound; b != nil {
		add(b.Value)
	}
	if pr := pl.Prediction; pr != nil {
		add(float64(pr.Value))
	}
	if pl.Premise != nil {
		textNumbers(pl.Premise.Statement, held)
	}
	if u := pl.Units; u != nil && u.Unsupported != "" {
		textNumbers(u.Unsupported, held)
	}
	// Not the notes: they are the planner's own words ("KeyDB refuses more than 16
	// server threads"), whose numbers nobody asked.
	for _, t := range [][]string{pl.Missing, pl.Corrected, pl.Options, {pl.Refusal, pl.PartLabel, pl.UnboundReading}} {
		for _, x := range t {
			textNumbers(x, held)
		}
	}
	for i := range pl.Parts {
		collectHeld(&pl.Parts[i], held, multiples)
	}
}

// metricsOf lists the metrics a plan's queries and search read.
func metricsOf(pl *Plan) []string {
	var out []string
	for _, q := range pl.Queries {
		out = append(out, q.Metric)
	}
	if pl.Search != nil {
		out = append(out, pl.Search.Metric)
	}
	return out
}

// numberSeparators part numbers from what a filter or a ratio writes
// around them.
var numberSeparators = strings.NewReplacer(":", " ", "/", " ", "(", " ", ")", " ", "=", " ", "<", " ", ">", " ")

// textNumbers adds every number written in a text, as written and with
// its unit applied.
func textNumbers(text string, held *[]float64) {
	if strings.IndexFunc(text, unicode.IsDigit) < 0 {
		return
	}
	for _, w := range accountWords(numberSeparators.Replace(text)) {
		if vals, ok := numberToken(w.lower); ok {
			*held = append(*held, vals...)
		}
	}
}

// unreadNames lists the words the bot does not know that stand where a
// name stands (a capitalised word inside a sentence: "the Pelican fork")
// or next to a setting ("sin pipeline", "ohne pipelining"). onSetting maps
// such a word to the setting word it stands by.
func (p *Planner) unreadNames(words []accountWord, unbound []string) (names []string, onSetting map[string]string, beside, glued map[string]bool) {
	shared := p.knownWords()
	// Words the unbound detector already named ("longer pipelines"), or an
	// unmeasured feature was read from ("aof everysec"), are accounted for
	// there.
	var named map[string]bool
	for _, u := range unbound {
		for _, w := range accountWords(u) {
			if named == nil {
				named = map[string]bool{}
			}
			named[w.lower] = true
		}
	}
	whole := sharedKnownWords()
	known := func(w string) bool { return shared[w] || named[w] }
	settings := sharedVocabulary().lx.settingWords
	var unknown func(w accountWord) bool
	unknown = func(w accountWord) bool {
		if known(w.lower) || !hasLetter(w.lower) {
			return false
		}
		if parts := strings.FieldsFunc(w.lower, func(r rune) bool { return r == '-' || r == '/' || r == '\'' }); len(parts) > 1 {
			for _, part := range parts {
				if len(part) > 1 && !whole[part] && unknown(accountWord{text: part, lower: part}) {
					return true
				}
			}
			return false // "read-heavy", "single-process", "i'd"
		}
		if _, ok := numberToken(w.lower); ok {
			return false
		}
		// A word the dictionary knows in another form ("pipelines",
		// "clustered", "cores'") is known.
		for _, suf := range []string{"s", "es", "ed", "ing", "'s", "ly", "'d", "'re", "'ve", "'ll", "'m", "n't"} {
			if base, ok := strings.CutSuffix(w.lower, suf); ok && known(base) {
				return false
			}
		}
		return !strings.ContainsAny(w.lower, "0123456789")
	}
	for i, w := range words {
		if glued := mixedToken(w.lower); glued && !known(w.lower) && !p.readsAlone(w.lower) {
			// "pl1", "x10", "c6a": letters and digits in one word, neither a
			// name nor a number; named back unless the plan reads it.
			names = append(names, w.text)
			if beside == nil {
				beside = map[string]bool{}
			}
			beside[w.text] = true
			continue
		}
		if !unknown(w) || inPhrase(words, i) {
			continue
		}
		next, before := "", ""
		if i+1 < len(words) {
			next = words[i+1].lower
		}
		if i > 0 {
			before = words[i-1].lower
		}
		_, nextIsSetting := settings[next]
		_, afterSetting := settings[before]
		if part, ok := settingPart(w.lower, settings); ok {
			// "semi-pipelined", "anti-pipelined": a word the reader does
			// not know glued to the setting changes what it says, though
			// taking the whole word out changes the plan too.
			if onSetting == nil {
				onSetting = map[string]string{}
			}
			onSetting[w.text] = part
			names = append(names, w.text)
			if glued == nil {
				glued = map[string]bool{}
			}
			glued[w.text] = true
			continue
		}
		if toggles[next] || before == "with" && !nextIsSetting {
			// "hugepages on", "turbo mode", "with THP": a server switch
			// the runs never varied, named back.
			names = append(names, w.text)
			if beside == nil {
				beside = map[string]bool{}
			}
			beside[w.text] = true
			continue
		}
		if nextIsSetting || afterSetting {
			if !nextIsSetting {
				next = before
			}
			if onSetting == nil {
				onSetting = map[string]string{}
			}
			onSetting[w.text] = next
			names = append(names, w.text)
			continue
		}
		switch {
		case !w.first && isCapitalised(w.text):
			names = append(names, w.text)
		case enginePlace[before] || enginePlace[next] || (subjectPlace[next] || objectPlace[before]) && strangeWord(w.lower):
			// "Skyforge vs dragonfly", "faster than pelikan": where an
			// engine's name stands.
			names = append(names, w.text)
		case foreignWord(w.lower) && !isAcronym(w.text):
			// "jaki silnik", "przy 16 cores": a word of no language the
			// reader holds, wherever it stands. It may say anything ("fastest",
			// "without"), so it is named back, never passed over as filler,
			// and never taken for an engine's name.
			names = append(names, w.text)
			if beside == nil {
				beside = map[string]bool{}
			}
			beside[w.text] = true
		case (p.valueWord(before) || p.valueWord(next)) && !englishAdverb(w.lower):
			// "keydb frobnicated 4 cores", "snarfed mget10": beside an
			// engine or a workload it may change; named back, never taken
			// for an engine.
			names = append(names, w.text)
			if beside == nil {
				beside = map[string]bool{}
			}
			beside[w.text] = true
		}
	}
	return names, onSetting, beside, glued
}

// readsAlone reports a word the grammar reads on its own as a setting,
// a metric, an engine or a workload ("16c", "p99", "pl1", "mget10"): read
// wherever it stands, without planning the question again without it.
func (p *Planner) readsAlone(w string) bool {
	x := p.extract(p.g.normalize(w))
	return len(x.engines) > 0 || len(x.metrics) > 0 || x.hasKnobValue() || x.downAfter != 0
}

// mixedToken reports a short word of letters and digits both ("pl1",
// "x10", "r6g"); numbers with a unit the accounting reads as numbers
// ("16k", "1kb") are not.
func mixedToken(w string) bool {
	if len(w) < 2 || len(w) > 8 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return false
	}
	if _, ok := numberToken(w); ok {
		return false
	}
	return strings.ContainsAny(w, "0123456789") && strings.Trim(w, "0123456789") != ""
}

// toggles are the words a server switch is written with ("hugepages on",
// "turbo mode", "activedefrag yes").
var toggles = map[string]bool{"on": true, "off": true, "enabled": true, "disabled": true, "yes": true, "no": true,
	"true": true, "false": true, "mode": true}

// settingPart finds the setting word inside a hyphenated word
// ("semi-pipelined" → "pipelined").
func settingPart[V any](w string, settings map[string]V) (string, bool) {
	parts := strings.Split(w, "-")
	if len(parts) < 2 {
		return "", false
	}
	for _, part := range parts {
		if _, ok := settings[part]; ok {
			return part, true
		}
	}
	return "", false
}

// valueWord reports a word that is a value of the plan on its own: an
// engine, or a workload that is not also an ordinary word ("mget10", not
// "get"). (Beside a number stands too much ordinary English: "afford
// 48", "scored 500k".)
func (p *Planner) valueWord(w string) bool {
	for _, ph := range p.lx.byFirst[w] {
		if len(ph.words) != 1 {
			continue
		}
		if ph.meaning == mEngine || ph.meaning == mWorkload && !functionWords()[w] {
			return true
		}
	}
	return false
}

// enginePlace are the words an engine's name stands beside in a
// comparison.
// strangeWord reports a word that is not English and has the shape of a
// name ("redict", "pelikan"): letters only, four or more. Where an
// engine's name stands ("redict at 16 cores", "how does pelikan
// compare"), taking it for nothing would answer without it.
func strangeWord(w string) bool {
	if len(w) < 4 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return false
	}
	return !englishWords()[w]
}

// foreignWord reports a word of letters only, three or more, that
// neither the vocabulary nor the English word list holds in any of its
// forms: "silnik", "przy", "kaç". (Short English chat, "tbh", "imo",
// is in the function-words table.)
func foreignWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	if n < 3 {
		return false
	}
	english := englishWords()
	if english[w] {
		return false
	}
	for _, suf := range []string{"s", "es", "ed", "ing", "ly", "ally", "er", "est", "ness", "ment"} {
		if base, ok := strings.CutSuffix(w, suf); ok && (english[base] || english[base+"e"]) {
			return false
		}
	}
	// A longer word one slip away from an English one ("whcih") is a typo
	// of English; a short one is as near to English by chance ("ile").
	if n < 5 {
		return !swapFrom(w, functionWords()) // "teh", "waht"
	}
	return !oneEditFrom(w, func(c string) bool { return english[c] || functionWords()[c] })
}

// swapFrom reports whether swapping two neighbouring letters of w gives a
// word of the set.
func swapFrom(w string, set map[string]bool) bool {
	b := []byte(w)
	for i := 0; i+1 < len(b); i++ {
		b[i], b[i+1] = b[i+1], b[i]
		if set[string(b)] {
			return true
		}
		b[i], b[i+1] = b[i+1], b[i]
	}
	return false
}

// oneEditFrom reports whether one edit (a letter dropped, added, changed,
// or two swapped) turns the lower-case ASCII word w into one that is.
func oneEditFrom(w string, is func(string) bool) bool {
	if strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return false
	}
	b := []byte(w)
	for i := range b {
		if is(w[:i] + w[i+1:]) {
			return true
		}
		if i+1 < len(b) {
			b[i], b[i+1] = b[i+1], b[i]
			if is(string(b)) {
				return true
			}
			b[i], b[i+1] = b[i+1], b[i]
		}
	}
	for i := 0; i <= len(w); i++ {
		for c := byte('a'); c <= 'z'; c++ {
			if is(w[:i]+string(c)+w[i:]) || i < len(w) && c != w[i] && is(w[:i]+string(c)+w[i+1:]) {
				return true
			}
		}
	}
	return false
}

// englishAdverb reports an English word in -ly ("specifically",
// "honestly"): beside an engine it says how, not which setting.
func englishAdverb(w string) bool {
	return strings.HasSuffix(w, "ly") && englishWords()[w]
}

// isAcronym reports a word written in capitals, with a plural s or not
// ("SLO", "CSVs"): an abbreviation of English, not a word of another
// language.
func isAcronym(w string) bool {
	w = strings.TrimSuffix(w, "s")
	return len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w
}

//go:embed data/english-words.txt
var englishWordsTable string

// englishWords is the word list, built on the first word no other
// vocabulary of the reader holds.
var englishWords = sync.OnceValue(func() map[string]bool {
	out := make(map[string]bool, 64000)
	for _, line := range strings.Split(englishWordsTable, "\n") {
		if line != "" && line[0] != '#' {
			out[line] = true
		}
	}
	return out
})

// subjectPlace and objectPlace are the words after and before which an
// engine's name stands: "X at 16 cores", "X compare with", "how does X".
var subjectPlace = map[string]bool{"at": true, "compare": true, "compared": true, "compares": true,
	"throughput": true, "p99": true, "p50": true, "latency": true, "ops": true, "beat": true, "beats": true, "outperform": true,
	"outperforms": true, "scale": true, "scales": true, "do": true, "does": true, "handle": true, "handles": true}
var objectPlace = map[string]bool{"does": true, "did": true, "is": true, "of": true, "for": true, "about": true, "try": true, "use": true}

var enginePlace = map[string]bool{"vs": true, "versus": true, "than": true, "against": true, "v": true, "or": true}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// isCapitalised reports a word written as a name: an upper-case first
// letter and a lower-case rest ("Pelican"), not an acronym ("AWS", "NUMA").
func isCapitalised(w string) bool {
	r := []rune(w)
	if len(r) < 2 || !unicode.IsUpper(r[0]) {
		return false
	}
	for _, c := range r[1:] {
		if unicode.IsUpper(c) {
			return false
		}
	}
	return true
}

// defaultedSetting finds an unread word standing on an on/off setting
// (pipelining, a cluster) whose slot the plan filled by default. An unread
// word by any other setting is named in line 1 instead.
func defaultedSetting(pl *Plan, onSetting map[string]string, glued map[string]bool) (slot, word string, ok bool) {
	for w, setting := range onSetting {
		ph := sharedVocabulary().lx.settingWords[setting]
		switch s := settingSlot(ph.value); {
		case glued[w] && (s == slotPipeline || s == slotModes):
			// "semi-pipelined": the setting was read from the very word
			// the reader could not read whole.
			return s, w, true
		case s == slotPipeline && slices.Contains(pl.Defaulted, s), s == slotModes && len(pl.Slots.Modes) != 1:
			return s, w + " " + setting, true
		}
	}
	return "", "", false
}

// settingSlot is the plan slot a setting word sets.
func settingSlot(value string) string {
	switch value {
	case "pipeline", "pipeline_off":
		return slotPipeline
	case "cluster", "cluster_off", "single":
		return slotModes
	case "cores":
		return slotCores
	case "value_bytes":
		return slotValue
	case "ratio":
		return slotRatio
	}
	return ""
}

// settingClarify asks back about an on/off setting (pipelining, a
// cluster) the question stated in words the reader could not read, with
// the measured readings as choices: the pipeline depths the plan's engines
// were run at, or the modes.
func (p *Planner) settingClarify(pl Plan, slot, words string) Plan {
	engines := strings.Join(titled(pl.Slots.Engines), " vs ")
	if engines == "" {
		engines = "every engine"
	}
	var options []string
	switch slot {
	case slotPipeline:
		var depths []int
		for _, c := range p.coverage() {
			if len(pl.Slots.Engines) == 0 || slices.Contains(pl.Slots.Engines, c.Engine) {
				for _, d := range c.Pipelines {
					depths = appendUnique(depths, d)
				}
			}
		}
		slices.Sort(depths)
		for _, d := range depths {
			if d == 1 {
				options = append(options, engines+" with pipelining off (pipeline 1)")
			} else {
				options = append(options, engines+" with pipeline "+strconv.Itoa(d))
			}
		}
	case slotModes:
		options = []string{engines + " as a single process", engines + " as a cluster"}
	}
	c := clarifyPlan(pl.Question, "I could not read “"+words+"”: is it the setting on, or off?", options)
	c.Requested = pl.Intent
	c.Slots = pl.Slots
	c.Unread = pl.Unread
	return c
}

// titled spells engines as names ("redis" → "Redis").
func titled(engines []string) []string {
	out := make([]string, len(engines))
	for i, e := range engines {
		out[i] = engineName(e)
	}
	return out
}

// runSettingsIn names the run settings a question stated (core counts,
// workloads, value sizes, pipeline depths), as the answer would quote them.
// named reports a number already named back inside one of the unread
// settings ("“16 cores”").
func named(unread []string, n string) bool {
	return slices.ContainsFunc(unread, func(u string) bool { return slices.Contains(strings.Fields(strings.Trim(u, "“”")), n) })
}

// fixedSetups are the measured tables taken at one setup, by the kind
// that answers from them.
var fixedSetups = map[Intent]string{IntentFailover: "the failover lab", IntentMemory: "the memory table"}

func runSettingsIn(x *parsed) []string {
	var out []string
	for _, c := range x.cores {
		out = append(out, fmt.Sprintf("“%d cores”", c))
	}
	for _, r := range x.ratios {
		out = append(out, "“"+ratioPhrase(r)+"”")
	}
	for _, v := range x.values {
		out = append(out, fmt.Sprintf("“%d B values”", v))
	}
	for _, d := range x.pipelines {
		out = append(out, fmt.Sprintf("“pipeline %d”", d))
	}
	return out
}
