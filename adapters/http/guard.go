package http

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
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
	// Logger receives refusals (bad keys, rate limits), sampled to one line
	// per source per minute with a count.
	Logger *slog.Logger
	// MaxKeyFailures is how many refused API keys one source (address
	// network, see Client) may send per minute before every request from it
	// is refused with 429 without its key being looked at; default 20.
	MaxKeyFailures int
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// PageLimiter applies the limits of page views (WrapPages: GET of the
	// web pages), apart from the questions' Limiter, so browsing runs
	// after an answer never spends the questions' burst; nil uses Limiter.
	PageLimiter RateLimiter
	// PublicPages lets anyone view the pages (read-only) when keys are
	// set; asking still needs a key (MEMDB_ORACLE_WEB_PUBLIC).
	PublicPages bool
	// SessionTTL is how long a browser's sign-in lasts; default 12 hours.
	SessionTTL time.Duration
}

// Guard is the gate in front of every route that answers questions or
// shows data (the API here, the web pages in adapters/web): bearer keys,
// who the client is, and a rate-limit bucket per client. It is safe for
// concurrent use.
type Guard struct {
	keys     [][sha256.Size]byte
	proxies  TrustedProxies
	limiter  RateLimiter
	metrics  *Metrics
	log      *slog.Logger
	sampler  *bot.LogSampler
	failures *keyFailures
	pages    RateLimiter
	public   bool
	session  time.Duration
	now      func() time.Time
}

// MinKeyLength is the shortest API key accepted: 32 characters, such as
// `openssl rand -hex 16` gives, so guessing one is hopeless.
const MinKeyLength = 32

