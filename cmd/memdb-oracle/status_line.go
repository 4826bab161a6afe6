package main

import (
	"io"
	"os"
	"sync"

	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
)

// statusLine is the app's stderr. A progress display draws one unfinished
// line on it (redrawn in place with a carriage return); anything else
// written to stderr (a log line, a warning) first ends that line, so the
// two never share a line and the display reappears below on its next
// redraw.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	term  bool       // w is a terminal: only then is a status line drawn
	width func() int // the terminal's width in columns
	drawn bool       // a status line is on screen and not yet ended
}

// clearLine returns to the start of the line and erases it.
const clearLine = "\r\033[K"

func newStatusLine(w io.Writer) *statusLine {
	sl := &statusLine{w: w}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		sl.term = true
		sl.width = func() int { return cliadapter.Width("", f.Fd()) }
	}
	return sl
}

// Write ends a drawn status line, then writes p.
func (s *statusLine) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked()
	return s.w.Write(p)
}

// show draws text as the status line, replacing the one on screen. It is
// cut to the terminal's width, since a wrapped line could not be redrawn
// in place. It does nothing unless stderr is a terminal.
func (s *statusLine) show(text string) {
	if !s.term {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.width != nil {
		if w := s.width(); w > 1 && len(text) >= w {
			text = text[:w-1] // the text is ASCII
		}
	}
	_, _ = io.WriteString(s.w, clearLine+text)
	s.drawn = true
}

// end erases the status line, if one is drawn.
func (s *statusLine) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked()
}

func (s *statusLine) endLocked() {
	if s.drawn {
		_, _ = io.WriteString(s.w, clearLine)
		s.drawn = false
	}
}
