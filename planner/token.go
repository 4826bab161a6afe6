package planner

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind says what shape of text a token is.
type tokenKind uint8

// Token shapes.
const (
	tokWord    tokenKind = iota // letters, possibly with digits ("p99", "mget10")
	tokNumber                   // digits, possibly with a decimal point ("16", "1.5")
	tokRatio                    // two numbers around a colon ("1:10")
	tokPunct                    // one punctuation character
	tokMention                  // "@name": the message is addressed to someone
)

// token is one unit of the normalized question. start and end are byte
// offsets into the normalized text, so spans of tokens map back to text.
type token struct {
	text       string
	kind       tokenKind
	start, end int
}

// tokenize splits normalized text (lower case, typographic punctuation
// folded, number words spelt as digits) into tokens. It never allocates
// per character: tokens are substrings of s.
//
//   - a run of letters and digits that starts with a letter is one word
//     ("p99", "mget10", "dragonfly");
//   - a run that starts with a digit is a number, and letters glued to it
//     are a second token ("16c" → "16" "c", "1kb" → "1" "kb"); a decimal
//     point between digits stays in the number ("99.9");
//   - "n:m" is one ratio token; "'s" and "n't" become their own words
//     ("s", "not"); "w/o" is one word;
//   - "@name" is a mention; any other character is a punctuation token.
func tokenize(s string) []token {
	toks := make([]token, 0, len(s)/4+1)
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case isDigit(c):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
				j++
			}
			if j+1 < len(s) && s[j] == ':' && isDigit(s[j+1]) {
				k := j + 1
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				toks = append(toks, token{s[i:k], tokRatio, i, k})
				i = k
				continue
			}
			toks = append(toks, token{s[i:j], tokNumber, i, j})
			i = j
		case c == '@' && i+1 < len(s) && letterAt(s, i+1):
			j := wordEnd(s, i+1)
			toks = append(toks, token{s[i:j], tokMention, i, j})
			i = j
		case c == 'w' && strings.HasPrefix(s[i:], "w/o") && (i+3 == len(s) || !letterAt(s, i+3)):
			toks = append(toks, token{"without", tokWord, i, i + 3})
			i += 3
		case letterAt(s, i):
			j := wordEnd(s, i)
			word := s[i:j]
			if strings.HasSuffix(word, "n't") || strings.HasSuffix(word, "nt") && contraction(word) {
				base := strings.TrimSuffix(strings.TrimSuffix(word, "n't"), "nt")
				if base == "ca" || base == "wo" { // can't, won't
					base += "n"
				}
				if base != "" {
					toks = append(toks, token{base, tokWord, i, i + len(base)})
				}
				toks = append(toks, token{"not", tokWord, i + len(base), j})
				i = j
				continue
			}
			if base, ok := strings.CutSuffix(word, "'s"); ok && base != "" {
				toks = append(toks, token{base, tokWord, i, i + len(base)}, token{"s", tokWord, i + len(base), j})
				i = j
				continue
			}
			toks = append(toks, token{word, tokWord, i, j})
			i = j
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			toks = append(toks, token{s[i : i+size], tokPunct, i, i + size})
			i += size
		}
	}
	return toks
}

// contraction reports an apostrophe-less "n't" ("dont", "doesnt", "isnt").
func contraction(w string) bool {
	switch w {
	case "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "wont", "shouldnt", "wouldnt", "hasnt", "havent":
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// letterAt reports whether the rune at s[i] is a letter (or a digit
// inside a word, or an apostrophe between letters).
func letterAt(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// wordEnd is the end of the word starting at i: letters, digits, and an
// apostrophe followed by a letter ("what's", "don't").
func wordEnd(s string, i int) int {
	j := i
	for j < len(s) {
		c := s[j]
		switch {
		case isDigit(c) || letterAt(s, j):
			_, size := utf8.DecodeRuneInString(s[j:])
			j += size
		case c == '\'' && j+1 < len(s) && letterAt(s, j+1):
			j++
		case c == '.' && j > i && isDigit(s[j-1]) && j+1 < len(s) && isDigit(s[j+1]): // "p99.9"
			j++
		default:
			return j
		}
	}
	return j
}
