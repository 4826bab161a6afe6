// Command memdb-oracle answers questions about in-memory data stores from
// measured benchmark runs, in a terminal, over HTTP, in Slack and in Discord.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	processWide = true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runEnviron(ctx, os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr)
	stop()
	var done childExit // the import's process said it all already
	if err != nil && !errors.As(err, &done) {
		// One line per problem (a configuration error lists them all).
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(os.Stderr, "memdb-oracle:", line)
		}
	}
	if err != nil {
		os.Exit(exitCode(err))
	}
}
