package web

import (
	"html/template"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// links builds the site's URLs under its base path.
type links struct{ base string }

func (l links) Home() string { return l.base + "/" }
func (l links) Data() string { return l.base + "/data" }

// Entry is where the dataset page shows a glossary term or a claim; "" for
// other entries, which it does not list one by one.
func (l links) Entry(id string) string {
	if strings.HasPrefix(id, "term:") || strings.HasPrefix(id, "claim:") {
		return l.base + "/data#" + id
	}
	return ""
}
func (l links) Runs() string            { return l.base + "/runs" }
func (l links) Run(id string) string    { return l.base + "/runs/" + url.PathEscape(id) }
func (l links) Filter(f string) string  { return l.base + "/runs?filter=" + url.QueryEscape(f) }
func (l links) Chart(key string) string { return l.base + "/charts/" + key + ".png" }
func (l links) Asset(name, v string) string {
	if v == "" {
		return l.base + "/static/" + name
	}
	return l.base + "/static/" + v + "/" + name // named by its content hash
}

// inlineToken finds what the answers' Markdown marks inline: code spans,
// bold, links, bare URLs, run IDs and the ids of glossary terms and claims
// (which the dataset page lists).
//
// Compiled on first use: a process that never needs it does not pay for it at start.
var inlineToken = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`[^`]+`|\\*\\*[^*]+\\*\\*|\\[[^\\]]+\\]\\(https?://[^)\\s]+\\)|https?://[^\\s<>\"]+|\\brun-s\\d+-[A-Za-z0-9.:-]+-rep\\d+\\b|\\b(?:term|claim):[a-z0-9-]*[a-z0-9]")
})

// runIDPattern is a whole run ID.
//
// Compiled on first use: a process that never needs it does not pay for it at start.
var runIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^run-s\d+-[A-Za-z0-9.:-]+-rep\d+$`) })

// inline renders one line of the answers' Markdown as HTML. Every piece of
// text is escaped; code spans that are run IDs link to the run, code spans
// that are filters link to their runs, URLs link out.
func (l links) inline(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range inlineToken().FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		tok := s[m[0]:m[1]]
		switch {
		case strings.HasPrefix(tok, "`"):
			b.WriteString(l.code(tok[1 : len(tok)-1]))
		case strings.HasPrefix(tok, "**"):
			b.WriteString("<strong>" + string(l.inline(tok[2:len(tok)-2])) + "</strong>")
		case strings.HasPrefix(tok, "["):
			text, href, _ := strings.Cut(tok[1:len(tok)-1], "](")
			b.WriteString(externalLink(href, string(l.inline(text))))
		case strings.HasPrefix(tok, "http"):
			// Sentence punctuation after a URL is not part of it.
			trimmed := strings.TrimRight(tok, ".,;:!?)")
			b.WriteString(externalLink(trimmed, template.HTMLEscapeString(trimmed)))
			b.WriteString(template.HTMLEscapeString(tok[len(trimmed):]))
		case strings.HasPrefix(tok, "term:"), strings.HasPrefix(tok, "claim:"):
			b.WriteString(`<a href="` + template.HTMLEscapeString(l.Entry(tok)) + `">` + template.HTMLEscapeString(tok) + `</a>`)
		default:
			b.WriteString(`<a href="` + template.HTMLEscapeString(l.Run(tok)) + `">` + template.HTMLEscapeString(tok) + `</a>`)
		}
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}

// line renders one line of a reply: a line wrapped in underscores is in
// italics as a whole (snake_case names inside stay as they are).
func (l links) line(s string) template.HTML {
	if inner, ok := strings.CutPrefix(s, "_"); ok && len(inner) > 1 {
		if inner, ok = strings.CutSuffix(inner, "_"); ok {
			return "<em>" + l.inline(inner) + "</em>"
		}
	}
	return l.inline(s)
}

// code renders a code span; run IDs and filters become links.
func (l links) code(c string) string {
	esc := "<code>" + template.HTMLEscapeString(c) + "</code>"
	switch {
	case runIDPattern().MatchString(c):
		return `<a href="` + template.HTMLEscapeString(l.Run(c)) + `">` + esc + `</a>`
	case looksLikeFilter(c):
		return `<a href="` + template.HTMLEscapeString(l.Filter(c)) + `">` + esc + `</a>`
	}
	return esc
}

// looksLikeFilter reports whether a code span is an expr filter over runs.
func looksLikeFilter(c string) bool {
	return strings.Contains(c, "==") || strings.Contains(c, "&&")
}

func externalLink(href, html string) string {
	return `<a href="` + template.HTMLEscapeString(href) + `" rel="noopener noreferrer">` + html + `</a>`
}

// block renders a paragraph of the answers' Markdown: lines starting with
// "- " become a list, other lines are joined with line breaks.
func (l links) block(p string) template.HTML {
	var b strings.Builder
	inList := false
	for i, line := range strings.Split(strings.TrimSpace(p), "\n") {
		item, isItem := strings.CutPrefix(line, "- ")
		switch {
		case isItem && !inList:
			b.WriteString("<ul><li>")
			inList = true
		case isItem:
			b.WriteString("</li><li>")
		case inList:
			b.WriteString("</li></ul>")
			inList = false
		case i > 0:
			b.WriteString("<br>")
		}
		if isItem {
			line = item
		}
		b.WriteString(string(l.inline(line)))
	}
	if inList {
		b.WriteString("</li></ul>")
	}
	return template.HTML(b.String())
}
