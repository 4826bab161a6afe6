// Package http is the HTTP adapter: GET /healthz, GET /metrics (Prometheus,
// its own registry) and POST /api/ask, which answers one question with the
// same JSON object `ask --json` prints (docs/design.md#json-answers). Guard (bearer keys,
// client identity through trusted proxies, a rate-limit bucket per client)
// protects the routes that answer; Root wraps the listener's mux (JSON
// errors, every response counted, panics contained). Serve runs a handler
// on a listener until the context ends, then shuts down gracefully.
package http

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Handler answers one message; *bot.Bot satisfies it.
type Handler interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// EncodedHandler is a Handler that also returns the answer's JSON object
// already encoded, as *bot.Bot does (a repeated question's from its answer
// cache): the API then sends those bytes rather than encoding per request.
type EncodedHandler interface {
	HandleEncoded(ctx context.Context, m bot.Message) (bot.Answer, []byte, error)
}

// handleEncoded answers m through h, encoding the answer itself when h is
// not an EncodedHandler.
func handleEncoded(ctx context.Context, h Handler, m bot.Message) (bot.Answer, []byte, error) {
	if eh, ok := h.(EncodedHandler); ok {
		return eh.HandleEncoded(ctx, m)
	}
	a := h.Handle(ctx, m)
	raw, err := bot.JSON(a).Encode()
	return a, raw, err
}

// Limits on what POST /api/ask accepts. The byte cap follows from the
// character limit, so a question within it is never refused for its bytes:
// JSON may escape each character as two \uXXXX surrogates (12 bytes), each
// thread byte as one (6 bytes), plus room for the keys and white space.
const (
	maxQuestionRunes    = 2000
	maxThreadLen        = 128
	DefaultMaxBodyBytes = maxQuestionRunes*12 + maxThreadLen*6 + 1024
	// DefaultBodyTimeout is how long a client may take to send the body.
	DefaultBodyTimeout = 10 * time.Second
)

// Options configure the API. Zero values are usable.
type Options struct {
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
	// Metrics, when set, is served on GET /metrics and counts requests. It
	// does not observe answers itself: pass a handler wrapped with
	// Metrics.Instrument so every platform is counted once.
	Metrics *Metrics
	// MaxBodyBytes caps the request body of POST /api/ask; default
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// BodyTimeout bounds reading the body; a stalled body is a 408.
	// Default DefaultBodyTimeout.
	BodyTimeout time.Duration
	// Guard admits requests to POST /api/ask (keys, per-client limits);
	// nil admits everyone, unlimited.
	Guard *Guard
	// Importer and AdminToken enable POST /api/import (both needed);
	// MaxImportBytes caps its body (default DefaultMaxImportBytes).
	Importer       Importer
	AdminToken     string
	MaxImportBytes int64
	// Health lists the dependencies GET /healthz reports on (the shared
	// state store, say). A failing one makes the status "degraded" but
	// stays 200: the replica still answers from local state.
	Health []HealthCheck
	// Ready lists what GET /readyz needs working before a load balancer
	// sends this replica traffic (the data store open, the shared state
	// store usable when one is configured); Drain turns it 503 once the
	// process begins to stop.
	Ready []HealthCheck
	Drain *Drain
	// RenderChart draws an answer's chart as PNG for ?chart=1; nil means no
	// renderer is available and the flag is ignored.
	RenderChart func(ctx context.Context, c bot.Chart) ([]byte, error)
}

// API serves the HTTP routes.
type API struct {
	h      Handler
	opts   Options
	log    *slog.Logger
	charts *chartCache
}

// NewAPI returns the API answering with h.
func NewAPI(h Handler, opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxImportBytes <= 0 {
		opts.MaxImportBytes = DefaultMaxImportBytes
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &API{h: h, opts: opts, log: log, charts: newChartCache(opts.RenderChart)}
}

// Register adds the API's routes to mux.
func (api *API) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", api.healthz)
	mux.HandleFunc("GET /readyz", api.readyz)
	if api.opts.Metrics != nil {
		mux.Handle("GET /metrics", api.opts.Metrics.Handler())
	}
	var ask http.Handler = http.HandlerFunc(api.ask)
	if api.opts.Guard != nil {
		ask = api.opts.Guard.Wrap(ask)
	}
	mux.Handle("POST /api/ask", ask)
	if api.opts.Importer != nil && api.opts.AdminToken != "" {
		mux.HandleFunc("POST /api/import", api.serveImport)
	}
}

