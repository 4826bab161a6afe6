package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// serveCmd runs the HTTP API and every configured adapter (Slack, Discord)
// and the digest schedule until interrupted.
// Its settings (--http-addr, the tokens …) are the global ones.
type serveCmd struct{}

// serveRunner is one long-running part of serve.
type serveRunner struct {
	name string
	run  func(ctx context.Context) error
}

// Run wires the HTTP API, asks each adapter hook for its routes and run
// function, and runs them all until SIGINT/SIGTERM (a.ctx) or the first
// failure, then shuts everything down and waits for it.
func (serveCmd) Run(a *app) error {
	// A long-running process logs at info level (debug with -v): short
	// lines for a person at a terminal, JSON for a log collector.
	level := slog.LevelInfo
	if a.cfg.Verbose {
		level = slog.LevelDebug
	}
	human := a.cfg.LogFormat == "text" || (a.cfg.LogFormat != "json" && a.status.term)
	a.logFormat = "json"
	if human {
		a.logFormat = "text"
		a.log = slog.New(newHumanHandler(a.stderr, level))
	} else {
		a.log = slog.New(slog.NewJSONHandler(a.stderr, &slog.HandlerOptions{Level: level}))
	}
	a.serveLog = true
	if os.Getenv(serveWriterEnv) != "" {
		// Serve's writing process: its lines join serve's, marked as its.
		a.log = a.log.With("process", "writer", "pid", os.Getpid())
		return a.writeForServe()
	}

	a.serving = true
	limitServeMemory()
	sh, err := a.shared()
	if err != nil {
		return err
	}
	var health, ready []httpadapter.HealthCheck
	if sh != nil {
		health = append(health, httpadapter.HealthCheck{Name: "shared_state", Check: sh.Check})
		// Ready only with shared state as configured: a replica on local
		// state answers, but its limits and de-duplication are its own.
		ready = append(ready, httpadapter.HealthCheck{Name: "shared_state", Check: func(context.Context) error {
			if !sh.Up() {
				return fmt.Errorf("shared state store not usable: %s", sh.Reason())
			}
			return nil
		}})
		a.log.Info("shared state on Redis/Valkey", "replica", a.cfg.State.Replica)
	}
	if err := a.prepareDataDir(); err != nil {
		return err
	}
	if _, err := a.store(); errors.Is(err, analytics.ErrDiskFull) {
		// The disk filled since it was prepared, under Badger's open or
		// its read-only fallback (openStore): answer all the same.
		if err := a.openDegraded("the store could not be opened for writing", "opening the store", err); err != nil {
			return err
		}
	}
	h, err := a.answerer()
	if err != nil {
		return err
	}
	st, storeErr := a.store()
	ready = append(ready, httpadapter.HealthCheck{Name: "store", Check: func(context.Context) error { return storeErr }})
	if storeErr == nil && a.stReadOnly && a.degraded == nil {
		// serve's own open found the disk full (see openStore).
		a.degraded = degradedStore{disk: true, msg: "the store could not be opened for writing (the disk is full): answering read-only from the store as it was; " + degradedTail}
	}
	if storeErr == nil {
		// A nearly full disk degrades serve (bot state held in memory)
		// rather than stopping it: /healthz and /metrics say so, as they
		// say damage a query found.
		diskCheck := st.CheckDisk
		if degraded := a.degraded; degraded != nil {
			// A store serve does not write checks no space: the directory's
			// file system is what a restart needs room on.
			diskCheck = func(context.Context) error { return analytics.CheckFreeSpace(a.cfg.DataDir) }
			health = append(health, httpadapter.HealthCheck{Name: "data_dir", Explain: true, Check: func(context.Context) error { return degraded }})
		}
		health = append(health, httpadapter.HealthCheck{Name: "disk", Check: diskCheck},
			httpadapter.HealthCheck{Name: "store", Check: st.CheckStore})
		a.metrics().WatchDisk(func() bool { degraded, _ := st.Degraded(); return degraded || diskCheck(a.ctx) != nil })
		a.metrics().WatchScrub(func() (time.Time, int, int) {
			r := st.LastScrub()
			return r.Finished, r.Tables + r.Copies, len(r.Damaged)
		})
	} else {
		openErr := storeError(storeErr)
		health = append(health, httpadapter.HealthCheck{Name: "store", Check: func(context.Context) error { return openErr }})
	}
	drain := &httpadapter.Drain{}
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
		Ready:   ready,
		Drain:   drain,

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
		if h.name != "digest" {
			// Slack or Discord unreachable (at start or later) is retried
			// with backoff while HTTP and the other adapters serve.
			run = retrying(h.name, run, adapterBackoff, a.log)
		}
		runners = append(runners, serveRunner{h.name, run})
	}

	if a.cfg.LLM.Provider != "" {
		// Checked next to the other runners, so start-up never waits on it.
		runners = append(runners, serveRunner{"llm-check", func(ctx context.Context) error {
			a.checkCompleter(ctx)
			return nil
		}})
	}

	if feed, on, err := a.feed(); err != nil {
		return err
	} else if on && a.degraded != nil {
		a.log.Warn("import feed off: serve answers degraded and takes no imports until it is started again")
	} else if on {
		runners = append(runners, serveRunner{"imports", func(ctx context.Context) error { return a.syncImports(ctx, feed) }})
	} else if sh != nil {
		a.log.Info("import feed off: imports stay on the replica that made them (set MEMDB_ORACLE_SHARED_KEY on every replica to share them, signed)")
	}
	if a.st != nil {
		st := a.st
		runners = append(runners, serveRunner{"scrub", func(ctx context.Context) error { return scrubEvery(ctx, st, scrubInterval, a.log) }})
		if a.degraded == nil { // a store serve does not write needs no watch
			// A disk another writer fills stops the store's writes before
			// its last byte (see analytics.Store.WatchDisk).
			runners = append(runners, serveRunner{"disk", st.WatchDisk})
		}
	}
	ln, err := net.Listen("tcp", a.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listening on %s (set --http-addr or MEMDB_ORACLE_HTTP_ADDR): %w", a.cfg.HTTPAddr, err)
	}
	url := openURL(ln.Addr(), a.cfg.Getenv("MEMDB_ORACLE_BASE_PATH"))
	a.log.Info("serving", "url", url)
	if human {
		fmt.Fprintf(a.stderr, "\nmemdb-oracle is answering: open %s (Ctrl-C stops it)\n\n", url)
	}
	httpLog := a.log.With("adapter", "http")
	runners = append(runners, serveRunner{"http", func(ctx context.Context) error {
		return httpadapter.Serve(ctx, ln, httpadapter.Root(mux, a.metrics(), httpLog),
			httpadapter.ServeOptions{Logger: httpLog, Drain: drain, DrainFor: a.cfg.HTTP.DrainFor})
	}})
	err = runAll(a.ctx, runners, a.log)
	a.log.Info("stopped")
	return err
}

// adapterBackoff is the wait before retry n (1-based) of a chat adapter
// that stopped with an error: 1 s, 2 s, 4 s … up to 2 minutes.
func adapterBackoff(n int) time.Duration {
	return min(time.Second<<min(n-1, 7), 2*time.Minute)
}

// retrying runs run again, after backoff(n) for the n-th failure in a row,
// whenever it returns an error before ctx ends; a run that lasted a minute
// resets the count. It returns nil when ctx ends.
func retrying(name string, run func(context.Context) error, backoff func(int) time.Duration, log *slog.Logger) func(context.Context) error {
	return func(ctx context.Context) error {
		for n := 1; ; n++ {
			started := time.Now()
			err := run(ctx)
			if ctx.Err() != nil {
				return nil
			}
			if err == nil {
				return nil
			}
			if time.Since(started) > time.Minute {
				n = 1
			}
			wait := backoff(n)
			log.Warn("adapter stopped; trying again", "adapter", name, "attempt", n, "in", wait.String(), "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
		}
	}
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
			if _, err := st.Scrub(ctx); err != nil && ctx.Err() == nil {
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
