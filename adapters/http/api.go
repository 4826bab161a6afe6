// Package http is the HTTP adapter: GET /healthz, GET /metrics (Prometheus,
// its own registry) and POST /api/ask, which answers one question with the
// same JSON object `ask --json` prints (DESIGN §4). Serve runs a handler on
// a listener until the context ends, then shuts down gracefully.
package http

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Limits on what POST /api/ask accepts.
const (
	DefaultMaxBodyBytes = 8 << 10
	maxQuestionRunes    = 2000
	maxThreadLen        = 128
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
	// RenderChart draws an answer's chart as PNG for ?chart=1; nil means no
	// renderer is available and the flag is ignored.
	RenderChart func(ctx context.Context, c bot.Chart) ([]byte, error)
}

// API serves the HTTP routes.
type API struct {
	h    Handler
	opts Options
	log  *slog.Logger
}

// NewAPI returns the API answering with h.
func NewAPI(h Handler, opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &API{h: h, opts: opts, log: log}
}

// Register adds the API's routes to mux.
func (api *API) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", api.healthz)
	if api.opts.Metrics != nil {
		mux.Handle("GET /metrics", api.opts.Metrics.Handler())
	}
	mux.HandleFunc("POST /api/ask", api.ask)
}

func (api *API) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	api.count("/healthz", http.StatusOK)
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
		api.count("/api/ask", status)
		return
	}
	msg := bot.Message{
		Platform: "http",
		Channel:  "api",
		Thread:   req.Thread,
		User:     remoteHost(r),
		Text:     req.Question,
		Received: start,
	}
	a := api.h.Handle(r.Context(), msg)
	resp := AskResponse{AskJSON: bot.JSON(a)}
	if wantChart(r) && a.Chart != nil && api.opts.RenderChart != nil {
		png, err := api.opts.RenderChart(r.Context(), *a.Chart)
		if err != nil {
			api.log.WarnContext(r.Context(), "rendering chart", "err", err)
		} else {
			resp.ChartPNG = base64.StdEncoding.EncodeToString(png)
		}
	}
	status = statusFor(a.Kind)
	writeJSON(w, status, resp)
	api.count("/api/ask", status)
	api.log.InfoContext(r.Context(), "answered",
		"route", "/api/ask", "status", status, "kind", a.Kind, "thread", req.Thread,
		"remote", msg.User, "duration_ms", time.Since(start).Milliseconds())
}

// decode reads and checks the body; a non-empty reason is the user-facing
// explanation of a 4xx status.
func (api *API) decode(w http.ResponseWriter, r *http.Request) (AskRequest, int, string) {
	// The body is read as JSON whatever its Content-Type says, so that
	// `curl -d '{"question": "..."}'` (form-encoded by default) works.
	var req AskRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, api.opts.MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooBig):
			return req, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit)
		case errors.Is(err, io.EOF):
			return req, http.StatusBadRequest, `request body is empty; send {"question": "..."}`
		case errors.As(err, &syntax):
			return req, http.StatusBadRequest, fmt.Sprintf("request body is not valid JSON (at byte %d): %v", syntax.Offset, err)
		case errors.As(err, &typ):
			return req, http.StatusBadRequest, fmt.Sprintf("field %q must be a %s", typ.Field, typ.Type)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return req, http.StatusBadRequest, "request body is not valid JSON: it ends too early"
		default:
			// Unknown fields and other decoder complaints; their text names the field.
			return req, http.StatusBadRequest, "request body is not a valid ask request: " + strings.TrimPrefix(err.Error(), "json: ")
		}
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

func (api *API) count(route string, status int) {
	if api.opts.Metrics != nil {
		api.opts.Metrics.requests.WithLabelValues(route, fmt.Sprint(status)).Inc()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away; nothing left to tell it
}
