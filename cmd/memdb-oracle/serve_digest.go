package main

import (
	"context"
	"net/http"
)

// serveDigest returns what serve runs for digest: routes added to mux and a
// long-running function (nil when digest is not configured), plus the reason it
// is off (for the start-up log). Placeholder until its owner builds it.
func (a *app) serveDigest(mux *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	return nil, "digest support is not built yet", nil
}
