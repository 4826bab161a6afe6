package discord

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// textLen is a string's length as Discord counts it for its limits (UTF-16
// code units, as in JavaScript; never less than the number of characters).
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
		if n < 0 { // invalid rune: counted as the replacement character
			n += 2
		}
	}
	return n
}

// truncate shortens s to at most max units, ending with "…" when cut.
func truncate(s string, max int) string {
	if textLen(s) <= max {
		return s
	}
	head, _ := cutAt(s, max-1)
	return strings.TrimRight(head, " ") + "…"
}

// cutAt splits s after at most max units, on a rune boundary.
func cutAt(s string, max int) (head, tail string) {
	n := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if n+w > max {
			return s[:i], s[i:]
		}
		n += w
	}
	return s, ""
}

const fence = "```"

// splitText splits Markdown into pieces of at most max units, at line
// breaks where it can, then at spaces, then anywhere. A code block cut in
// two is closed at the end of one piece and reopened at the start of the
// next, so every piece renders on its own. Nothing is dropped: joining the
// pieces gives back the text apart from those added fences and the line
// breaks the cuts fall on.
func splitText(s string, max int) []string {
	if textLen(s) <= max {
		return []string{s}
	}
	var (
		out    []string
		cur    strings.Builder
		curLen int
		open   string // the fence line that opened the current code block
		bare   bool   // cur holds only a reopened fence line
	)
	closing := func() int {
		if open == "" {
			return 0
		}
		return 1 + len(fence)
	}
	flush := func() {
		if curLen == 0 || bare {
			return
		}
		piece := cur.String()
		if open != "" {
			piece += "\n" + fence
		}
		out = append(out, piece)
		cur.Reset()
		curLen = 0
		bare = false
		if open != "" {
			cur.WriteString(open)
			curLen = textLen(open)
			bare = true
		}
	}
	add := func(line string) {
		if curLen > 0 {
			cur.WriteByte('\n')
			curLen++
		}
		cur.WriteString(line)
		curLen += textLen(line)
		bare = false
	}
	for _, line := range strings.Split(s, "\n") {
		isFence := strings.HasPrefix(strings.TrimSpace(line), fence)
		reserve := closing()
		if isFence && open != "" {
			reserve = 0 // this line closes the block itself
		}
		sep := 0
		if curLen > 0 {
			sep = 1
		}
		if curLen+sep+textLen(line)+reserve > max {
			flush()
		}
		for {
			sep = 0
			if curLen > 0 {
				sep = 1
			}
			room := max - curLen - sep - reserve
			if textLen(line) <= room {
				break
			}
			if room < 1 {
				// Even an empty piece cannot take more; should not happen
				// for sane limits, but never loop forever.
				room = 1
			}
			head, tail := cutWords(line, room)
			add(head)
			flush()
			line = tail
		}
		add(line)
		if isFence {
			if open == "" {
				open = strings.TrimSpace(line)
			} else {
				open = ""
			}
		}
	}
	if !bare && curLen > 0 {
		piece := cur.String()
		if open != "" {
			piece += "\n" + fence
		}
		out = append(out, piece)
	}
	return out
}

// cutWords cuts line after at most max units, preferring the last space.
func cutWords(line string, max int) (head, tail string) {
	head, tail = cutAt(line, max)
	if tail == "" {
		return head, tail
	}
	if i := strings.LastIndexByte(head, ' '); i > len(head)/2 {
		return line[:i+1], line[i+1:] // the space stays, so code is kept verbatim
	}
	if head == "" { // max smaller than the first rune
		_, size := utf8.DecodeRuneInString(line)
		return line[:size], line[size:]
	}
	return head, tail
}
