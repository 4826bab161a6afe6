package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// cli is the command line: global flags and one field per subcommand. Each
// subcommand lives in its own cmd_*.go file with a Run(*app) error method;
// one tagged model:"whole" reads kong's model of every command (parseNamed).
type cli struct {
	Settings    settings         `embed:""`
	Verbose     bool             `name:"verbose" short:"v" help:"Log debug details to stderr."`
	ShowVersion kong.VersionFlag `name:"version" help:"Print the version and exit."`

	Ask         askCmd         `cmd:"" help:"Answer one question."`
	Chat        chatCmd        `cmd:"" help:"Interactive session: one thread, follow-ups work, /new starts over."`
	Runs        runsCmd        `cmd:"" help:"Runs matching a raw expr filter, with medians per cell."`
	Import      importCmd      `cmd:"" help:"Add runs from a CSV file; validates everything before writing anything. No row limit: the file is streamed; memory grows only by the duplicate check, about 8 bytes a row (under 200 MB at three million rows); free disk space of about 4x the file's size is needed."`
	Plan        planCmd        `cmd:"" help:"Show how a question is understood (the plan), without answering."`
	Preview     previewCmd     `cmd:"" help:"Print the exact API requests the Slack or Discord adapter would make for a question, as JSON."`
	Feedback    feedbackCmd    `cmd:"" help:"Read the 👍/👎 people gave answers: list them, or export them as corpus-ready lines."`
	KB          kbCmd          `cmd:"" name:"kb" help:"Inspect the knowledge base."`
	Digest      digestCmd      `cmd:"" help:"Compose the findings digest; print it or post it to the configured channels."`
	Serve       serveCmd       `cmd:"" help:"Run the enabled adapters (HTTP, Slack, Discord) and the digest schedule."`
	Version     versionCmd     `cmd:"" help:"Print the version and the embedded dataset's fingerprint."`
	Doctor      doctorCmd      `cmd:"" help:"Check the data directory's store (tables, manifest, every run); --repair rebuilds a damaged one."`
	Healthcheck healthcheckCmd `cmd:"" help:"Exit 0 when a running serve answers GET /healthz (for container health checks)."`
	Completion  completionCmd  `cmd:"" model:"whole" help:"Print a shell completion script: eval \"$(memdb-oracle completion bash)\" (or zsh, fish)."`
}

// usageError marks errors in how the command was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var (
		ue usageError
		ce childExit
	)
	switch {
	case errors.As(err, &ue):
		return 2
	case errors.As(err, &ce):
		return ce.code
	case errors.Is(err, analytics.ErrCorrupt), errors.Is(err, analytics.ErrCopyDamaged):
		return exitDamaged
	case errors.Is(err, analytics.ErrDiskFull):
		return exitDiskFull
	}
	return 1
}

// run parses args, builds the app and runs the chosen command. It is what
// the end-to-end tests drive; main calls runEnviron, which also warns
// about unknown variables.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	file, err := readConfigFile(configFileArg(args, getenv))
	if err != nil {
		return usageError{err}
	}
	c, kctx, ok := parseNamed(args, getenv, file)
	if !ok {
		c = new(cli)
		exited := false
		parser, err := newParser(c, getenv, file, stdout, stderr, func(int) { exited = true })
		if err != nil {
			return fmt.Errorf("building the command line: %w", err)
		}
		if len(args) == 0 {
			// A bare command is a newcomer asking what this does: the usage,
			// not an error.
			kctx, err := kong.Trace(parser, nil)
			if err != nil {
				return err
			}
			return kctx.PrintUsage(false)
		}
		kctx, err = parser.Parse(args)
		if exited {
			return nil // --help or --version was printed
		}
		if err != nil {
			return usageError{withQuestionHint(err, args)}
		}
	}
	cfg, err := loadConfig(c.Verbose, c.Settings.lookup(getenv))
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

