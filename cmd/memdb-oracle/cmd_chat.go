package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chatCmd is an interactive session: one thread, follow-ups work, /new
// starts over. It reads questions line by line, so a pipe works too.
type chatCmd struct{}

// Run runs the chat loop on the app's stdin and stdout until /quit, end of
// input or an interrupt.
func (chatCmd) Run(a *app) error {
	b, err := a.bot()
	if err != nil {
		return err
	}
	interactive := isTerminal(a.stdin)
	opts := cliadapter.ChatOptions{Interactive: interactive, Width: a.width(), SaveChart: saveChartToTemp}
	err = cliadapter.NewChat(b, opts).Run(a.ctx, a.stdin, a.stdout)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(a.stdout)
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

// isTerminal reports whether r is a character device (a terminal), not a
// pipe or a file.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
