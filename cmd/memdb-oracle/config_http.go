package main

import (
	"fmt"
	"strconv"
	"time"

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
	// PageLimits apply per client to page views (GET of the web pages), a
	// bucket of their own: 120 a minute, bursts of 60.
	PageLimits bot.Limits
	// PublicPages shows the web pages read-only without a key when keys
	// are set (MEMDB_ORACLE_WEB_PUBLIC=1); asking still needs one.
	PublicPages bool
	// DrainFor is how long serve keeps answering after SIGTERM with
	// /readyz at 503, so load balancers move away first
	// (MEMDB_ORACLE_DRAIN; default 0, stopping at once as a terminal run
	// should; the compose file and the systemd unit set 5s).
	DrainFor time.Duration
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
	c.PageLimits = bot.Limits{UserPerMinute: 120, UserBurst: 60}
	if v := envVar(getenv, "MEMDB_ORACLE_WEB_PUBLIC"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("MEMDB_ORACLE_WEB_PUBLIC=%q: want 1/true or 0/false", v)
		}
		c.PublicPages = on
	}
	if v := envVar(getenv, "MEMDB_ORACLE_DRAIN"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return c, fmt.Errorf("MEMDB_ORACLE_DRAIN=%q: want a duration such as 5s (0 stops at once)", v)
		}
		c.DrainFor = d
	}
	return c, nil
}