// AskRequest is the body POST /api/ask accepts.
type AskRequest struct {
	Question string `json:"question"`
	// Thread keeps follow-up context across requests with the same value.
	Thread string `json:"thread,omitempty"`
}

// AskResponse is the ask --json object, plus the chart as base64 PNG when
// ?chart=1 was asked and a renderer is available.
type AskResponse struct {
	bot.AskJSON
	ChartPNG string `json:"chart_png,omitempty"`
}

// problem is the body of every 4xx reply.
type problem struct {
	Error string `json:"error"`
}

func (api *API) ask(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	req, status, reason := api.decode(w, r)
	if reason != "" {
		api.log.InfoContext(r.Context(), "bad request", "route", "/api/ask", "status", status, "reason", reason, "remote", remoteHost(r))
		writeJSON(w, status, problem{Error: reason})
		return
	}
	// The Guard already applied this client's limits, so the message
	// carries neither user nor channel for the bot's own limiter. A thread
	// asked with a key is that key's alone.
	client := ClientOf(r.Context())
	thread := req.Thread
	if thread != "" && client.Keyed {
		thread = client.ID + "/" + thread
	}
	msg := bot.Message{
		Platform: "http",
		Thread:   thread,
		Text:     req.Question,
		Received: start,
	}
	a, raw, err := handleEncoded(r.Context(), api.h, msg)
	status = statusFor(a.Kind)
	switch {
	case err != nil:
		api.log.ErrorContext(r.Context(), "encoding the answer", "kind", a.Kind, "err", err)
		writeJSON(w, http.StatusInternalServerError, problem{Error: "the answer could not be encoded as JSON"})
	case wantChart(r) && a.Chart != nil && api.opts.RenderChart != nil:
		resp := AskResponse{AskJSON: bot.JSON(a)}
		png, err := api.charts.png(r.Context(), *a.Chart)
		if err != nil {
			api.log.WarnContext(r.Context(), "rendering chart", "err", err)
		} else {
			resp.ChartPNG = base64.StdEncoding.EncodeToString(png)
		}
		writeJSON(w, status, resp)
	default:
		writeEncoded(w, status, raw)
	}
	api.log.InfoContext(r.Context(), "answered",
		"route", "/api/ask", "status", status, "kind", a.Kind, "thread", req.Thread,
		"client", client.ID, "duration_ms", time.Since(start).Milliseconds())
}

// decode reads and checks the body; a non-empty reason is the user-facing
// explanation of a 4xx status.
func (api *API) decode(w http.ResponseWriter, r *http.Request) (req AskRequest, status int, reason string) {
	// The body is read as JSON whatever its Content-Type says, so that
	// `curl -d '{"question": "..."}'` (form-encoded by default) works.
	// A client that stops sending its body gets a 408, not a hung handler.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(api.opts.BodyTimeout))
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, api.opts.MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		status, reason = decodeProblem(err)
		return req, status, reason
	}
	if dec.More() {
		return req, http.StatusBadRequest, "request body holds more than one JSON value"
	}
	req.Question = strings.TrimSpace(req.Question)
	switch {
	case req.Question == "":
		return req, http.StatusBadRequest, `"question" is missing or empty`
	case utf8.RuneCountInString(req.Question) > maxQuestionRunes:
		return req, http.StatusBadRequest, fmt.Sprintf(`"question" is longer than %d characters`, maxQuestionRunes)
	case len(req.Thread) > maxThreadLen:
		return req, http.StatusBadRequest, fmt.Sprintf(`"thread" is longer than %d bytes`, maxThreadLen)
	}
	return req, 0, ""
}

// statusFor maps an answer kind to the HTTP status: every real answer,
// refusals included, is 200; a rate limit is 429; an internal error 500.
// The body is the answer object in every case.
func statusFor(k bot.Kind) int {
	switch k {
	case bot.KindRateLimited:
		return http.StatusTooManyRequests
	case bot.KindError:
		return http.StatusInternalServerError
	}
	return http.StatusOK
}

func wantChart(r *http.Request) bool {
	switch r.URL.Query().Get("chart") {
	case "1", "true", "yes":
		return true
	}
	return false
}

func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	jsonHeaders(w, status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away; nothing left to tell it
}

// writeEncoded sends JSON encoded before, as writeJSON would have.
func writeEncoded(w http.ResponseWriter, status int, raw []byte) {
	jsonHeaders(w, status)
	_, _ = w.Write(raw) // the client went away; nothing left to tell it
}

func jsonHeaders(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
}
