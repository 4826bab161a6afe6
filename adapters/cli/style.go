package cli

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Styled renders an answer for a person at a terminal width columns wide:
// the same text and layout as Text, with the Markdown marks turned into
// what a terminal shows — bold for **strong**, dim for _the reading line_,
// colour for `filters` and run IDs, bullets for list items. With color
// false the marks are only removed (plain text, for NO_COLOR or a dumb
// terminal). Nothing is added or left out: only the marks change.
func Styled(a bot.Answer, width int, color bool) string {
	return StyleMarkdown(Text(a, width), color)
}

// ANSI SGR sequences; each style ends with its own reset so styles nest.
const (
	sgrBold    = "\x1b[1m"
	sgrDim     = "\x1b[2m"
	sgrNormal  = "\x1b[22m" // ends bold and dim
	sgrCode    = "\x1b[36m"
	sgrDefault = "\x1b[39m" // ends the code colour
)

// Compiled on first use: a process that never needs it does not pay for it at start.
var (
	codeSpan   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })
	strongSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\*\*([^*]+(?:\*[^*]+)*)\*\*`) })
	// emphasis is _text_ standing apart from words, so snake_case names
	// (value_bytes) are never read as marks.
	emphasisSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[\s(])_([^_\s](?:[^_]*[^_\s])?)_($|[\s).,;:])`) })
)

// StyleMarkdown turns the Markdown marks answers use into terminal styles
// (color) or removes them (plain). Code spans are styled first and their
// contents left alone, so a filter's characters are never read as marks.
func StyleMarkdown(md string, color bool) string {
	lines := strings.Split(md, "\n")
	for i, line := range lines {
		lines[i] = styleLine(line, color)
	}
	return strings.Join(lines, "\n")
}

func styleLine(line string, color bool) string {
	if rest, ok := strings.CutPrefix(line, "- "); ok {
		line = "• " + rest
	}
	// Code spans stand aside as placeholders while the marks are read, so
	// their characters are never marks and a bold span may hold one.
	var codes []string
	line = codeSpan().ReplaceAllStringFunc(line, func(m string) string {
		codes = append(codes, m[1:len(m)-1])
		return codeMark + strconv.Itoa(len(codes)-1) + codeMark
	})
	line = styleProse(line, color)
	for i, c := range codes {
		if color {
			c = sgrCode + c + sgrDefault
		}
		line = strings.Replace(line, codeMark+strconv.Itoa(i)+codeMark, c, 1)
	}
	return line
}

// codeMark brackets a code span's place while the marks around it are
// read: a private-use character no answer contains.
const codeMark = "\ue000"

func styleProse(s string, color bool) string {
	bold, dim, end := "", "", ""
	if color {
		bold, dim, end = sgrBold, sgrDim, sgrNormal
	}
	s = strongSpan().ReplaceAllString(s, bold+"$1"+end)
	// Twice: adjacent emphases share the space between them.
	for range 2 {
		s = emphasisSpan().ReplaceAllString(s, "$1"+dim+"$2"+end+"$3")
	}
	return s
}
