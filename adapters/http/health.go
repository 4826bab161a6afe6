package http

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// HealthCheck is one dependency GET /healthz reports on.
type HealthCheck struct {
	// Name is the field of the report ("shared_state").
	Name string
	// Check returns nil when the dependency works.
	Check func(ctx context.Context) error
	// Explain puts the failing check's error in the report, under "why"
	// and Name: for errors written to be read by whoever probes (they
	// name no secret), such as why serve answers degraded.
	Explain bool
}

// healthTimeout bounds each check, so a hung dependency cannot hang the
// load balancer's probe.
const healthTimeout = 2 * time.Second

// healthz reports "ok", or "degraded" naming the failing dependencies
// (and, for those that explain, why). It is 200 either way: a degraded
// replica still answers, from local state.
func (api *API) healthz(w http.ResponseWriter, r *http.Request) {
	report := map[string]any{"status": "ok"}
	why := map[string]string{}
	for _, c := range api.opts.Health {
		ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
		err := c.Check(ctx)
		cancel()
		if err != nil {
			report[c.Name] = "unavailable"
			report["status"] = "degraded"
			if c.Explain {
				why[c.Name] = err.Error()
			}
			api.log.DebugContext(r.Context(), "health check failed", "check", c.Name, "err", err)
			continue
		}
		report[c.Name] = "ok"
	}
	if len(why) > 0 {
		report["why"] = why
	}
	writeJSON(w, http.StatusOK, report)
}

// Drain says the process is stopping: /readyz answers 503 from Begin on,
// so load balancers move traffic away while requests in flight finish.
// The zero Drain is not draining; it is safe for concurrent use.
type Drain struct{ on atomic.Bool }

// Begin starts the drain.
func (d *Drain) Begin() { d.on.Store(true) }

// Draining reports whether Begin was called.
func (d *Drain) Draining() bool { return d != nil && d.on.Load() }

// readyz is 200 "ready" when every Ready check passes and the process is
// not draining, else 503 naming what is missing: unlike /healthz (alive,
// perhaps degraded), it tells a load balancer whether to send traffic.
func (api *API) readyz(w http.ResponseWriter, r *http.Request) {
	if api.opts.Drain.Draining() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "draining"})
		return
	}
	report := map[string]string{"status": "ready"}
	code := http.StatusOK
	for _, c := range api.opts.Ready {
		ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
		err := c.Check(ctx)
		cancel()
		if err != nil {
			report[c.Name], report["status"], code = "unavailable", "not ready", http.StatusServiceUnavailable
			continue
		}
		report[c.Name] = "ok"
	}
	writeJSON(w, code, report)
}
