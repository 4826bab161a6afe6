package main

import (
	"fmt"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
)

// kvHTTPRateLimit is the KV namespace of the HTTP clients' daily counters.
const kvHTTPRateLimit = "ratelimit-http"

// httpGuard builds the gate of the HTTP API (and of any page sharing the
// listener): the configured keys, trusted proxies and per-client limits,
// daily counts kept with the rest of the bot's state. It is built once, so
// every route sharing it shares the buckets.
func (a *app) httpGuard() (*httpadapter.Guard, error) {
	if a.gd != nil {
		return a.gd, nil
	}
	limiter, err := a.limiter(a.cfg.HTTP.Limits, kvHTTPRateLimit)
	if err != nil {
		return nil, err
	}
	pages, err := a.limiter(a.cfg.HTTP.PageLimits, kvHTTPRateLimit+"-pages")
	if err != nil {
		return nil, err
	}
	g, err := httpadapter.NewGuard(httpadapter.GuardOptions{
		Keys:        a.cfg.HTTP.Keys,
		Proxies:     a.cfg.HTTP.Proxies,
		Limiter:     limiter,
		PageLimiter: pages,
		PublicPages: a.cfg.HTTP.PublicPages,
		Metrics:     a.metrics(),
		Logger:      a.log.With("adapter", "http"),
	})
	if err != nil {
		return nil, fmt.Errorf("MEMDB_ORACLE_API_KEYS: %w", err)
	}
	a.log.Info("http api", "keys", len(a.cfg.HTTP.Keys), "trusted_proxies", len(a.cfg.HTTP.Proxies))
	a.gd = g
	return g, nil
}
