package planner

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// newPunctuationFold maps typographic characters onto the plain ones the
// grammar is written in.
func newPunctuationFold() *strings.Replacer {
	return strings.NewReplacer(
		"–", "-", "—", "-", "−", "-", "‐", "-", "‑", "-",
		"‘", "'", "’", "'", "`", "'", "´", "'",
		"“", "\"", "”", "\"", "«", "\"", "»", "\"",
		"×", "x", "→", " to ", "->", " to ", "…", " ", "≈", "~", "µs", "us",
		"\u00a0", " ", "\u2009", " ", "\u202f", " ",
	)
}

// numberWord spells a number word ("sixteen", "fortyeight") as digits.
func numberWord(w string) (string, bool) {
	switch w {
	case "one":
		return "1", true
	case "two":
		return "2", true
	case "three":
		return "3", true
	case "four":
		return "4", true
	case "five":
		return "5", true
	case "six":
		return "6", true
	case "seven":
		return "7", true
	case "eight":
		return "8", true
	case "nine":
		return "9", true
	case "ten":
		return "10", true
	case "twelve":
		return "12", true
	case "sixteen":
		return "16", true
	case "twenty":
		return "20", true
	case "thirty":
		return "30", true
	case "forty":
		return "40", true
	case "fifty":
		return "50", true
	case "sixty":
		return "60", true
	case "hundred":
		return "100", true
	}
	return "", false
}

// tensWord is the value of the first half of a compound number ("forty").
func tensWord(w string) int {
	switch w {
	case "twenty":
		return 20
	case "thirty":
		return 30
	case "forty":
		return 40
	case "fifty":
		return 50
	case "sixty":
		return 60
	case "ninety":
		return 90
	}
	return 0
}

// unitWord is the value of the second half of a compound number ("eight").
func unitWord(w string) int {
	switch w {
	case "one":
		return 1
	case "two":
		return 2
	case "three":
		return 3
	case "four":
		return 4
	case "five":
		return 5
	case "six":
		return 6
	case "seven":
		return 7
	case "eight":
		return 8
	case "nine":
		return 9
	}
	return 0
}

