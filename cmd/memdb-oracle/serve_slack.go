package main

import (
	"context"
	"net/http"
)

// serveSlack returns what serve runs for slack: routes added to mux and a
// long-running function (nil when slack is not configured), plus the reason it
// is off (for the start-up log). Placeholder until its owner builds it.
func (a *app) serveSlack(mux *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	return nil, "slack support is not built yet", nil
}
