package http

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// RateLimiter admits one request of a client or refuses it with a
// *bot.RateLimitError; *bot.Limiter is one.
type RateLimiter interface {
	Allow(ctx context.Context, m bot.Message) error
}

// DefaultClientLimits are the HTTP limits per client (a key, or an address
// without keys): a burst of 10, then 20 a minute, 1,000 a day. No limit is
// shared by all HTTP clients unless its channel fields are set.
func DefaultClientLimits() bot.Limits {
	return bot.Limits{UserPerMinute: 20, UserBurst: 10, UserDaily: 1000}
}

// GuardOptions configure a Guard. Zero values are usable: no keys, the
// connection's address as the client, no limits.
type GuardOptions struct {
	// Keys are the accepted bearer tokens (MEMDB_ORACLE_API_KEYS). When
	// any are set, a request without one of them gets 401. Only their
	// SHA-256 digests are kept.
	Keys []string
	// Proxies are the addresses whose X-Forwarded-For / Forwarded headers
	// are believed (MEMDB_ORACLE_TRUSTED_PROXIES).
	Proxies TrustedProxies
	// Limiter applies the per-client limits; nil applies none. Each client
	// (a key, or an address without keys) is the limiter's user; the
	// channel is "http" for a limit shared by every HTTP client, which is
	// off unless its channel limits are set.
	Limiter RateLimiter
	// Metrics, when set, counts refused requests as rate-limited questions.
	Metrics *Metrics
	// Logger receives refusals, sampled to one line per client per minute.
	Logger *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Guard is the gate in front of every route that answers questions or
// shows data (the API here, the web pages in adapters/web): bearer keys,
// who the client is, and a rate-limit bucket per client. It is safe for
// concurrent use.
type Guard struct {
	keys    [][sha256.Size]byte
	proxies TrustedProxies
	limiter RateLimiter
	metrics *Metrics
	log     *slog.Logger
	sampler *logSampler
}

// NewGuard returns a Guard; an empty key in Keys is a configuration
// mistake and an error.
func NewGuard(opts GuardOptions) (*Guard, error) {
	g := &Guard{proxies: opts.Proxies, limiter: opts.Limiter, metrics: opts.Metrics, log: opts.Logger}
	for i, k := range opts.Keys {
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("API key %d is empty", i+1)
		}
		g.keys = append(g.keys, sha256.Sum256([]byte(k)))
	}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	g.sampler = newLogSampler(time.Minute, now)
	return g, nil
}

// Client is who made a request, as the Guard decided.
type Client struct {
	// ID names the client's rate-limit bucket and thread scope: "key:…"
	// (a prefix of the key's digest) when keys are configured, else
	// "addr:" and the client's address.
	ID string
	// Keyed says ID comes from an API key.
	Keyed bool
}

type clientKey struct{}

// ClientOf returns the client the Guard admitted for this request; the zero
// Client when the request did not pass a Guard.
func ClientOf(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	return c
}

// Wrap admits a request to next only with a valid key (when keys are set)
// and within the client's limits. Refusals are JSON: 401 with a
// WWW-Authenticate challenge, 429 with Retry-After in whole seconds.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := g.identify(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memdb-oracle"`)
			writeJSON(w, http.StatusUnauthorized, problem{Error: "a valid API key is required: send it as \"Authorization: Bearer KEY\""})
			return
		}
		if g.limiter != nil {
			err := g.limiter.Allow(r.Context(), bot.Message{Platform: "http", Channel: "http", User: c.ID})
			if rl, limited := errors.AsType[*bot.RateLimitError](err); limited {
				g.refuse(w, r, c, rl)
				return
			}
			if err != nil {
				// The limiter's store failed: answering beats refusing everyone.
				g.log.WarnContext(r.Context(), "rate limit not checked", "client", c.ID, "err", err)
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, c)))
	})
}

// identify returns the client, and false when keys are configured and the
// request carries none of them.
func (g *Guard) identify(r *http.Request) (Client, bool) {
	if len(g.keys) == 0 {
		return Client{ID: "addr:" + g.proxies.ClientAddr(r)}, true
	}
	token, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return Client{}, false
	}
	sum := sha256.Sum256([]byte(token))
	match := 0
	for _, k := range g.keys {
		// Every key is compared, in constant time, so the timing says nothing.
		match |= subtle.ConstantTimeCompare(sum[:], k[:])
	}
	if match != 1 {
		return Client{}, false
	}
	return Client{ID: "key:" + hex.EncodeToString(sum[:6]), Keyed: true}, true
}

func bearer(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// rateLimited is the body of a 429.
type rateLimited struct {
	Error      string `json:"error"`
	RetryAfter int    `json:"retry_after_seconds"`
}

func (g *Guard) refuse(w http.ResponseWriter, r *http.Request, c Client, rl *bot.RateLimitError) {
	secs := max(int(math.Ceil(rl.Retry.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	who := "this client"
	if rl.Scope == "channel" {
		who = "all HTTP clients together"
	}
	msg := fmt.Sprintf("rate limit reached: %s may make %d requests in quick succession; retry in %d s", who, rl.Limit, secs)
	if rl.Kind == "daily" {
		msg = fmt.Sprintf("daily limit reached: %s may make %d requests per UTC day; retry in %d s", who, rl.Limit, secs)
	}
	writeJSON(w, http.StatusTooManyRequests, rateLimited{Error: msg, RetryAfter: secs})
	if g.metrics != nil {
		g.metrics.rateLimited.WithLabelValues("http").Inc()
	}
	if n, log := g.sampler.note(c.ID); log {
		g.log.InfoContext(r.Context(), "rate limited", "client", c.ID, "scope", rl.Scope, "limit", rl.Kind,
			"refused_in_last_minute", n, "path", r.URL.Path)
	}
}
