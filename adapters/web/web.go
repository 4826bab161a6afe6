package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"regexp"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Asker answers one message; *bot.Bot and the metrics-instrumented bot
// satisfy it.
type Asker interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// Dataset is what the run and data pages read; *bot.Dataset satisfies it.
type Dataset interface {
	Run(ctx context.Context, id string) (bot.RunDetail, error)
	FilterPage(ctx context.Context, filter string, from, limit, maxCells int) (bot.FilterResult, error)
	Overview() bot.Overview
}

// Options configure the pages. Zero values are usable.
type Options struct {
	// BasePath is the path prefix the pages are served under, for a
	// reverse proxy that forwards /oracle/… unchanged: "" or "/oracle".
	BasePath string
	// Logger receives one line per failed request; nil discards.
	Logger *slog.Logger
	// RenderChart draws an answer's chart as PNG; nil shows no image (the
	// chart's values are in the answer's table either way).
	RenderChart func(ctx context.Context, c bot.Chart) ([]byte, error)
	// Guard wraps every page the way the API's POST /api/ask is wrapped
	// (API keys, per-client limits; adapters/http Guard.Wrap); nil leaves
	// the pages public and unlimited.
	Guard func(http.Handler) http.Handler
	// PageGuard wraps the pages that only show (GET of the ask page,
	// /data, /runs…) with their own, more generous bucket, and lets a
	// public read-only site show them without a key (adapters/http
	// Guard.WrapPages); nil uses Guard.
	PageGuard func(http.Handler) http.Handler
	// SignIn, when set, handles the sign-in form (POST /signin): a browser
	// cannot send an Authorization header, so with API keys set it signs
	// in once with a key and carries a session cookie (adapters/http
	// Guard.SignIn).
	SignIn http.Handler
	// Examples are the questions offered as chips; default bot.Examples()
	// (at most eight).
	Examples []string
	// Feedback stores the 👍/👎 of answers; nil shows no feedback buttons.
	Feedback *bot.FeedbackStore
}

// Site serves the pages.
type Site struct {
	ask   Asker
	data  Dataset
	opts  Options
	log   *slog.Logger
	pages *template.Template
	files *staticFiles
	// charts are recent answers' charts, for their image URLs.
	charts *charts
}

// validBasePath is "" or one or more /segments without a trailing slash.
//
// Compiled on first use: a process that never needs it does not pay for it at start.
var validBasePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)*$`) })

// ErrBasePath reports a base path the pages cannot be served under.
var ErrBasePath = errors.New(`base path must be empty or like "/oracle" (segments of letters, digits, ".", "_", "~", "-"; no trailing slash)`)

// CheckBasePath returns an error wrapping ErrBasePath when the pages
// cannot be served under p (what New would refuse), so a configuration can
// be checked before anything starts.
func CheckBasePath(p string) error {
	if !validBasePath().MatchString(p) {
		return fmt.Errorf("%w: got %q", ErrBasePath, p)
	}
	return nil
}

// New returns the pages answering with ask and browsing data.
func New(ask Asker, data Dataset, opts Options) (*Site, error) {
	if err := CheckBasePath(opts.BasePath); err != nil {
		return nil, err
	}
	if opts.Examples == nil {
		opts.Examples = bot.Examples()
	}
	if len(opts.Examples) > 8 {
		opts.Examples = opts.Examples[:8]
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Site{ask: ask, data: data, opts: opts, log: log, charts: newCharts()}
	files, err := loadStatic()
	if err != nil {
		return nil, err
	}
	s.files = files
	if s.pages, err = parsePages(s.funcs()); err != nil {
		return nil, err
	}
	return s, nil
}

// Register adds the pages' routes to mux, under the base path. The Guard
// wraps every page that answers or shows data; the embedded assets and the
// charts of answers already given (content-addressed) are served without
// it, so loading a page costs one request of the client's limit.
func (s *Site) Register(mux *http.ServeMux) {
	b := s.opts.BasePath
	pageGuard := cmpGuard(s.opts.PageGuard, s.opts.Guard)
	route := func(pattern string, h http.HandlerFunc, guard func(http.Handler) http.Handler) {
		var handler http.Handler = h
		if guard != nil {
			handler = s.pageRefusals(guard(handler))
		}
		mux.Handle(pattern, secured(handler))
	}
	route("GET "+b+"/{$}", s.home, pageGuard)
	route("POST "+b+"/{$}", s.askPost, s.opts.Guard)
	route("GET "+b+"/runs/{id}", s.runPage, pageGuard)
	route("GET "+b+"/runs", s.runsPage, pageGuard)
	route("GET "+b+"/data", s.dataPage, pageGuard)
	route("POST "+b+"/feedback", s.feedbackPost, s.opts.Guard)
	route("GET "+b+"/static/{name}", s.static, nil)
	route("GET "+b+"/static/{v}/{name}", s.static, nil)
	route("GET "+b+"/charts/{file}", s.chartImage, nil)
	if s.opts.SignIn != nil {
		mux.Handle("POST "+b+"/signin", secured(s.pageRefusals(s.opts.SignIn)))
	}
	if b != "" {
		// The bare prefix, as a proxy may forward it, lands on the ask page.
		mux.Handle("GET "+b, http.RedirectHandler(b+"/", http.StatusMovedPermanently))
	}
}

// cmpGuard is the first guard set.
func cmpGuard(guards ...func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	for _, g := range guards {
		if g != nil {
			return g
		}
	}
	return nil
}

// secured sets the headers every page carries: a Content-Security-Policy
// that allows only the site's own script, style and images and no framing;
// no MIME sniffing; no referrer sent to other sites.
func secured(h http.Handler) http.Handler {
	const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}
