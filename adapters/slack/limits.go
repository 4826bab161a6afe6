package slack

import (
	"strings"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"
)

// Slack's Block Kit limits the renderer keeps to.
const (
	maxSectionText   = 3000 // characters in a section's text
	maxContextText   = 2000 // characters we put in one context element
	maxContextElems  = 10   // elements in a context block
	maxBlocks        = 50   // blocks in a message
	maxMessageText   = 12000
	maxFallbackText  = 3000
	maxButtonLabel   = 75
	maxButtonValue   = 2000
	maxButtons       = 5
	maxResponseCalls = 5 // messages one response_url accepts
)

// chunks splits s into pieces of at most limit characters, preferring line
// breaks, then spaces; nothing is dropped.
func chunks(s string, limit int) []string {
	var out []string
	for utf8.RuneCountInString(s) > limit {
		cut := runeOffset(s, limit)
		at := strings.LastIndex(s[:cut], "\n")
		if at <= 0 {
			at = strings.LastIndex(s[:cut], " ")
		}
		if at <= 0 {
			at = cut
		}
		out = append(out, s[:at])
		s = strings.TrimLeft(s[at:], "\n ")
	}
	if s != "" || len(out) == 0 {
		out = append(out, s)
	}
	return out
}

// runeOffset is the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	i := 0
	for off := range s {
		if i == n {
			return off
		}
		i++
	}
	return len(s)
}

// truncate shortens s to at most limit characters with an ellipsis; used
// only for notification fallback text and button labels, never for content.
func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return s[:runeOffset(s, limit-1)] + "…"
}

// blockText is the amount of text a block carries, to keep a message a
// readable size.
func blockText(b slackgo.Block) int {
	switch v := b.(type) {
	case *slackgo.SectionBlock:
		if v.Text != nil {
			return len(v.Text.Text)
		}
	case *slackgo.ContextBlock:
		n := 0
		for _, e := range v.ContextElements.Elements {
			if t, ok := e.(*slackgo.TextBlockObject); ok {
				n += len(t.Text)
			}
		}
		return n
	case *slackgo.TableBlock:
		n := 0
		for _, row := range v.Rows {
			for _, c := range row {
				if rt, ok := c.(*slackgo.TableRawTextCell); ok {
					n += len(rt.Text)
				}
			}
		}
		return n
	}
	return 0
}

// paginate groups blocks into messages of at most maxBlocks blocks and
// about maxMessageText characters, keeping their order. A native table
// ends its message: Slack takes one table per message.
func paginate(blocks []slackgo.Block) [][]slackgo.Block {
	var pages [][]slackgo.Block
	var cur []slackgo.Block
	size := 0
	for _, b := range blocks {
		n := blockText(b)
		if len(cur) > 0 && (len(cur) == maxBlocks || size+n > maxMessageText) {
			pages = append(pages, cur)
			cur, size = nil, 0
		}
		cur = append(cur, b)
		size += n
		if _, ok := b.(*slackgo.TableBlock); ok {
			pages = append(pages, cur)
			cur, size = nil, 0
		}
	}
	if len(cur) > 0 {
		pages = append(pages, cur)
	}
	return pages
}
