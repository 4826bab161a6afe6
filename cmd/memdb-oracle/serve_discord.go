package main

import (
	"context"
	"net/http"
)

// serveDiscord returns what serve runs for discord: routes added to mux and a
// long-running function (nil when discord is not configured), plus the reason it
// is off (for the start-up log). Placeholder until its owner builds it.
func (a *app) serveDiscord(mux *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	return nil, "discord support is not built yet", nil
}
