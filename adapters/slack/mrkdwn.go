package slack

import (
	"regexp"
	"strings"
	"sync"
)

// Slack's mrkdwn is not Markdown: bold is *x*, italics _x_, links <url|text>,
// no headings, and &, < and > must be escaped or Slack reads them as
// markup (<!channel>, <@U123>). These functions turn the bot's Markdown into
// mrkdwn and make user-supplied text inert.

// escape makes text inert in mrkdwn: nothing in it can ping a user, a
// channel or @everyone, or become a link.
func escape(s string) string {
	return mrkdwnEscaper.Replace(s)
}

var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// markdownEscape makes plain text literal in Slack's markdown block
// (standard Markdown): its markers are backslash-escaped, and a line that
// would start a heading, a list or a quote is kept a paragraph. Nothing in
// it can ping, link or set text in bold.
func markdownEscape(s string) string {
	lines := strings.Split(markdownInline(s), "\n")
	for i, l := range lines {
		if m := mdBlockStart().FindStringSubmatchIndex(l); m != nil {
			lines[i] = l[:m[3]] + "\\" + l[m[3]:]
		}
	}
	return strings.Join(lines, "\n")
}

// markdownInline backslash-escapes Markdown's markers in plain text.
func markdownInline(s string) string { return markdownEscaper.Replace(s) }

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`,
	"[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "|", `\|`, "#", `\#`, "&", `\&`)

// mdBlockStart finds a line start Markdown reads as a list item ("- ",
// "+ ", "1. ", "1) "); group 1 ends before its marker's punctuation.
var mdBlockStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*(?:\d{1,9})?)[-+.)]\s`) })

// unescape reverses Slack's escaping of user text in events.
func unescape(s string) string {
	return mrkdwnUnescaper.Replace(s)
}

var mrkdwnUnescaper = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">")

// Compiled on first use: a process that never needs it does not pay for it at start.
var (
	mdLink    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s]+)\)`) })
	mdBold    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\*\*([^*\n]+?)\*\*|__([^_\n]+?)__`) })
	mdItalic  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*\n]*?)\*($|[^*\w])`) })
	mdHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*$`) })
	mdBullet  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)[-*+]\s+`) })
)

// mrkdwn converts the bot's Markdown into Slack mrkdwn: escaping, links,
// bold, italics, headings and bullets. Code spans and fenced lines are kept
// verbatim apart from escaping. Pipe tables and long fenced blocks are laid
// out by builder.markdown, which calls this for the prose between them.
func mrkdwn(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			lines[i] = escape(line)
			continue
		}
		if inFence {
			lines[i] = escape(line)
			continue
		}
		lines[i] = mrkdwnLine(line)
	}
	return strings.Join(lines, "\n")
}

// mrkdwnLine converts one line outside fenced blocks.
func mrkdwnLine(line string) string {
	if m := mdHeading().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		return "*" + inline(m[1]) + "*"
	}
	if loc := mdBullet().FindStringSubmatchIndex(line); loc != nil {
		indent := line[loc[2]:loc[3]]
		return indent + "• " + inline(line[loc[1]:])
	}
	return inline(line)
}

// inline converts inline Markdown, leaving `code spans` alone.
func inline(s string) string {
	parts := strings.Split(s, "`")
	for i := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			parts[i] = escape(parts[i]) // inside a code span
			continue
		}
		parts[i] = inlineText(parts[i])
	}
	return strings.Join(parts, "`")
}

// inlineText converts links, bold and italics in text without code.
func inlineText(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range mdLink().FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(emphasis(escape(s[last:m[0]])))
		text, url := s[m[2]:m[3]], s[m[4]:m[5]]
		b.WriteString("<" + escape(url) + "|" + escape(text) + ">")
		last = m[1]
	}
	b.WriteString(emphasis(escape(s[last:])))
	return b.String()
}

// emphasis turns *italics* into _italics_ and **bold** into *bold*.
func emphasis(s string) string {
	const boldMark = "\x00"
	s = mdBold().ReplaceAllStringFunc(s, func(m string) string {
		return boldMark + m[2:len(m)-2] + boldMark
	})
	s = mdItalic().ReplaceAllString(s, "${1}_${2}_${3}")
	return strings.ReplaceAll(s, boldMark, "*")
}

// pipeRows reads a Markdown pipe table's header and rows (the separator
// line dropped).
func pipeRows(lines []string) [][]string {
	var rows [][]string
	for _, l := range lines {
		cells := strings.Split(strings.Trim(l, "|"), "|")
		sep := true
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
			if strings.Trim(cells[i], ":-") != "" {
				sep = false
			}
		}
		if sep {
			continue
		}
		rows = append(rows, cells)
	}
	return rows
}
