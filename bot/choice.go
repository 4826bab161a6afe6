package bot

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// A clarify answer offers its readings as choices (Answer.Choices, the
// plan's Options). In a thread, a reply that only picks one — "2", "#2",
// "option 2", "the second one", "I meant the 2nd" — asks that choice's
// question with the memory the thread had before the clarify, as a click
// on its button does.

// choiceFillers are the words a pick may carry around its number.
var choiceFillers = map[string]bool{
	"the": true, "one": true, "option": true, "choice": true, "number": true, "no": true, "nr": true,
	"please": true, "pls": true, "i": true, "mean": true, "meant": true, "reading": true, "that": true,
	"is": true, "it": true, "go": true, "with": true, "take": true, "want": true, "id": true, "like": true,
	"ok": true, "okay": true, "then": true, "answer": true, "ask": true,
}

// choiceWords are the ordinals and number words a pick names a choice by.
var choiceWords = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
	"two": 2, "three": 3, "four": 4, "five": 5, "last": -1,
}

// choiceNumber reads a message that only picks a choice and returns its
// number (1-based; -1 for "the last one"). Anything more than a pick is
// a question of its own.
func choiceNumber(text string) (int, bool) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 || len(words) > 6 {
		return 0, false
	}
	n, found := 0, false
	for _, w := range words {
		if choiceFillers[w] {
			continue
		}
		v, ok := choiceWords[w]
		if !ok {
			d, err := strconv.Atoi(w)
			if err != nil || d < 1 || d > 9 {
				return 0, false
			}
			v = d
		}
		if found {
			return 0, false // two numbers: not one pick
		}
		n, found = v, true
	}
	// "one" alone is a filler everywhere else but here is the first.
	if !found && len(words) == 1 && words[0] == "one" {
		return 1, true
	}
	return n, found
}

// ChoiceFor reads text as a pick among choices (a clarify's, in the order
// shown) and returns the chosen question; false when text is more than a
// pick or names no choice.
func ChoiceFor(text string, choices []string) (string, bool) {
	n, ok := choiceNumber(text)
	if n == -1 {
		n = len(choices)
	}
	if !ok || n < 1 || n > len(choices) {
		return "", false
	}
	return choices[n-1], true
}

// pickedChoice reads text as a pick among the choices of the thread's
// last answer, when that was a clarify. It returns the chosen question and
// the plan the thread had before the clarify (nil when there was none).
func pickedChoice(text string, plans []planner.Plan) (string, *planner.Plan, bool) {
	if len(plans) == 0 {
		return "", nil, false
	}
	last := plans[len(plans)-1]
	if last.Intent != planner.IntentClarify || len(last.Options) == 0 {
		return "", nil, false
	}
	q, ok := ChoiceFor(text, last.Options)
	if !ok {
		return "", nil, false
	}
	var prev *planner.Plan
	if len(plans) > 1 {
		prev = &plans[len(plans)-2]
	}
	return q, prev, true
}
