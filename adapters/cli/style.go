package cli

import (
	"regexp"
	"strings"

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

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	strongSpan = regexp.MustCompile(`\*\*([^*]+(?:\*[^*]+)*)\*\*`)
	// emphasis is _text_ standing apart from words, so snake_case names
	// (value_bytes) are never read as marks.
	emphasisSpan = regexp.MustCompile(`(^|[\s(])_([^_\s](?:[^_]*[^_\s])?)_($|[\s).,;:])`)
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
	// Split around code spans: only the text between them carries marks.
	var b strings.Builder
	last := 0
	for _, m := range codeSpan.FindAllStringSubmatchIndex(line, -1) {
		b.WriteString(styleProse(line[last:m[0]], color))
		if color {
			b.WriteString(sgrCode + line[m[2]:m[3]] + sgrDefault)
		} else {
			b.WriteString(line[m[2]:m[3]])
		}
		last = m[1]
	}
	b.WriteString(styleProse(line[last:], color))
	return b.String()
}

func styleProse(s string, color bool) string {
	bold, dim, end := "", "", ""
	if color {
		bold, dim, end = sgrBold, sgrDim, sgrNormal
	}
	s = strongSpan.ReplaceAllString(s, bold+"$1"+end)
	// Twice: adjacent emphases share the space between them.
	for range 2 {
		s = emphasisSpan.ReplaceAllString(s, "$1"+dim+"$2"+end+"$3")
	}
	return s
}
