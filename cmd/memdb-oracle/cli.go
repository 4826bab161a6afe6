package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// cli is the command line: global flags and one field per subcommand. Each
// subcommand lives in its own cmd_*.go file with a Run(*app) error method.
type cli struct {
	Data    string `name:"data" help:"Data directory (env MEMDB_ORACLE_DATA; default $XDG_DATA_HOME/memdb-oracle or ~/.local/share/memdb-oracle)." placeholder:"DIR"`
	Verbose bool   `name:"verbose" short:"v" help:"Log debug details to stderr."`

	Ask         askCmd         `cmd:"" help:"Answer one question."`
	Chat        chatCmd        `cmd:"" help:"Interactive session: one thread, follow-ups work, /new starts over."`
	Runs        runsCmd        `cmd:"" help:"Runs matching a raw expr filter, with medians per cell."`
	Import      importCmd      `cmd:"" help:"Add runs from a CSV file; validates everything before writing anything. No row limit: the file is streamed; memory grows only by the duplicate check, about 40 bytes a row (under 200 MB at a million rows); free disk space of about 4x the file's size is needed."`
	Plan        planCmd        `cmd:"" help:"Show how a question is understood (the plan), without answering."`
	Preview     previewCmd     `cmd:"" help:"Print the exact API requests the Slack or Discord adapter would make for a question, as JSON."`
	Feedback    feedbackCmd    `cmd:"" help:"Read the 👍/👎 people gave answers: list them, or export them as corpus-ready lines."`
	KB          kbCmd          `cmd:"" name:"kb" help:"Inspect the knowledge base."`
	Digest      digestCmd      `cmd:"" help:"Compose the findings digest; print it or post it to the configured channels."`
	Serve       serveCmd       `cmd:"" help:"Run the enabled adapters (HTTP, Slack, Discord) and the digest schedule."`
	Version     versionCmd     `cmd:"" help:"Print the version and the embedded dataset's fingerprint."`
	Doctor      doctorCmd      `cmd:"" help:"Check the data directory's store (tables, manifest, every run); --repair rebuilds a damaged one."`
	Healthcheck healthcheckCmd `cmd:"" help:"Exit 0 when a running serve answers GET /healthz (for container health checks)."`
}

// usageError marks errors in how the command was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return 2
	case errors.Is(err, analytics.ErrCorrupt):
		return exitDamaged
	case errors.Is(err, analytics.ErrDiskFull):
		return exitDiskFull
	}
	return 1
}

// run parses args, builds the app and runs the chosen command. It is what
// main calls and what the end-to-end tests drive.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	var c cli
	exited := false
	parser, err := kong.New(&c,
		kong.Name("memdb-oracle"),
		kong.Description("Answers questions about Redis, Valkey, Dragonfly, KeyDB and Garnet from measured benchmark runs only."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(int) { exited = true }),
		kong.UsageOnError(),
	)
	if err != nil {
		return fmt.Errorf("building the command line: %w", err)
	}
	kctx, err := parser.Parse(args)
	if exited {
		return nil // --help was printed
	}
	if err != nil {
		return usageError{err}
	}
	cfg, err := loadConfig(c, getenv)
	if err != nil {
		return usageError{err}
	}
	a := newApp(ctx, cfg, stdin, stdout, stderr)
	defer a.close()
	a.readOnly = readOnlyCommand(kctx.Command())
	if err := kctx.Run(a); err != nil {
		return err
	}
	return a.storeSettled()
}

// readOnlyCommand reports whether a command only reads the data directory:
// such commands never create or change it.
func readOnlyCommand(command string) bool {
	name, _, _ := strings.Cut(command, " ")
	switch name {
	case "version", "kb", "plan":
		return true
	}
	return false
}
