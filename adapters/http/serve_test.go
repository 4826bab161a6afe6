package http

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestServeFinishesRequestsInFlightOnShutdown(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	shuttingDown := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, ln, h, ServeOptions{onShutdown: func() { close(shuttingDown) }})
	}()

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()

	<-started
	cancel()
	<-shuttingDown // the listener is closed; the request is still in flight
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("a new connection was accepted during shutdown")
	}
	close(release)
	if r := <-got; r.err != nil || r.body != "finished" {
		t.Errorf("request in flight got %q, %v; want it to finish", r.body, r.err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve returned %v after a graceful shutdown, want nil", err)
	}
}

func TestServeReportsAListenerThatFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := Serve(t.Context(), ln, http.NotFoundHandler(), ServeOptions{}); err == nil {
		t.Fatal("Serve on a closed listener returned nil")
	}
}

// On shutdown a replica first drains: /readyz says 503 while questions
// are still answered, for the drain period; then it stops.
func TestShutdownDrainsReadinessBeforeStopping(t *testing.T) {
	drain := &Drain{}
	mux := http.NewServeMux()
	var ready atomic.Bool
	NewAPI(&fakeBot{}, Options{Drain: drain, Ready: []HealthCheck{{Name: "store", Check: func(context.Context) error {
		if !ready.Load() {
			return errors.New("not yet")
		}
		return nil
	}}}}).Register(mux)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, mux, ServeOptions{Drain: drain, DrainFor: 300 * time.Millisecond}) }()
	status := func(path string) int {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/readyz"); got != http.StatusServiceUnavailable {
		t.Fatalf("readyz with its store missing: %d", got)
	}
	ready.Store(true)
	if got := status("/readyz"); got != http.StatusOK {
		t.Fatalf("readyz when ready: %d", got)
	}
	cancel()
	time.Sleep(50 * time.Millisecond)
	if r, h := status("/readyz"), status("/healthz"); r != http.StatusServiceUnavailable || h != http.StatusOK {
		t.Fatalf("while draining: readyz %d, healthz %d; want 503 and still serving", r, h)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := status("/healthz"); got != 0 {
		t.Fatalf("still serving after the drain: %d", got)
	}
}
