package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chatCmd is an interactive session: one thread, follow-ups work, /new
// starts over. It reads questions line by line, so a pipe works too.
type chatCmd struct {
	Format string `name:"format" default:"auto" enum:"auto,terminal,plain,markdown" help:"How answers are printed: auto is styled for a terminal and Markdown when piped; terminal, plain or markdown force one."`
}

// Run runs the chat loop on the app's stdin and stdout until /quit, end of
// input or an interrupt.
func (c chatCmd) Run(a *app) error {
	b, err := a.bot()
	if err != nil {
		return err
	}
	interactive := isTerminal(a.stdin)
	opts := cliadapter.ChatOptions{Interactive: interactive, Width: a.width(), SaveChart: saveChartToTemp,
		Render: a.renderFor(c.Format)}
	out := a.stdout
	if interactive && isTerminal(a.stdout) {
		// Line editing and history (↑ recalls the last question): the
		// terminal in raw mode, read and written through x/term.
		editor, restore, err := lineEditor(a.stdin.(*os.File), a.stdout.(*os.File))
		if err != nil {
			return err
		}
		defer restore()
		opts.Editor, out = editor, editor
	}
	err = cliadapter.NewChat(b, opts).Run(a.ctx, a.stdin, out)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(out)
		return nil // Ctrl-C ends a chat like /quit
	}
	return err
}

// saveChartToTemp draws a chart into a new temporary PNG file and returns
// its path; the files stay for the user to open after the session.
func saveChartToTemp(c bot.Chart) (string, error) {
	png, err := chart.Render(c)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "memdb-oracle-chart-*.png")
	if err != nil {
		return "", err
	}
	if _, err := f.Write(png); err != nil {
		f.Close()
		return "", err
	}
	return f.Name(), f.Close()
}
