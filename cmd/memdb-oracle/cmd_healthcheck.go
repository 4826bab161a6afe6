package main

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// healthcheckCmd asks a running serve's GET /healthz, for container
// HEALTHCHECKs where no curl exists: exit 0 when it answers 200.
type healthcheckCmd struct {
	Addr string `name:"addr" placeholder:"HOST:PORT" help:"Address serve listens on (default MEMDB_ORACLE_HTTP_ADDR, with 0.0.0.0 read as 127.0.0.1)."`
}

// Run probes /healthz once, within three seconds.
func (c healthcheckCmd) Run(a *app) error {
	addr := c.Addr
	if addr == "" {
		addr = a.cfg.HTTPAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{fmt.Errorf("--addr %q: want HOST:PORT", addr)}
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get("http://" + net.JoinHostPort(host, port) + "/healthz")
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: /healthz answered %d", resp.StatusCode)
	}
	return nil
}
