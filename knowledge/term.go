package knowledge

import "strings"

// Term is a glossary entry.
type Term struct {
	ID         string   `json:"id"` // "term:pipelining"
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Group      string   `json:"group"` // "client side", "server side", "network", "metrics", "client architecture", "other"
	Definition string   `json:"definition"`
	Why        string   `json:"why"`        // why it moves the numbers
	ValueHere  string   `json:"value_here"` // the value used in this benchmark
	SeeAlso    []string `json:"see_also"`
	Sources    []Source `json:"sources"`
}

// Gist is the one-line form of the definition.
func (t Term) Gist() string { return firstSentence(t.Definition) }

// firstSentence returns s up to and including its first full stop that ends
// a sentence (followed by a space and an upper-case letter, or the end).
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		if i+1 == len(s) {
			return s
		}
		if i+2 < len(s) && s[i+1] == ' ' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
			return s[:i+1]
		}
	}
	return s
}
