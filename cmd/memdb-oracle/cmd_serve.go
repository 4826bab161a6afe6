package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// serveCmd runs the HTTP API and every configured adapter (Slack, Discord)
// and the digest schedule until interrupted.
type serveCmd struct {
	HTTPAddr string `name:"http-addr" placeholder:"HOST:PORT" help:"HTTP listen address for /healthz, /metrics, /api/ask, the web pages and the Slack endpoints (env MEMDB_ORACLE_HTTP_ADDR; default localhost:8080)."`
}

// serveRunner is one long-running part of serve.
type serveRunner struct {
	name string
	run  func(ctx context.Context) error
}

// Run wires the HTTP API, asks each adapter hook for its routes and run
// function, and runs them all until SIGINT/SIGTERM (a.ctx) or the first
// failure, then shuts everything down and waits for it.
func (serveCmd) Run(a *app) error {
	// A long-running process logs JSON at info level (debug with -v).
	level := slog.LevelInfo
	if a.cfg.Verbose {
		level = slog.LevelDebug
	}
	a.log = slog.New(slog.NewJSONHandler(a.stderr, &slog.HandlerOptions{Level: level}))

	a.serving = true
	sh, err := a.shared()
	if err != nil {
		return err
	}
	var health []httpadapter.HealthCheck
	if sh != nil {
		health = append(health, httpadapter.HealthCheck{Name: "shared_state", Check: sh.Check})
		a.log.Info("shared state on Redis/Valkey", "replica", a.cfg.State.Replica)
	}
	h, err := a.answerer()
	if err != nil {
		return err
	}
	if st, err := a.store(); err == nil {
		// A nearly full disk degrades serve (bot state held in memory)
		// rather than stopping it: /healthz and /metrics say so, as they
		// say damage a query found.
		health = append(health, httpadapter.HealthCheck{Name: "disk", Check: st.CheckDisk},
			httpadapter.HealthCheck{Name: "store", Check: st.CheckStore})
		a.metrics().WatchDisk(func() bool { degraded, _ := st.Degraded(); return degraded })
	} else {
		openErr := storeError(err)
		health = append(health, httpadapter.HealthCheck{Name: "store", Check: func(context.Context) error { return openErr }})
	}
	guard, err := a.httpGuard()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	httpadapter.NewAPI(h, httpadapter.Options{
		Logger:  a.log.With("adapter", "http"),
		Metrics: a.metrics(),
		Guard:   guard,
		Health:  health,

		Importer:   importer{a},
		AdminToken: a.cfg.HTTP.AdminToken,
		RenderChart: func(_ context.Context, c bot.Chart) ([]byte, error) {
			return chart.Render(c)
		},
	}).Register(mux)
	if err := a.serveWeb(mux, h, guard); err != nil {
		return err
	}

	hooks := []struct {
		name string
		hook func(*http.ServeMux) (func(context.Context) error, string, error)
	}{
		{"slack", a.serveSlack},
		{"discord", a.serveDiscord},
		{"digest", a.serveDigest},
	}
	var runners []serveRunner
	for _, h := range hooks {
		run, off, err := h.hook(mux)
		if err != nil {
			return fmt.Errorf("starting %s: %w", h.name, err)
		}
		if run == nil {
			a.log.Info("adapter off", "adapter", h.name, "reason", off)
			continue
		}
		a.log.Info("adapter on", "adapter", h.name)
		runners = append(runners, serveRunner{h.name, run})
	}

	if a.cfg.LLM.Provider != "" {
		// Checked next to the other runners, so start-up never waits on it.
		runners = append(runners, serveRunner{"llm-check", func(ctx context.Context) error {
			a.checkCompleter(ctx)
			return nil
		}})
	}

	if sh != nil {
		runners = append(runners, serveRunner{"imports", func(ctx context.Context) error { return a.syncImports(ctx, sh) }})
	}
	if a.st != nil {
		st := a.st
		runners = append(runners, serveRunner{"scrub", func(ctx context.Context) error { return scrubEvery(ctx, st, scrubInterval, a.log) }})
	}
	ln, err := net.Listen("tcp", a.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listening on %s (set --http-addr or MEMDB_ORACLE_HTTP_ADDR): %w", a.cfg.HTTPAddr, err)
	}
	httpLog := a.log.With("adapter", "http")
	runners = append(runners, serveRunner{"http", func(ctx context.Context) error {
		return httpadapter.Serve(ctx, ln, httpadapter.Root(mux, a.metrics(), httpLog), httpadapter.ServeOptions{Logger: httpLog})
	}})
	err = runAll(a.ctx, runners, a.log)
	a.log.Info("stopped")
	return err
}

// scrubInterval is how often serve reads every table block and kept copy
// against its checksum (see analytics.Store.Scrub).
const scrubInterval = 6 * time.Hour

// scrubEvery scrubs the store every interval until ctx ends; what it finds
// is on /healthz (the store check) and in the log, and serve keeps running.
func scrubEvery(ctx context.Context, st *analytics.Store, interval time.Duration, log *slog.Logger) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if err := st.Scrub(ctx); err != nil && ctx.Err() == nil {
				log.Error("the scrub found damage", "err", err)
			}
		}
	}
}

// runAll runs every runner until ctx ends or one of them fails; either way
// it cancels the rest and waits for all of them. It returns the first
// failure (nil on a clean shutdown).
func runAll(ctx context.Context, runners []serveRunner, log *slog.Logger) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, r := range runners {
		wg.Go(func() {
			err := r.run(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Error("stopped with an error", "adapter", r.name, "err", err)
				cancel(fmt.Errorf("%s: %w", r.name, err))
				return
			}
			if ctx.Err() == nil {
				// A runner that returns before shutdown has nothing more to do;
				// the others keep running.
				log.Info("finished", "adapter", r.name)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