// newParser builds the command line over c, its settings resolved from
// getenv and the config file's values; extra options come last.
func newParser(c *cli, getenv func(string) string, file map[string]string, stdout, stderr io.Writer, exit func(int), extra ...kong.Option) (*kong.Kong, error) {
	return kong.New(c, append([]kong.Option{
		kong.Name("memdb-oracle"),
		kong.Description("Answers questions about Redis, Valkey, Dragonfly, KeyDB and Garnet from measured benchmark runs only. " +
			"Every setting below can also be given as the environment variable shown, or in --config FILE; " +
			"docs/configuration.md lists them all."),
		kong.Writers(stdout, stderr),
		kong.Exit(exit),
		kong.UsageOnError(),
		// Commands first, then the settings: a newcomer sees what the
		// program does before its forty-odd settings.
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, FlagsLast: true, WrapUpperBound: 100}),
		kong.ExplicitGroups(settingGroups),
		expandSettingDefaults(),
		kong.Vars{"version": "memdb-oracle " + programVersion()},
		kong.Resolvers(settingsResolver(getenv, file)),
	}, extra...)...)
}

// parseNamed parses args against a command line that holds only the
// commands args name (kong ignores the other fields of cli): building the
// model, every field's tags read and every help text interpolated, was
// most of a one-shot process's start, and a parse can only choose a
// command whose name it was given; nor does it need help texts. It
// reports false for anything but a
// clean parse (help, --version, an error, a bare command), which the whole
// command line then parses again and prints, and for a command tagged
// model:"whole", which reads the model itself.
func parseNamed(args []string, getenv func(string) string, file map[string]string) (*cli, *kong.Context, bool) {
	var ignore []string
	t := reflect.TypeFor[cli]()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			continue
		}
		switch {
		case !slices.Contains(args, commandName(f)):
			ignore = append(ignore, f.Name)
		case f.Tag.Get("model") == "whole":
			return nil, nil, false
		}
	}
	if len(args) == 0 || len(ignore) == 0 {
		return nil, nil, false
	}
	c := new(cli)
	exited := false
	parser, err := newParser(c, getenv, file, io.Discard, io.Discard, func(int) { exited = true },
		kong.IgnoreFields(`^cli\.(?:`+strings.Join(ignore, "|")+`)$`),
		// Nothing this parse prints is shown: kong need not interpolate help.
		kong.PostBuild(func(k *kong.Kong) error {
			return kong.Visit(k.Model, func(n kong.Visitable, next kong.Next) error {
				switch n := n.(type) {
				case *kong.Node:
					n.Help, n.Detail = "", ""
				case *kong.Value:
					n.Help = ""
				}
				return next(nil)
			})
		}))
	if err != nil {
		return nil, nil, false
	}
	kctx, err := parser.Parse(args)
	if err != nil || exited {
		return nil, nil, false
	}
	return c, kctx, true
}

// commandName is the name kong gives the command of a field of cli: its
// name tag, else the field's name in lower case (TestCommandNames).
func commandName(f reflect.StructField) string {
	if name := f.Tag.Get("name"); name != "" {
		return name
	}
	return strings.ToLower(f.Name)
}

// runEnviron is run over a process environment (os.Environ): it first
// warns on stderr about each MEMDB_ORACLE_* variable no setting declares.
func runEnviron(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	for _, line := range unknownVariables(environ) {
		fmt.Fprintln(stderr, "memdb-oracle:", line)
	}
	return run(ctx, args, func(k string) string { return env[k] }, stdin, stdout, stderr)
}

// readOnlyCommand reports whether a command only reads the data directory:
// such commands never create or change it.
func readOnlyCommand(command string) bool {
	name, _, _ := strings.Cut(command, " ")
	switch name {
	case "version", "kb", "plan", "completion":
		return true
	}
	return false
}

// questionCommands take the question as their words.
var questionCommands = []string{"ask", "plan"}

// withQuestionHint adds to an unknown-flag error of a question command how
// to ask a question that starts with a flag (a pasted memtier line): kong
// reads "--pipeline=16 redis" as the command's own flags.
func withQuestionHint(err error, args []string) error {
	if !strings.HasPrefix(err.Error(), "unknown flag") {
		return err
	}
	for i, a := range args {
		if slices.Contains(questionCommands, a) && i+1 < len(args) && !slices.Contains(args, "--") {
			return fmt.Errorf("%w; a question that starts with a flag (a pasted command line) goes after --: memdb-oracle %s -- %q", err, a, strings.Join(args[i+1:], " "))
		}
	}
	return err
}
