package planner

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The names stage reads engines by the names people give them — lineage,
// vendor, licence, implementation ("the fork Snap maintained", "MS
// Garnet", "the .NET cache server") — from the knowledge base's engine
// entries (their names, aliases and nicknames: one place, data), and
// writes the engine's own key in their place for the rules. A nickname
// two engines share ("the source-available one") is ambiguous: the plan
// asks which was meant.

// nickname is one way of naming engines, lower-cased.
type nickname struct {
	phrase  string
	engines []string
}

// madeThings are the nouns a description names an engine with ("the BSD
// fork", "Microsoft's server", "the .NET one"): a vendor's or a licence's
// word alone is not an engine ("Microsoft's benchmark" is a claim).
var madeThings = map[string]bool{"server": true, "servers": true, "engine": true, "one": true, "thing": true, "cache": true,
	"store": true, "db": true, "database": true, "fork": true, "product": true, "offering": true, "kv": true, "system": true,
	"project": true, "implementation": true, "rewrite": true, "clone": true}

// describing are the function words a description holds between its
// describing words ("the fork Snap maintained", "the server written in C#",
// "the multi-thread fork of Redis from Snapchat").
// A participle (true) belongs to the description even last ("the fork
// Snap maintained"); the others only stand between its words.
var describing = map[string]bool{"the": false, "a": false, "an": false, "s": false, "that": false, "by": false, "from": false,
	"of": false, "in": false, "made": true, "built": true, "written": true, "maintained": true, "licensed": true,
	"licenced": true, "based": true, "backed": true, "powered": true}

// beforeOther are the words after which an article and describing words
// alone name an engine ("the Linux Foundation fork vs the original at 16
// cores").
var beforeOther = map[string]bool{"vs": true, "versus": true, "and": true, "or": true, "at": true, "on": true,
	"with": true, ",": true, ";": true}

// engineNames are the knowledge base's ways of naming and describing
// engines.
type engineNames struct {
	// nicks are whole names, longest first.
	nicks []nickname
	// descs maps a describing word or words, tokenised, to every engine it
	// describes.
	descs   map[string][]string
	longest int // the most tokens one description holds
}

// newNicknames indexes the knowledge base's engine names, longest first,
// and its describing words; short names with digits are left to the
// rules, which read versions from them ("Redis 8").
func newNicknames(kb Knowledge) func() engineNames {
	return sync.OnceValue(func() engineNames {
		ek, ok := kb.(engineKnowledge)
		if !ok {
			return engineNames{}
		}
		byPhrase := map[string][]string{}
		out := engineNames{descs: map[string][]string{}}
		for _, e := range ek.Engines() {
			for _, n := range append(append([]string{e.Name}, e.Aliases...), e.Nicknames...) {
				n = strings.ToLower(strings.TrimSpace(n))
				// A name holding the engine's own word ("MS Garnet") is read
				// by the rules, with what stands beside it (a vendor).
				// A name of three words or more holding a version ("the Redis
				// 7.2 fork") is a nickname still.
				if n == "" || strings.ContainsAny(n, "0123456789") && len(strings.Fields(n)) < 3 || wordIndex(n, e.Key) >= 0 {
					continue
				}
				if !slices.Contains(byPhrase[n], e.Key) {
					byPhrase[n] = append(byPhrase[n], e.Key)
				}
			}
			for _, d := range e.Descriptors {
				toks := describedTokens(strings.ToLower(d))
				k := joinTokens(toks)
				if k != "" && !slices.Contains(out.descs[k], e.Key) {
					out.descs[k] = append(out.descs[k], e.Key)
					out.longest = max(out.longest, len(toks))
				}
			}
		}
		for ph, es := range byPhrase {
			out.nicks = append(out.nicks, nickname{phrase: ph, engines: es})
		}
		slices.SortFunc(out.nicks, func(a, b nickname) int {
			if d := len(b.phrase) - len(a.phrase); d != 0 {
				return d
			}
			return strings.Compare(a.phrase, b.phrase)
		})
		return out
	})
}

