package http

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
)

// Root wraps mux as the listener's handler: every response is counted in m
// (nil: not counted) by route pattern and status; paths and methods the mux
// has no route for get a JSON 404 or 405; a panic in any handler becomes a
// JSON 500 with a reference, logged with the same reference and the stack.
// A POST a browser sends from another site (Origin or Sec-Fetch-Site
// say so) is refused with 403 before any handler sees it — requests
// without those headers (curl, Slack's webhooks) pass. Text responses are
// gzipped for clients that accept it.
func Root(mux *http.ServeMux, m *Metrics, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusForbidden, problem{Error: "cross-origin request refused: post from this site's own pages"})
	}))
	next := cop.Handler(mux)
	return compressed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pattern := mux.Handler(r)
		route := routeLabel(pattern)
		sw := &statusWriter{ResponseWriter: w, unmatched: pattern == ""}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				ref := newRef()
				log.ErrorContext(r.Context(), "panic while serving", "route", route, "ref", ref,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !sw.wrote {
					writeJSON(sw, http.StatusInternalServerError, problem{Error: "internal error (ref " + ref + ")"})
				}
			}
			if m != nil {
				m.requests.WithLabelValues(route, strconv.Itoa(sw.status())).Inc()
			}
		}()
		next.ServeHTTP(sw, r)
	}))
}

// routeLabel is a route pattern without its method ("POST /api/ask" →
// "/api/ask"); "unmatched" for requests no route took, so the label's
// values stay few whatever paths clients try.
func routeLabel(pattern string) string {
	if pattern == "" {
		return "unmatched"
	}
	if _, path, ok := strings.Cut(pattern, " "); ok {
		return path
	}
	return pattern
}

// statusWriter remembers the status written and, for requests no route
// took, replaces the mux's plain-text 404/405 with a JSON body.
type statusWriter struct {
	http.ResponseWriter
	unmatched bool
	code      int
	wrote     bool
	swallow   bool
}

func (s *statusWriter) WriteHeader(code int) {
	if s.wrote {
		return
	}
	if s.unmatched && (code == http.StatusNotFound || code == http.StatusMethodNotAllowed) {
		msg := "no such route"
		if code == http.StatusMethodNotAllowed {
			msg = "method not allowed here; allowed: " + s.Header().Get("Allow")
		}
		s.code, s.wrote, s.swallow = code, true, true
		writeJSON(s.ResponseWriter, code, problem{Error: msg})
		return
	}
	s.code, s.wrote = code, true
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	if s.swallow {
		return len(b), nil
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) status() int {
	if !s.wrote {
		return http.StatusOK
	}
	return s.code
}

// Unwrap lets http.ResponseController reach the connection (deadlines, flush).
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// newRef is a short random reference tying a user-facing error to its log line.
func newRef() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(b[:])
}