// NewGuard returns a Guard; an empty key, or one shorter than
// MinKeyLength, is a configuration mistake and an error.
func NewGuard(opts GuardOptions) (*Guard, error) {
	g := &Guard{proxies: opts.Proxies, limiter: opts.Limiter, metrics: opts.Metrics, log: opts.Logger}
	for i, k := range opts.Keys {
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("API key %d is empty", i+1)
		}
		if len(k) < MinKeyLength {
			return nil, fmt.Errorf("API key %d has %d characters; want at least %d (generate one with: openssl rand -hex 32)", i+1, len(k), MinKeyLength)
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
	g.now, g.pages, g.public, g.session = now, opts.PageLimiter, opts.PublicPages, cmp.Or(opts.SessionTTL, 12*time.Hour)
	if g.pages == nil {
		g.pages = opts.Limiter
	}
	g.sampler = bot.NewLogSampler(time.Minute, now)
	g.failures = newKeyFailures(cmp.Or(opts.MaxKeyFailures, 20), time.Minute, now)
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
func (g *Guard) Wrap(next http.Handler) http.Handler { return g.wrap(next, g.limiter, false) }

// WrapPages is Wrap for page views: their own bucket (PageLimiter), and
// no key needed when PublicPages is set.
func (g *Guard) WrapPages(next http.Handler) http.Handler { return g.wrap(next, g.pages, g.public) }

func (g *Guard) wrap(next http.Handler, limiter RateLimiter, public bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		source := g.source(r)
		if len(g.keys) > 0 && g.failures.blocked(source) {
			// Guessing keys: no key of this source is looked at until the window passes.
			g.refuse(w, r, Client{ID: source}, &bot.RateLimitError{Scope: "key-failures", Kind: "key-failures",
				Limit: g.failures.max, Retry: g.failures.retry(source)})
			return
		}
		c, ok := g.identify(r, source)
		if !ok && public && r.Header.Get("Authorization") == "" {
			c, ok = Client{ID: source}, true
		}
		if !ok {
			if _, err := r.Cookie(SessionCookie); r.Header.Get("Authorization") != "" || err == nil {
				// A key or session was presented and is wrong: a guess.
				g.keyRefused(r, source)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="memdb-oracle"`)
			writeJSON(w, http.StatusUnauthorized, problem{Error: "a valid API key is required: send it as \"Authorization: Bearer KEY\""})
			return
		}
		if limiter != nil {
			err := limiter.Allow(r.Context(), bot.Message{Platform: "http", Channel: "http", User: c.ID})
			if rl, limited := errors.AsType[*bot.RateLimitError](err); limited {
				g.refuse(w, r, c, rl)
				return
			}
			if err != nil {
				// The limiter's store failed: answering beats refusing
				// everyone. One line a minute says so, not one a request.
				if n, log := g.sampler.Note("limit-error"); log {
					g.log.WarnContext(r.Context(), "rate limit not checked", "client", c.ID, "err", err, "unchecked_in_last_minute", n)
				}
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, c)))
	})
}

// keyRefused counts a wrong key (or session) from source towards its
// limit and the metric, and logs it sampled.
func (g *Guard) keyRefused(r *http.Request, source string) {
	g.failures.note(source)
	if g.metrics != nil {
		g.metrics.keyFailures.Inc()
	}
	if n, log := g.sampler.Note("key/" + source); log {
		g.log.WarnContext(r.Context(), "API key refused", "client", source, "refused_in_last_minute", n, "path", r.URL.Path)
	}
}

// source names where a request comes from for limits and logs: the
// client's address, widened to its /64 for IPv6 (one host is handed a
// whole /64, so each address of it would otherwise be a fresh bucket) and
// kept whole (/32) for IPv4.
func (g *Guard) source(r *http.Request) string {
	addr := g.proxies.ClientAddr(r)
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return "addr:" + addr
	}
	if a = a.Unmap(); a.Is6() {
		p, _ := a.Prefix(64)
		return "addr:" + p.String()
	}
	return "addr:" + a.String()
}

// identify returns the client, and false when keys are configured and the
// request carries none of them.
func (g *Guard) identify(r *http.Request, source string) (Client, bool) {
	if len(g.keys) == 0 {
		return Client{ID: source}, true
	}
	token, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return g.sessionClient(r)
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
	switch rl.Kind {
	case "daily":
		msg = fmt.Sprintf("daily limit reached: %s may make %d requests per UTC day; retry in %d s", who, rl.Limit, secs)
	case "key-failures":
		msg = fmt.Sprintf("too many refused API keys from this address (%d a minute); retry in %d s", rl.Limit, secs)
	}
	writeJSON(w, http.StatusTooManyRequests, rateLimited{Error: msg, RetryAfter: secs})
	if g.metrics != nil {
		g.metrics.rateLimited.WithLabelValues("http").Inc()
	}
	if n, log := g.sampler.Note(c.ID); log {
		g.log.InfoContext(r.Context(), "rate limited", "client", c.ID, "scope", rl.Scope, "limit", rl.Kind,
			"refused_in_last_minute", n, "path", r.URL.Path)
	}
}

// keyFailures counts refused API keys per source in fixed windows, so a
// source guessing keys is stopped after max a window.
type keyFailures struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	sources map[string]*failureWindow
}

type failureWindow struct {
	start time.Time
	n     int
}

func newKeyFailures(max int, window time.Duration, now func() time.Time) *keyFailures {
	return &keyFailures{max: max, window: window, now: now, sources: map[string]*failureWindow{}}
}

// current returns source's window, restarted when it has passed (under mu).
func (k *keyFailures) current(source string, create bool) *failureWindow {
	now := k.now()
	w, ok := k.sources[source]
	if ok && now.Sub(w.start) >= k.window {
		w.start, w.n = now, 0
	}
	if !ok && create {
		if len(k.sources) >= maxKeyFailureSources {
			for s, v := range k.sources {
				if now.Sub(v.start) >= k.window {
					delete(k.sources, s)
				}
			}
		}
		w = &failureWindow{start: now}
		k.sources[source] = w
	}
	return w
}

// maxKeyFailureSources bounds the sources remembered.
const maxKeyFailureSources = 100_000

func (k *keyFailures) note(source string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.current(source, true).n++
}

func (k *keyFailures) blocked(source string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	w := k.current(source, false)
	return w != nil && w.n >= k.max
}

func (k *keyFailures) retry(source string) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if w := k.current(source, false); w != nil {
		return w.start.Add(k.window).Sub(k.now())
	}
	return 0
}

// SessionCookie is the cookie a browser signed in with a key carries.
const SessionCookie = "memdb_oracle_session"

// sessionToken is "EXPIRY.MAC": the expiry in Unix seconds and its
// HMAC-SHA256 under the key's digest. Every replica holding the key can
// check it, no session is stored, and removing the key ends its sessions.
func sessionToken(key [sha256.Size]byte, expires int64) string {
	mac := hmac.New(sha256.New, key[:])
	mac.Write([]byte("memdb-oracle session\n" + strconv.FormatInt(expires, 10)))
	return strconv.FormatInt(expires, 10) + "." + hex.EncodeToString(mac.Sum(nil))
}

// sessionClient identifies a request by its session cookie.
func (g *Guard) sessionClient(r *http.Request) (Client, bool) {
	ck, err := r.Cookie(SessionCookie)
	if err != nil {
		return Client{}, false
	}
	exp, _, ok := strings.Cut(ck.Value, ".")
	expires, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || g.now().Unix() >= expires {
		return Client{}, false
	}
	for _, k := range g.keys {
		if hmac.Equal([]byte(ck.Value), []byte(sessionToken(k, expires))) {
			return Client{ID: "key:" + hex.EncodeToString(k[:6]), Keyed: true}, true
		}
	}
	return Client{}, false
}

// SignIn is the handler of the web page's sign-in form (POST, field
// "key"): a valid key sets an HttpOnly, SameSite=Strict session cookie
// (Secure over HTTPS) and redirects to the field "next" (a path on this
// site); a wrong one is refused like a wrong bearer key — counted, limited
// per source and logged sampled.
func (g *Guard) SignIn(home string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		source := g.source(r)
		if g.failures.blocked(source) {
			g.refuse(w, r, Client{ID: source}, &bot.RateLimitError{Scope: "key-failures", Kind: "key-failures",
				Limit: g.failures.max, Retry: g.failures.retry(source)})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		key := strings.TrimSpace(r.PostFormValue("key"))
		sum := sha256.Sum256([]byte(key))
		match := -1
		for i, k := range g.keys {
			if subtle.ConstantTimeCompare(sum[:], k[:]) == 1 {
				match = i
			}
		}
		if key == "" || match < 0 {
			g.keyRefused(r, source)
			writeJSON(w, http.StatusUnauthorized, problem{Error: "that API key is not valid"})
			return
		}
		expires := g.now().Add(g.session)
		http.SetCookie(w, &http.Cookie{
			Name: SessionCookie, Value: sessionToken(g.keys[match], expires.Unix()), Path: "/",
			Expires: expires, MaxAge: int(g.session.Seconds()),
			HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"),
		})
		next := r.PostFormValue("next")
		if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
			next = home
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	})
}
