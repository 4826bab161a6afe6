package planner

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// engineRank orders engine keys the way answers name them, the order of
// the lexicon's engine table; engines the vocabulary does not know come
// last.
func engineRank(e string) int {
	order := lexiconEngines().order
	if i := slices.Index(order, e); i >= 0 {
		return i
	}
	return len(order)
}

// engineName is how an engine is written for people; a word that is not
// one of the five engines (a user's "memcached") is capitalised as typed.
func engineName(e string) string {
	if name := analytics.EngineName(e); name != e || e == "" {
		return name
	}
	return strings.ToUpper(e[:1]) + e[1:]
}

// seriesLabel is the series name users see (docs/design.md#data).
func seriesLabel(engine, mode string) string {
	if slices.Contains(analytics.Modes, mode) {
		return analytics.SeriesName(engine, mode)
	}
	return engineName(engine) + " (" + mode + ")"
}

// versionedLabel is a query's series name, with the version when its
// engine's runs name several ("Valkey 9.0 (single process)").
func versionedLabel(s series, cov []analytics.SeriesCoverage) string {
	switch {
	case !versioned(cov, s.engine()) || s.cov.Version == "":
		return seriesLabel(s.engine(), s.mode())
	case !slices.Contains(analytics.Modes, s.mode()):
		return engineName(s.engine()) + " " + s.cov.Version + " (" + s.mode() + ")"
	}
	return analytics.VersionedSeriesName(s.engine(), s.cov.Version, s.mode())
}

// shortSeries names a series compactly inside sentences.
func shortSeries(engine, mode string) string {
	return engineName(engine) + " " + nameOf("mode", mode, 0, "("+mode+")")
}

// modePhrase says how an engine was run, for "only run as …".
func modePhrase(modes []string) string {
	has := func(m string) bool { return slices.Contains(modes, m) }
	switch {
	case has("cluster") && has("cluster-sat") && len(modes) == 2:
		return "a cluster (realistic and fully driven ceiling)"
	case len(modes) == 1:
		return nameOf("mode", modes[0], 1, modes[0])
	}
	var parts []string
	for _, m := range modes {
		parts = append(parts, modePhrase([]string{m}))
	}
	return joinAnd(parts)
}

// valuePhrase names a value size in words.
func valuePhrase(b int) string {
	switch {
	case b == 1024:
		return "1 KB (1024 B) values"
	case b >= 1024*1024 && b%(1024*1024) == 0:
		return fmt.Sprintf("%d MB (%d B) values", b/(1024*1024), b)
	case b > 1024 && b%1024 == 0:
		return fmt.Sprintf("%d KB (%d B) values", b/1024, b)
	}
	return fmt.Sprintf("%d B values", b)
}

// valueShort names a value size inside lists.
func valueShort(b int) string {
	switch {
	case b == 1024:
		return "1 KB (1024 B)"
	case b > 1024 && b%1024 == 0:
		return fmt.Sprintf("%d KB", b/1024)
	}
	return fmt.Sprintf("%d B", b)
}

// joinAnd lists items as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// joinInts lists numbers as "4, 8 and 16".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return joinAnd(s)
}

// joinMap lists items through a naming function.
func joinMap[T any](items []T, name func(T) string) string {
	s := make([]string, len(items))
	for i, it := range items {
		s[i] = name(it)
	}
	return joinAnd(s)
}

// metricPhrase names a metric in words.
func metricPhrase(m string) string {
	return nameOf("metric", m, 0, m)
}

// lowerIsBetter reports metrics ranked ascending.
func lowerIsBetter(m string) bool {
	return nameOf("metric", m, 1, "") == "lower"
}

// ratioPhrase names a ratio in words.
func ratioPhrase(r string) string {
	return nameOf("workload", r, 0, "SET:GET "+r)
}

// ratioShort names a ratio inside lists.
func ratioShort(r string) string {
	return nameOf("workload", r, 1, r)
}

// knobPhrase names an effect knob.
func knobPhrase(k string) string {
	return nameOf("knob", k, 0, k)
}

// namesText is how answers name the values of the measured dimensions:
// data, so renaming a workload or a metric is a line of data/names.txt.
//
//go:embed data/names.txt
var namesText string

// names are the tables of data/names.txt: per table, per key, the fields
// after it. The file is part of the binary, so a malformed line is a
// programming error: it panics on first use, which every test makes.
var names = sync.OnceValue(func() map[string]map[string][]string {
	out := map[string]map[string][]string{}
	var table map[string][]string
	for n, line := range strings.Split(namesText, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			table = map[string][]string{}
			out[strings.TrimSpace(line[3:])] = table
		case table == nil || !strings.Contains(line, "|"):
			panic(fmt.Sprintf("data/names.txt:%d: want KEY | FIELD ... under a table, got %q", n+1, line))
		default:
			f := strings.Split(line, "|")
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			table[f[0]] = f[1:]
		}
	}
	return out
})

// nameOf is field i of key's line in a table of data/names.txt, or
// fallback when the line or the field is missing or empty.
func nameOf(table, key string, i int, fallback string) string {
	if f := names()[table][key]; i < len(f) && f[i] != "" {
		return f[i]
	}
	return fallback
}
