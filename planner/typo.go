package planner

import "strings"

// typoKeywords are the words the grammar relies on, in their canonical
// spelling. Misspelt words within a small edit distance are corrected to
// them before matching ("pipline" → "pipeline", "dragnfly" → "dragonfly").
func typoKeywords() []string {
	return []string{
		"dragonfly", "dragonflydb", "redis", "valkey", "keydb", "garnet",
		"pipeline", "pipelined", "pipelining", "throughput", "latency", "latencies",
		"percentile", "median", "cluster", "clustered", "single", "process",
		"instance", "realistic", "ceiling", "saturated", "driven", "scaling",
		"scale", "scales", "compare", "comparison", "versus", "fastest", "faster",
		"slowest", "slower", "memory", "failover", "sentinel", "outage", "downtime",
		"session", "values", "bytes", "requests", "operations", "efficiency",
		"efficient", "effect", "impact", "difference", "define", "definition",
		"explain", "meaning", "benchmark", "workload", "mixed", "overtake",
		"crossover", "bandwidth", "performance", "millisecond", "milliseconds",
		"standalone", "payload", "second", "pipelines", "shards", "version", "versions", "hardware",
		// words the reader's own phrases start with ("anything but",
		// "the primary dies")
		"anything", "everything", "primary",
	}
}

// isEngineKeyword reports keywords that five-letter words may be corrected
// to (other keywords need six letters or more).
func isEngineKeyword(k string) bool {
	switch k {
	case "redis", "valkey", "keydb", "garnet", "dragonfly":
		return true
	}
	return false
}

// protectedWords are real words close to a keyword that must stay as written.
func protectedWords() map[string]bool {
	return map[string]bool{
		"master": true, "caster": true, "garner": true, "valley": true, "redid": true,
		"mingle": true, "jingle": true, "tingle": true, "singles": true, "latest": true,
		"scaled": true, "scaler": true, "shale": true, "values": true, "valued": true,
		"session": true, "passion": true, "mission": true, "memoir": true, "define": true,
		"defined": true, "affect": true, "process": true, "access": true, "cluster": true,
		"explains": true, "lower": true, "slowly": true, "faster": true, "driver": true,
		"drivers": true, "effects": true, "impacts": true, "retain": true, "engine": true,
		"engines": true, "median": true, "medium": true, "remedies": true, "sealing": true,
		"ceilings": true, "second": true, "seconds": true, "records": true,
		"lowest": true, "slowed": true, "flower": true, "father": true, "taster": true,
		"easter": true, "foster": true, "scalar": true, "valves": true, "valuer": true,
		"medial": true, "refine": true, "defile": true, "drives": true, "singer": true,
		"singly": true, "dingle": true, "shingle": true, "clutter": true, "bluster": true,
		"fluster": true, "verses": true, "closest": true, "largest": true, "longest": true,
		"biggest": true, "highest": true, "fastest": true, "slowest": true, "tester": true,
		"faster's": true, "impacted": true, "effected": true, "memos": true, "sessions": true,
		"clusters": true, "instances": true, "processes": true, "pipelines": true,
		"percentage": true, "percentages": true, "shares": true, "sharps": true, "sharks": true, "person": true,
		"persons": true, "verse": true, "vision": true, "versed": true,
	}
}

// correctTypos rewrites misspelt keywords in normalized text.
func (g *grammar) correctTypos(s string) string {
	ws := words(s)
	var b strings.Builder
	last := 0
	changed := false
	for _, w := range ws {
		word := s[w.start:w.end]
		fix := g.correction(word)
		if fix == "" {
			continue
		}
		b.WriteString(s[last:w.start])
		b.WriteString(fix)
		last = w.end
		changed = true
	}
	if !changed {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// correction returns the keyword a misspelt word stands for, or "".
func (g *grammar) correction(word string) string {
	n := len(word)
	if n < 5 || n > 16 || g.protected[word] || hasDigit(word) || negatedKeyword(word, g.keywords) {
		return ""
	}
	// A negating prefix on a misspelt keyword ("unippelined"): correct the
	// keyword, keep the prefix, so the negation is still read.
	for _, pre := range [...]string{"non", "un", "de", "dis"} {
		if rest, ok := strings.CutPrefix(word, pre); ok && len(rest) >= 6 {
			if fix := g.correction(rest); fix != "" {
				return pre + fix
			}
		}
	}
	best, bestDist := "", 3
	for _, k := range g.keywords {
		if k == word {
			return ""
		}
		limit := 1
		if len(k) >= 9 && n >= 9 {
			limit = 2
		}
		if n < 6 && !isEngineKeyword(k) {
			continue
		}
		if d := len(k) - n; d > limit || -d > limit {
			continue
		}
		if limit == 1 {
			// Most keywords are checked within one edit: that is a scan,
			// not a table.
			if bestDist > 1 && withinOneEdit(word, k) {
				best, bestDist = k, 1
			}
			continue
		}
		if d := osa(word, k, limit); d <= limit && d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// osa is the optimal-string-alignment distance between a and b (edits:
// insert, delete, substitute, swap two adjacent letters), or limit+1 when
// it exceeds limit. Both are ASCII-lowercase or compared bytewise.
func osa(a, b string, limit int) int {
	if a == b {
		return 0
	}
	la, lb := len(a), len(b)
	if la > 32 || lb > 32 {
		return limit + 1
	}
	var rows [3][33]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[lb] > limit {
		return limit + 1
	}
	return prev[lb]
}

// withinOneEdit reports whether a and b are at most one edit apart as
// osa counts edits (osa(a, b, 1) <= 1), without its table.
func withinOneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	switch len(a) - len(b) {
	case 0:
		if i == len(a) || a[i+1:] == b[i+1:] {
			return true // equal, or one letter substituted
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // two letters swapped
	case 1:
		return a[i+1:] == b[i:] // one letter inserted
	}
	return false
}

// negatedKeyword reports a keyword behind a negating prefix
// ("unpipelined", "nonclustered"): it is within a typo's distance of the
// keyword, but correcting it would turn the negative into the positive.
func negatedKeyword(word string, keywords []string) bool {
	for _, pre := range [...]string{"non", "un", "de", "dis"} {
		if rest, ok := strings.CutPrefix(word, pre); ok && rest != "" {
			for _, k := range keywords {
				if k == rest {
					return true
				}
			}
		}
	}
	return false
}
