package planner

import (
	"cmp"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// termIndex finds glossary terms named anywhere in a question: every
// term's name, aliases and id slug in normalized form, longest first.
type termIndex struct {
	entries []termAlias
	// names maps a term's id to its name.
	names map[string]string
	// byWord lists, per leading word, the entries whose alias starts with
	// it (in entry order); other lists those starting with another byte.
	byWord map[string][]int
	other  []int
}

type termAlias struct {
	alias string // normalized, with single spaces
	id    string
}

func newTermIndex(g *grammar, terms []knowledge.Term) termIndex {
	var ix termIndex
	seen := map[string]bool{}
	marks := strings.NewReplacer("(", " ", ")", " ", "\"", " ", "?", " ", ",", " ")
	add := func(alias, id string) {
		a := g.normalize(alias)
		a = strings.Join(strings.Fields(marks.Replace(a)), " ")
		if len(a) < 3 || seen[a] {
			return
		}
		seen[a] = true
		ix.entries = append(ix.entries, termAlias{alias: a, id: id})
	}
	ix.names = make(map[string]string, len(terms))
	for _, t := range terms {
		if _, ok := ix.names[t.ID]; !ok {
			ix.names[t.ID] = t.Name
		}
		add(t.Name, t.ID)
		// "MOVED / ASK redirects": each side names the entry too.
		if parts := strings.Split(t.Name, " / "); len(parts) > 1 {
			for _, part := range parts {
				add(part, t.ID)
			}
		}
		for _, a := range t.Aliases {
			add(a, t.ID)
		}
		slug := strings.TrimPrefix(t.ID, "term:")
		add(slug, t.ID)
		add(strings.ReplaceAll(slug, "-", " "), t.ID)
	}
	// Longest aliases first, so "fully driven ceiling" wins over "ceiling".
	slices.SortStableFunc(ix.entries, func(a, b termAlias) int { return cmp.Compare(len(b.alias), len(a.alias)) })
	ix.byWord = map[string][]int{}
	for k, e := range ix.entries {
		if w := leadingWord(e.alias); w != "" {
			ix.byWord[w] = append(ix.byWord[w], k)
		} else {
			ix.other = append(ix.other, k)
		}
	}
	return ix
}

// leadingWord is the run of word bytes an alias starts with ("" when it
// starts with another byte).
func leadingWord(s string) string {
	j := 0
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	return s[:j]
}

// find returns the id of the longest term alias found as whole words in the
// normalized text, and the alias: the first in the index's order. An alias
// starting with a word can only stand where the text's word is that same
// word, so only those aliases are tried at each word of the text.
func (ix termIndex) find(text string) (id, alias string) {
	best := -1
	better := func(k int) bool { return best < 0 || k < best }
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		w := leadingWord(text[i:])
		for _, k := range ix.byWord[w] {
			if !better(k) {
				break
			}
			a := ix.entries[k].alias
			if end := i + len(a); strings.HasPrefix(text[i:], a) && (end == len(text) || !isWordByte(text[end])) {
				best = k
				break
			}
		}
		i += len(w)
	}
	for _, k := range ix.other {
		if !better(k) {
			break
		}
		if containsWords(text, ix.entries[k].alias) {
			best = k
			break
		}
	}
	if best < 0 {
		return "", ""
	}
	return ix.entries[best].id, ix.entries[best].alias
}

// containsWords reports whether phrase occurs in text on word boundaries.
func containsWords(text, phrase string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(phrase)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		from = i + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
