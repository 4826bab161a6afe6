package main

import (
	"fmt"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// httpConfig is how serve protects its HTTP API.
type httpConfig struct {
	// Keys are the bearer tokens the API accepts (MEMDB_ORACLE_API_KEYS);
	// none: the API is open, limited per client address.
	Keys []string
	// Proxies are whose forwarding headers count (MEMDB_ORACLE_TRUSTED_PROXIES).
	Proxies httpadapter.TrustedProxies
	// Limits apply per HTTP client (user fields) and to all HTTP clients
	// together (channel fields, off by default).
	Limits bot.Limits
	// AdminToken enables POST /api/import (MEMDB_ORACLE_ADMIN_TOKEN).
	AdminToken string
}

func loadHTTPConfig(getenv func(string) string) (httpConfig, error) {
	c := httpConfig{Keys: splitList(getenv("MEMDB_ORACLE_API_KEYS")), Limits: httpadapter.DefaultClientLimits()}
	var err error
	if c.Proxies, err = httpadapter.ParseTrustedProxies(getenv("MEMDB_ORACLE_TRUSTED_PROXIES")); err != nil {
		return c, fmt.Errorf("MEMDB_ORACLE_TRUSTED_PROXIES: %w", err)
	}
	err = readLimits(getenv, &c.Limits, limitVars{
		userPerMinute: "MEMDB_ORACLE_HTTP_RATE_PER_MINUTE", userBurst: "MEMDB_ORACLE_HTTP_RATE_BURST", userDaily: "MEMDB_ORACLE_HTTP_RATE_DAILY",
		channelPerMinute: "MEMDB_ORACLE_HTTP_RATE_TOTAL_PER_MINUTE", channelBurst: "MEMDB_ORACLE_HTTP_RATE_TOTAL_BURST", channelDaily: "MEMDB_ORACLE_HTTP_RATE_TOTAL_DAILY",
	})
	if err != nil {
		return c, err
	}
	c.AdminToken = envVar(getenv, "MEMDB_ORACLE_ADMIN_TOKEN")
	return c, nil
}
