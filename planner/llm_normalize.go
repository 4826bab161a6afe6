package planner

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// normalize tidies a model's reply before it is validated: each list keeps
// one copy of every value, in the order the question names them (values
// the question does not name follow, in the model's order). A reply that
// repeats itself ("engines":["dragonfly","dragonfly"], "cores":[16,16])
// is then one engine at one core count, never a comparison of a thing with
// itself.
func (a *llmAnswer) normalize(question string) {
	q := strings.ToLower(question)
	a.Engines = inQuestionOrder(dedupe(a.Engines), func(e string) int { return strings.Index(q, e) })
	a.Modes = inQuestionOrder(dedupe(a.Modes), func(m string) int { return modeMentionAt(q, m) })
	a.Topics = inQuestionOrder(dedupe(a.Topics), func(t string) int { return slices.Index(llmTopics(), t) })
	numbers := numberPositions(q)
	a.Cores = inQuestionOrder(dedupe(a.Cores), func(c int) int {
		if at, ok := numbers[c]; ok {
			return at
		}
		return -1
	})
}

// dedupe keeps the first copy of each value.
func dedupe[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// inQuestionOrder sorts values by where the question mentions them (at
// returns -1 for an unmentioned value); unmentioned values go last, in
// their own order.
func inQuestionOrder[T any](xs []T, at func(T) int) []T {
	pos := func(x T) int {
		if i := at(x); i >= 0 {
			return i
		}
		return len(xs) + 1<<30
	}
	slices.SortStableFunc(xs, func(a, b T) int { return cmp.Compare(pos(a), pos(b)) })
	return xs
}

// modeMentionWords are the words a question uses for mode m, as a model
// would have read them.
func modeMentionWords(m string) []string {
	switch m {
	case "single":
		return []string{"single", "one process", "non-cluster"}
	case "cluster":
		return []string{"realistic", "cluster"}
	case "cluster-sat":
		return []string{"ceiling", "fully driven", "saturat", "cluster-sat"}
	}
	return nil
}

// modeMentionAt is where q first names mode m, or -1.
func modeMentionAt(q, m string) int {
	first := -1
	for _, w := range modeMentionWords(m) {
		if i := strings.Index(q, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// numberPositions maps each whole number in q to where it first appears.
func numberPositions(q string) map[int]int {
	out := map[int]int{}
	for i := 0; i < len(q); {
		if q[i] < '0' || q[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(q) && q[j] >= '0' && q[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(q[i:j]); err == nil {
			if _, seen := out[n]; !seen {
				out[n] = i
			}
		}
		i = j
	}
	return out
}
