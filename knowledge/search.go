package knowledge

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// Hit is one search result.
type Hit struct {
	ID    string  `json:"id"`
	Kind  string  `json:"kind"`
	Title string  `json:"title"`
	Gist  string  `json:"gist"`
	Score float64 `json:"score"`
}

// searchIndex is a small ranked index over every entry: words in the id,
// title and aliases weigh more than words in the body, rare words more than
// common ones, and the query's words appearing together more than apart.
type searchIndex struct {
	docs []indexedDoc
	df   map[string]int
}

type indexedDoc struct {
	entry  *Entry
	exact  map[string]bool // alias keys of the id slug, the title and the aliases
	strong []string        // id slug, title, aliases
	body   []string
	tf     map[string]int
	strTF  map[string]int
}

var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "of": true, "and": true,
	"or": true, "to": true, "in": true, "on": true, "for": true, "with": true, "what": true, "how": true,
	"does": true, "do": true, "it": true, "its": true, "this": true, "that": true, "by": true, "as": true,
	"at": true, "be": true, "vs": true, "why": true, "which": true, "from": true, "about": true,
}

// tokens splits text into lower-case words of letters and digits, drops
// stop words and folds simple plurals.
func tokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := f[:0]
	for _, w := range f {
		if stopwords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

func newSearchIndex(entries []Entry) *searchIndex {
	ix := &searchIndex{df: map[string]int{}}
	for i := range entries {
		e := &entries[i]
		kind, slug, _ := strings.Cut(e.ID, ":")
		strong := tokens(kind + " " + slug + " " + e.Title + " " + strings.Join(e.Aliases, " "))
		body := tokens(e.Text)
		d := indexedDoc{entry: e, strong: strong, body: body, tf: map[string]int{}, strTF: map[string]int{}, exact: map[string]bool{}}
		names := []string{e.ID, slug, e.Title, parenthetic().ReplaceAllString(e.Title, "")}
		if kind == "engine-status" {
			names = names[:1] // its slug names the engine, which has its own entry
			names = append(names, e.Title)
		}
		for _, name := range append(names, e.Aliases...) {
			d.exact[aliasKey(name)] = true
		}
		seen := map[string]bool{}
		for _, w := range body {
			d.tf[w]++
			seen[w] = true
		}
		for _, w := range strong {
			d.strTF[w]++
			seen[w] = true
		}
		for w := range seen {
			ix.df[w]++
		}
		ix.docs = append(ix.docs, d)
	}
	return ix
}

// Search ranks every entry against the words of query, best first; entries
// that match none of the words are left out.
func (b *Base) Search(query string) []Hit {
	q := tokens(query)
	if len(q) == 0 {
		return nil
	}
	b.indexOnce.Do(func() { b.index = newSearchIndex(b.entries) })
	ix := b.index
	n := float64(len(ix.docs))
	qKey := aliasKey(cleanQuery(query))
	var hits []Hit
	for _, d := range ix.docs {
		score, matched := 0.0, 0
		for _, w := range q {
			idf := math.Log(1 + n/float64(1+ix.df[w]))
			s := 0.0
			if d.strTF[w] > 0 {
				s += 4
			}
			if tf := d.tf[w]; tf > 0 {
				s += math.Log(1 + float64(tf))
			}
			if s > 0 {
				matched++
			}
			score += idf * s
		}
		if matched == 0 {
			continue
		}
		if len(q) > 1 {
			var idfSum float64
			for _, w := range q {
				idfSum += math.Log(1 + n/float64(1+ix.df[w]))
			}
			if containsRun(d.strong, q) {
				score += 4 * idfSum
			} else if containsRun(d.body, q) {
				score += idfSum
			}
		}
		score *= float64(matched) / float64(len(q))
		if d.exact[qKey] {
			score *= 2 // the query is the entry's name, an alias or its id
		}
		hits = append(hits, Hit{ID: d.entry.ID, Kind: d.entry.Kind, Title: d.entry.Title, Gist: d.entry.Gist, Score: math.Round(score*1000) / 1000})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	return hits
}

// containsRun reports whether words holds q as a contiguous run.
func containsRun(words, q []string) bool {
outer:
	for i := 0; i+len(q) <= len(words); i++ {
		for j := range q {
			if words[i+j] != q[j] {
				continue outer
			}
		}
		return true
	}
	return false
}
