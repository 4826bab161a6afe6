package http

import (
	"context"
	"net/http"
	"time"
)

// HealthCheck is one dependency GET /healthz reports on.
type HealthCheck struct {
	// Name is the field of the report ("shared_state").
	Name string
	// Check returns nil when the dependency works.
	Check func(ctx context.Context) error
}

// healthTimeout bounds each check, so a hung dependency cannot hang the
// load balancer's probe.
const healthTimeout = 2 * time.Second

// healthz reports "ok", or "degraded" naming the failing dependencies. It
// is 200 either way: a degraded replica still answers, from local state.
func (api *API) healthz(w http.ResponseWriter, r *http.Request) {
	report := map[string]string{"status": "ok"}
	for _, c := range api.opts.Health {
		ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
		err := c.Check(ctx)
		cancel()
		if err != nil {
			report[c.Name] = "unavailable"
			report["status"] = "degraded"
			api.log.DebugContext(r.Context(), "health check failed", "check", c.Name, "err", err)
			continue
		}
		report[c.Name] = "ok"
	}
	writeJSON(w, http.StatusOK, report)
}
