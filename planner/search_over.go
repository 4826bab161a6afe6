package planner

import "strings"

// searchOver decides what a search is over from the noun the question
// asks about, whichever it names first: single runs ("which redis runs
// had…", "any repetition above…", "individual measurements", "tries")
// or cells, the medians of a configuration ("which setups…", "any cell…").
// Without either noun it is "": the search's own default stands.
func (k *kindGrammar) searchOver(t string) string {
	cell := k.cellNoun.FindStringIndex(t)
	run := -1
	for _, m := range k.runNoun.FindAllStringSubmatchIndex(t, -1) {
		if runNounAt(t, m) {
			run = m[0]
			break
		}
	}
	switch {
	case cell != nil && (run < 0 || cell[0] < run):
		return "cells"
	case run >= 0:
		return "runs"
	}
	return ""
}

// runNounAt reports whether a match of runNoun is the noun, not the verb:
// "which engine runs fastest" and "what should we run" ask nothing of
// single runs; "which valkey run", "any run" and "runs with" do.
func runNounAt(t string, m []int) bool {
	word := t[m[0]:m[1]]
	next := ""
	if m[2] >= 0 {
		next = t[m[2]:m[3]]
		word = strings.TrimSpace(t[m[0]:m[2]])
	}
	switch word {
	case "runs":
		switch next {
		case "fastest", "faster", "slowest", "slower", "best", "better", "worst", "worse", "quickest", "quicker", "well", "poorly", "highest", "lowest", "the":
			return false
		}
		return true
	case "run":
		before := strings.Fields(t[:m[0]])
		for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
			switch before[i] {
			case "to", "we", "i", "you", "they", "should", "did", "does", "do", "can", "could", "will", "would", "it", "engine", "didn't", "not":
				return false
			case "any", "a", "one", "single", "which", "what", "each", "every", "the", "individual", "separate", "that", "this", "per", "same", "slowest", "fastest", "worst", "best":
				return true
			}
		}
		return false
	}
	return true
}
