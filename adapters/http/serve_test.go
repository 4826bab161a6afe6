package http

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
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
