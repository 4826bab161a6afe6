// Command memdb-oracle answers questions about in-memory data stores from
// measured benchmark runs, in a terminal, over HTTP, in Slack and in Discord.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	processWide = true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "memdb-oracle:", err)
		os.Exit(exitCode(err))
	}
}
