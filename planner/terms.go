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
	for _, t := range terms {
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
	return ix
}

// find returns the id of the longest term alias found as whole words in the
// normalized text, and the alias.
func (ix termIndex) find(text string) (id, alias string) {
	for _, e := range ix.entries {
		if containsWords(text, e.alias) {
			return e.id, e.alias
		}
	}
	return "", ""
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
