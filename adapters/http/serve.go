package http

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ServeOptions configure Serve. Zero values are usable.
type ServeOptions struct {
	// Logger receives start, stop and server errors; nil discards.
	Logger *slog.Logger
	// ShutdownGrace is how long requests in flight may take to finish once
	// the context ends; default 10s. After it, connections are closed.
	ShutdownGrace time.Duration
	// Drain, when set, is begun as soon as the context ends, and serving
	// goes on for DrainFor (readiness 503, requests still answered) before
	// the graceful shutdown, so load balancers stop sending traffic first.
	Drain    *Drain
	DrainFor time.Duration

	onShutdown func() // tests: called when graceful shutdown begins
}

// Serve serves h on ln until ctx is done, then shuts down gracefully: it
// stops accepting connections, lets requests in flight finish within the
// grace period and returns nil. It returns an error when serving fails or
// the grace period runs out. ln is closed on return.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, opts ServeOptions) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	grace := opts.ShutdownGrace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if opts.onShutdown != nil {
		srv.RegisterOnShutdown(opts.onShutdown)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("http listening", "addr", ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("serving http on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	if opts.Drain != nil {
		opts.Drain.Begin()
		if opts.DrainFor > 0 {
			log.Info("http draining: /readyz is 503, requests are still served", "for", opts.DrainFor.String())
			select {
			case err := <-errc:
				return fmt.Errorf("serving http on %s: %w", ln.Addr(), err)
			case <-time.After(opts.DrainFor):
			}
		}
	}
	log.Info("http shutting down", "grace", grace.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		<-errc
		return fmt.Errorf("http shutdown: requests still running after %s: %w", grace, err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving http on %s: %w", ln.Addr(), err)
	}
	log.Info("http stopped")
	return nil
}