// namesRead is the stage's result: the text for the rules, and a
// nickname it could not settle (two engines share it).
type namesRead struct {
	text      string
	ambiguous *nickname
}

// readNames writes each engine's key where a nickname or a description
// names it.
func (p *Planner) readNames(text string) namesRead {
	text = imageNames(text)
	if p.nicks == nil {
		return namesRead{text: text}
	}
	names := p.nicks()
	lower := strings.ToLower(text)
	out := namesRead{text: text}
	for i := range names.nicks {
		n := &names.nicks[i]
		at := wordIndex(lower, n.phrase)
		if at < 0 || codeName(lower, at+len(n.phrase)) {
			continue
		}
		if len(n.engines) > 1 {
			out.ambiguous = n
			continue
		}
		out.text = out.text[:at] + n.engines[0] + out.text[at+len(n.phrase):]
		lower = lower[:at] + n.engines[0] + lower[at+len(n.phrase):]
	}
	if len(lower) != len(out.text) {
		return out // the offsets of a lower-cased text would not be the text's
	}
	for _, d := range slices.Backward(names.descriptions(lower)) {
		if len(d.engines) > 1 {
			out.ambiguous = &nickname{phrase: lower[d.start:d.end], engines: d.engines}
			continue
		}
		out.text = out.text[:d.start] + d.engines[0] + out.text[d.end:]
	}
	return out
}

// describedTokens are the question's tokens as descriptions are read:
// a hyphen or an apostrophe only parts words ("source-available",
// "snap's"); the marks that make names stay (".net", "c#", "io_uring").
func describedTokens(s string) []token {
	return slices.DeleteFunc(tokenize(s), func(t token) bool { return t.text == "-" || t.text == "'" })
}

func joinTokens(toks []token) string {
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.text
	}
	return strings.Join(words, " ")
}

// description is a run of the text that describes engines.
type description struct {
	start, end int
	engines    []string
}

// descriptions finds the runs of describing words that end in, or hold,
// a thing made ("the BSD fork", "the fork Snap maintained"), each read as
// the engines every describing word in it describes. A run whose words
// describe no engine in common is left to the accounting, which names it.
func (n engineNames) descriptions(s string) []description {
	toks := describedTokens(s)
	var out []description
	for i := 0; i < len(toks); {
		engines, described, made := []string(nil), false, false
		first, last := -1, -1
		j := i
		for j < len(toks) {
			if k, es := n.describingAt(toks, j); k > 0 {
				engines = describedBoth(engines, es)
				phrase := joinTokens(toks[j : j+k])
				made = made || madeThings[phrase]
				described = described || !madeThings[phrase]
				if first < 0 {
					first = j
				}
				j += k
				last = j - 1
				continue
			}
			w := toks[j].text
			if madeThings[w] || forkedFrom(toks, j) {
				made = made || madeThings[w]
				if first < 0 {
					first = j
				}
				last = j
				j++
				continue
			}
			participle, ok := describing[w]
			if !ok {
				break
			}
			if first < 0 && (w == "the" || w == "a" || w == "an") {
				first = j // an article opens a description
			}
			if participle && first >= 0 {
				last = j
			}
			j++
		}
		headless := described && first >= 0 && toks[first].text == "the" && j < len(toks) && beforeOther[toks[j].text]
		// "a shared-nothing engine" is a kind of engine, not one of them.
		kind := first >= 0 && (toks[first].text == "a" || toks[first].text == "an")
		if described && (made || headless) && len(engines) > 0 && first >= 0 && !kind && !ownedBy(toks, first, last+1, engines) {
			out = append(out, description{start: toks[first].start, end: toks[last].end, engines: engines})
		}
		i = max(j, i+1)
	}
	return out
}

