package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// isTerminal reports whether v is a terminal (x/term asks the tty driver,
// so /dev/null, a pipe or a file are not, as a character-device test
// would wrongly say of /dev/null).
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// renderFor returns how answers are printed on the app's stdout: styled
// for a terminal (auto on a TTY, or --format terminal), Markdown when
// piped or --format markdown, plain text for --format plain or on a
// terminal with NO_COLOR set.
func (a *app) renderFor(format string) func(bot.Answer) string {
	width := a.width()
	if format == "auto" || format == "" {
		format = "markdown"
		if isTerminal(a.stdout) {
			format = "terminal"
			if a.cfg.Getenv != nil && a.cfg.Getenv("NO_COLOR") != "" || a.cfg.Getenv != nil && a.cfg.Getenv("TERM") == "dumb" {
				format = "plain"
			}
		}
	}
	switch format {
	case "terminal":
		return func(ans bot.Answer) string { return cliadapter.Styled(ans, width, true) }
	case "plain":
		return func(ans bot.Answer) string { return cliadapter.Styled(ans, width, false) }
	}
	return func(ans bot.Answer) string { return cliadapter.Text(ans, width) }
}

// lineEditor puts the terminal on in into raw mode and returns an x/term
// line editor over in and out (arrow keys, history, Ctrl-A/E/K/U…) and the
// function that restores the terminal.
func lineEditor(in, out *os.File) (*term.Terminal, func(), error) {
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, nil, fmt.Errorf("chat: setting up the terminal: %w", err)
	}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, out}, "> ")
	if w, h, err := term.GetSize(int(out.Fd())); err == nil {
		_ = t.SetSize(w, h)
	}
	return t, func() { _ = term.Restore(int(in.Fd()), state) }, nil
}
