package bot

import (
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Suggestions are questions that really work for what someone has typed
// so far (a slash command's autocomplete): the examples holding every
// typed word, then questions about each measured engine whose name starts
// with the last word. At most limit, each at most 100 characters.
func Suggestions(typed string, limit int) []string {
	words := strings.Fields(strings.ToLower(typed))
	var out []string
	add := func(q string) {
		if len(out) < limit && len(q) <= 100 && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, q := range Examples() {
		low := strings.ToLower(q)
		all := true
		for _, w := range words {
			all = all && strings.Contains(low, w)
		}
		if all {
			add(q)
		}
	}
	last := ""
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	for _, e := range analytics.Engines {
		name := analytics.EngineName(e)
		if last != "" && !strings.HasPrefix(strings.ToLower(name), last) {
			continue
		}
		for _, q := range []string{"How does " + name + " scale?", name + " at 16 cores", "What does pipelining do to " + name + "?"} {
			add(q)
		}
	}
	return out
}