// ownedBy reports a description beside the engine it would name:
// "dragonfly's shared-nothing thing", "the io_uring thing Dragonfly does"
// are parts of Dragonfly, not names.
func ownedBy(toks []token, first, after int, engines []string) bool {
	at := first - 1
	if at >= 0 && toks[at].text == "s" {
		at--
	}
	return at >= 0 && slices.Contains(engines, toks[at].text) || after < len(toks) && slices.Contains(engines, toks[after].text)
}

// describingAt returns how many tokens from j form the longest describing
// phrase, and the engines it describes.
func (n engineNames) describingAt(toks []token, j int) (int, []string) {
	for k := min(n.longest, len(toks)-j); k > 0; k-- {
		if es, ok := n.descs[joinTokens(toks[j:j+k])]; ok {
			return k, es
		}
	}
	return 0, nil
}

// forkedFrom reports the engine a fork came from, inside a description of
// the fork ("the multithreaded Redis fork", "the fork of Redis").
func forkedFrom(toks []token, j int) bool {
	if toks[j].text != "redis" {
		return false
	}
	next := j+1 < len(toks) && madeThings[toks[j+1].text]
	after := j >= 2 && toks[j-1].text == "of" && madeThings[toks[j-2].text]
	return next || after
}

// describedBoth keeps the engines of have also in es; nil have is every
// engine.
func describedBoth(have, es []string) []string {
	if have == nil {
		return slices.Clone(es)
	}
	return intersect(have, es)
}

// codeName reports a name used as code: "df.engine", "df[…]" is a data
// frame, not Dragonfly.
func codeName(s string, end int) bool {
	return end < len(s) && (s[end] == '[' || s[end] == '.' && end+1 < len(s) && s[end+1] >= 'a' && s[end+1] <= 'z')
}

// imageNames writes a container image by its name and tag:
// "ghcr.io/microsoft/garnet:1.0" is garnet 1.0, and the registry and the
// organisation ("microsoft") are not words of the question. A word with
// one slash and no registry ("redis/valkey") is left alone.
func imageNames(text string) string {
	if !strings.Contains(text, "/") {
		return text
	}
	words := strings.Fields(text)
	changed := false
	for i, w := range words {
		core := strings.Trim(w, "\"'`,;()")
		parts := strings.Split(core, "/")
		if len(parts) < 2 || strings.HasPrefix(core, "/") || strings.Contains(core, "://") {
			continue
		}
		if !strings.Contains(parts[0], ".") && len(parts) < 3 {
			continue
		}
		name, tag, _ := strings.Cut(parts[len(parts)-1], ":")
		if name == "" {
			continue
		}
		if tag != "" && tag != "latest" {
			name += " " + strings.TrimPrefix(tag, "v") // the tag is the version asked about
		}
		words[i] = strings.Replace(w, core, name, 1)
		changed = true
	}
	if !changed {
		return text
	}
	return strings.Join(words, " ")
}

// wordIndex finds phrase in s at word boundaries; -1 when absent.
func wordIndex(s, phrase string) int {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], phrase)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(phrase)
		if apart(s, i-1) && apart(s, end) {
			return i
		}
		from = i + 1
	}
	return -1
}

// apart reports that byte i of s is outside any word (or outside s).
func apart(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	r := rune(s[i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// ambiguousName asks which engine a shared nickname meant, each choice a
// ready question.
func ambiguousName(question string, n *nickname) Plan {
	var options []string
	for _, e := range n.engines {
		at := wordIndex(strings.ToLower(question), n.phrase)
		if at < 0 {
			options = append(options, engineName(e))
			continue
		}
		options = append(options, question[:at]+engineName(e)+question[at+len(n.phrase):])
	}
	why := "“" + n.phrase + "” fits " + joinAnd(titled(n.engines)) + " alike: which one did you mean?"
	c := clarifyPlan(question, why, options)
	c.Requested = IntentLookup
	return c
}
