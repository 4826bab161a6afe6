package main

import (
	"context"
	"io"
	"log/slog"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// app holds what commands share: configuration, I/O and the lazily opened
// store, knowledge base, planner and bot (see app_*.go).
type app struct {
	ctx    context.Context
	cfg    config
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer   // status, as a plain writer
	status *statusLine // stderr, where progress draws its line
	log    *slog.Logger

	closers []func() error

	// readOnly is set for commands that must not create or change the data
	// directory (version, kb, plan): store() then opens it read-only.
	readOnly bool

	st *analytics.Store // opened once by store() (app_store.go)
	// stReadOnly says st was opened read-only: nothing derived from it
	// (the knowledge figures) is written.
	stReadOnly bool
	kb         *knowledge.Base      // loaded once by knowledge() (app_knowledge.go)
	b          *bot.Bot             // built once by bot() (app_bot.go)
	mt         *httpadapter.Metrics // created once by metrics() (app_bot.go)
	llm        *llm.Completer       // built once by completer() (app_planner.go)
	gd         *httpadapter.Guard   // built once by httpGuard() (serve_guard.go)
	sh         *redisadapter.Store  // opened once by shared() (app_shared.go)

	// smallStore is set by collectLittle for a command that answers once
	// from a small store: Badger is then sized for it (analytics.Options.Small).
	smallStore bool

	// serving is set by serve: only it uses the shared state store.
	serving bool
	// serveLog is set by serve and its writing process: what the store's
	// open says (a first use, a migration) is a log line, not a line on
	// stderr of its own.
	serveLog bool
	// logFormat is serve's choice of log lines ("text" or "json"), which
	// its writing process logs in too (its stderr is not a terminal).
	logFormat string
	// degraded says why serve answers without writing its data directory
	// (see openDegraded); nil while it writes.
	degraded error
}

func newApp(ctx context.Context, cfg config, stdin io.Reader, stdout, stderr io.Writer) *app {
	level := slog.LevelWarn
	if cfg.Verbose {
		level = slog.LevelDebug
	}
	status := newStatusLine(stderr)
	log := slog.New(slog.NewTextHandler(status, &slog.HandlerOptions{Level: level}))
	return &app{ctx: ctx, cfg: cfg, stdin: stdin, stdout: stdout, stderr: status, status: status, log: log}
}

func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			a.log.Warn("closing", "err", err)
		}
	}
}
