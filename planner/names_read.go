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

// nickname is one way of naming engines, lower-cased. A vendor's name
// names its engine only with a thing it makes beside it ("Microsoft's
// server", "the Snap database"): alone it is the vendor ("Microsoft's
// benchmark" is a claim).
type nickname struct {
	phrase  string
	engines []string
	vendor  bool
}

// madeThings are the nouns a vendor's name stands before to name what it
// makes.
var madeThings = map[string]bool{"server": true, "servers": true, "engine": true, "one": true, "thing": true, "cache": true,
	"store": true, "db": true, "database": true, "fork": true, "product": true, "offering": true, "kv": true, "system": true}

// vendorNames are the ways a vendor field is written short: "Snap Inc."
// is Snap, "Microsoft Research" also Microsoft; a vendor named after its
// engine ("Redis Ltd.") is read by the rules.
func vendorNames(vendor, key string) []string {
	v, _, _ := strings.Cut(vendor, "(")
	v = strings.TrimSpace(strings.ToLower(v))
	for _, suffix := range []string{" inc.", " inc", " ltd.", " ltd", " corp.", " corp", " llc"} {
		v = strings.TrimSuffix(v, suffix)
	}
	if v == "" || wordIndex(v, key) >= 0 || strings.Contains(v, key) {
		return nil
	}
	out := []string{v}
	if first, _, ok := strings.Cut(v, " "); ok && len(first) > 2 {
		out = append(out, first)
	}
	return out
}

// newNicknames indexes the knowledge base's engine names, longest first;
// short names with digits are left to the rules, which read versions from
// them ("Redis 8").
func newNicknames(kb Knowledge) func() []nickname {
	return sync.OnceValue(func() []nickname {
		ek, ok := kb.(engineKnowledge)
		if !ok {
			return nil
		}
		byPhrase := map[string][]string{}
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
		}
		out := make([]nickname, 0, len(byPhrase))
		for ph, es := range byPhrase {
			out = append(out, nickname{phrase: ph, engines: es})
		}
		for _, e := range ek.Engines() {
			for _, v := range vendorNames(e.Vendor, e.Key) {
				out = append(out, nickname{phrase: v, engines: []string{e.Key}, vendor: true})
			}
		}
		slices.SortFunc(out, func(a, b nickname) int {
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

// readNames writes each engine's key where a nickname names it.
func (p *Planner) readNames(text string) namesRead {
	text = imageNames(text)
	if p.nicks == nil {
		return namesRead{text: text}
	}
	nicks := p.nicks()
	lower := strings.ToLower(text)
	out := namesRead{text: text}
	for i := range nicks {
		n := &nicks[i]
		at := wordIndex(lower, n.phrase)
		if at < 0 || codeName(lower, at+len(n.phrase)) {
			continue
		}
		if n.vendor {
			end, ok := madeThingAfter(lower, at+len(n.phrase))
			if !ok {
				continue
			}
			out.text = out.text[:at] + n.engines[0] + out.text[end:]
			lower = lower[:at] + n.engines[0] + lower[end:]
			continue
		}
		if len(n.engines) > 1 {
			out.ambiguous = n
			continue
		}
		out.text = out.text[:at] + n.engines[0] + out.text[at+len(n.phrase):]
		lower = lower[:at] + n.engines[0] + lower[at+len(n.phrase):]
	}
	return out
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

// madeThingAfter finds, within the three words after a vendor's name, the
// thing it makes ("Microsoft Research's Tsavorite-based server"), and
// returns where that noun ends.
func madeThingAfter(s string, from int) (int, bool) {
	rest := s[from:]
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "'s"), "’s")
	offset := len(s) - len(rest)
	pos := 0
	for k := 0; k < 3; k++ {
		for pos < len(rest) && rest[pos] == ' ' {
			pos++
		}
		end := pos
		for end < len(rest) && rest[end] != ' ' {
			end++
		}
		if end == pos {
			return 0, false
		}
		word := strings.Trim(rest[pos:end], "?!.,;:")
		if madeThings[word] {
			return offset + pos + len(word), true
		}
		pos = end
	}
	return 0, false
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