// normalize lower-cases the question, folds typographic punctuation,
// spells numbers as digits and collapses white space; sentence punctuation
// (?!,;()"") stands apart as its own token. Everything the grammar
// matches is matched against this form.
func (g *grammar) normalize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	s = g.fold.Replace(strings.ToLower(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case strings.ContainsRune("?!,;()[]{}\"", r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		case r < utf8.RuneSelf && !unicode.IsSpace(r) && !unicode.IsControl(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ') // white space, control characters, emoji, symbols
		}
	}
	words := strings.Fields(b.String())
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if t := tensWord(w); t > 0 && i+1 < len(words) { // "forty eight"
			if u := unitWord(words[i+1]); u > 0 {
				out = append(out, strconv.Itoa(t+u))
				i++
				continue
			}
		}
		if head, tail, ok := strings.Cut(w, "-"); ok { // "forty-eight"
			if t := tensWord(head); t > 0 {
				if u := unitWord(tail); u > 0 {
					out = append(out, strconv.Itoa(t+u))
					continue
				}
			}
		}
		if head, tail, ok := strings.Cut(w, "-"); ok && tail == "way" && i+1 < len(words) && machineWords[words[i+1]] { // "a sixteen-way machine"
			n, isWord := numberWord(head)
			if !isWord && isNumber(head) {
				n, isWord = head, true
			}
			if isWord {
				out = append(out, n, "cores")
				continue
			}
		}
		if head, tail, ok := strings.Cut(w, "-"); ok && writtenSizes[tail] { // "one-kilobyte"
			if n, ok := numberWord(head); ok {
				out = append(out, n, tail)
				continue
			}
		}
		if n, ok := numberWord(w); ok {
			out = append(out, n)
			continue
		}
		if base, ok := strings.CutSuffix(w, "ish"); ok && isNumber(strings.TrimSuffix(base, "-")) {
			out = append(out, strings.TrimSuffix(base, "-")) // "16ish": the number; the accounting names the hedge
			continue
		}
		if long, ok := shorthand()[w]; ok {
			w = long
		}
		if f, n := fractionOfUnit(words[i:]); n > 0 {
			// "half a millisecond", "a quarter of a millisecond": the
			// fraction as a number before its unit.
			out = append(out, f)
			i += n - 1
			continue
		}
		if w == "half" { // "half of its 16 cores" is 8 cores
			j := i + 1
			for j < len(words) && halfSkips[words[j]] {
				j++
			}
			if j+1 < len(words) && coreUnit(words[j+1]) {
				if n, err := strconv.Atoi(words[j]); err == nil && n > 1 && n%2 == 0 {
					out = append(out, strconv.Itoa(n/2))
					i = j
					continue
				}
			}
			if j < len(words) {
				// "half of the 48-core box", "half its 16-thread maximum"
				if head, tail, ok := strings.Cut(words[j], "-"); ok && coreUnit(tail) {
					if n, err := strconv.Atoi(head); err == nil && n > 1 && n%2 == 0 {
						out = append(out, strconv.Itoa(n/2), "cores")
						i = j
						continue
					}
				}
			}
		}
		if w == "dozen" || w == "dozens" {
			// "a dozen cores", "two dozen", "half a dozen": counted in twelves
			n := len(out)
			switch {
			case n >= 2 && out[n-2] == "half" && out[n-1] == "a":
				out = append(out[:n-2], "6")
				continue
			case n >= 1 && (out[n-1] == "a" || out[n-1] == "one"):
				out = append(out[:n-1], "12")
				continue
			case n >= 1 && isNumber(out[n-1]):
				if k, err := strconv.Atoi(out[n-1]); err == nil {
					out = append(out[:n-1], strconv.Itoa(k*12))
					continue
				}
			}
		}
		if writtenSizes[w] && (len(out) == 0 || !isNumber(out[len(out)-1])) {
			out = append(out, "1") // "kilobyte values" are values of one kilobyte
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// fractionOfUnit reads a fraction written in words before a unit ("half a
// millisecond", "a tenth of a ms", "a quarter of a second"): the number,
// and how many words it took (0 when the words are not one).
func fractionOfUnit(words []string) (string, int) {
	fractions := map[string]string{"half": "0.5", "quarter": "0.25", "tenth": "0.1"}
	i := 0
	if len(words) > 0 && words[0] == "a" {
		i = 1 // "a quarter of a …"
	}
	if i >= len(words) {
		return "", 0
	}
	f, ok := fractions[words[i]]
	if !ok || i == 1 && words[i] == "half" {
		return "", 0
	}
	j := i + 1
	if j < len(words) && words[j] == "of" {
		j++
	}
	if j+1 < len(words) && words[j] == "a" && fractionUnits[words[j+1]] {
		return f, j + 1 // the unit stays: "0.5 millisecond"
	}
	return "", 0
}

// fractionUnits are the units a fraction in words is taken of.
var fractionUnits = map[string]bool{"millisecond": true, "ms": true, "second": true, "microsecond": true, "million": true,
	"kilobyte": true, "kb": true, "megabyte": true, "mb": true}

// halfSkips may stand between "half" and the count it halves.
var halfSkips = map[string]bool{"of": true, "a": true, "an": true, "this": true, "that": true, "its": true, "the": true, "their": true, "our": true, "those": true, "these": true, "my": true, "your": true}

// shorthandText is typed shorthand and what it stands for.
//
//go:embed data/shorthand.txt
var shorthandText string

var shorthand = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(shorthandText, "\n") {
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(f[0], "#") {
			out[f[0]] = f[1]
		}
	}
	return out
})

// writtenSizes are the size units written out, which stand for one of
// themselves when no number comes before them.
var writtenSizes = map[string]bool{
	"kilobyte": true, "kilobytes": true, "kibibyte": true, "kibibytes": true,
	"megabyte": true, "megabytes": true,
}

// hasWordContent reports whether the text holds at least one letter or digit.
func hasWordContent(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// wordSpan is one run of letters and digits in the normalized text.
type wordSpan struct {
	start, end int
}

// countWords is len(words(s)), without listing them.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if alnum && !in {
			n++
		}
		in = alnum
	}
	return n
}

// words splits normalized text into words (letters and digits), with their
// byte offsets.
func words(s string) []wordSpan {
	var out []wordSpan
	start := -1
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if alnum && start < 0 {
			start = i
		}
		if !alnum && start >= 0 {
			out = append(out, wordSpan{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, wordSpan{start, len(s)})
	}
	return out
}
