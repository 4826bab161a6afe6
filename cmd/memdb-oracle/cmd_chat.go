package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
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
	err = cliadapter.NewChat(b, cliadapter.ChatOptions{Interactive: interactive}).Run(a.ctx, a.stdin, a.stdout)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(a.stdout)
		return nil // Ctrl-C ends a chat like /quit
	}
	return err
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
