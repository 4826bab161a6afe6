package knowledge

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// Compiled on first use: a process that never needs it does not pay for it at start.
var (
	questionLead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(what(\s+is|\s+are|'s|s)?|define|definition\s+of|meaning\s+of|explain|tell\s+me\s+about)\s+`)
	})
	articleLead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(a|an|the)\s+`) })
	parenthetic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\([^)]*\)`) })
)

// cleanQuery lower-cases a user's wording and drops question words,
// articles, quotes and trailing punctuation.
func cleanQuery(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(s, "\"'`“”‘’ ")
	s = strings.TrimRight(s, "?!. ")
	s = questionLead().ReplaceAllString(s, "")
	s = articleLead().ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// aliasKey is the form names and aliases are compared in: lower case,
// letters and digits only ("p99.9" → "p999", "Cluster-sat" → "clustersat").
func aliasKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// buildAliases indexes every term's name, aliases and id; two terms
// claiming the same alias is a load error. Derived forms (the name without
// its parenthetical, the id's slug) are indexed only where free.
func (b *Base) buildAliases(l *loader) {
	b.aliases = map[string]int{}
	owner := map[string]string{} // key → the exact wording that claimed it
	for i, t := range b.terms {
		explicit := append([]string{t.Name}, t.Aliases...)
		for _, a := range explicit {
			k := aliasKey(a)
			if k == "" {
				l.fail("%s: empty alias: %w", t.ID, ErrInvalid)
				continue
			}
			if j, taken := b.aliases[k]; taken {
				// The same term may spell one alias several ways
				// ("ops_per_core", "Ops per core"); two terms may not share one.
				if j != i {
					l.fail("duplicate alias %q: %s has %q and %s has %q: %w", a, b.terms[j].ID, owner[k], t.ID, a, ErrInvalid)
				}
				continue
			}
			b.aliases[k] = i
			owner[k] = a
		}
	}
	for i, t := range b.terms {
		for _, d := range []string{parenthetic().ReplaceAllString(t.Name, ""), strings.TrimPrefix(t.ID, "term:")} {
			if k := aliasKey(d); k != "" {
				if _, taken := b.aliases[k]; !taken {
					b.aliases[k] = i
				}
			}
		}
	}
}

// Define resolves a term name or alias, case-insensitively and tolerating
// small typos ("pipelinning", "p99.9", "what is a numa node?").
func (b *Base) Define(text string) (Term, bool) {
	q := cleanQuery(text)
	for _, cand := range []string{q, strings.TrimSuffix(q, "s"), strings.TrimSuffix(q, " node"), strings.TrimSuffix(q, " nodes")} {
		if i, ok := b.aliases[aliasKey(cand)]; ok {
			return b.terms[i], true
		}
	}
	k := aliasKey(q)
	if len(k) < 4 {
		return Term{}, false
	}
	limit := 1
	if len(k) >= 8 {
		limit = 2
	}
	best, bestDist, bestKey := -1, limit+1, ""
	for ak, i := range b.aliases {
		if abs(len(ak)-len(k)) > limit || len(ak) < 4 {
			continue
		}
		d := levenshtein.ComputeDistance(k, ak)
		if d < bestDist || (d == bestDist && best >= 0 && (i < best || i == best && ak < bestKey)) {
			best, bestDist, bestKey = i, d, ak
		}
	}
	if best < 0 {
		return Term{}, false
	}
	return b.terms[best], true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
