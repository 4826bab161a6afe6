package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// humanHandler writes log records as short lines for a person watching a
// terminal: the time, WARN or ERROR when it is one, the message, then the
// attributes as key=value. serve uses it on a terminal; JSON otherwise.
type humanHandler struct {
	mu    *sync.Mutex
	w     io.Writer
	level slog.Leveler
	attrs string // pre-rendered With attributes
	group string
}

func newHumanHandler(w io.Writer, level slog.Leveler) *humanHandler {
	return &humanHandler{mu: &sync.Mutex{}, w: w, level: level}
}

func (h *humanHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

func (h *humanHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Time.Format(time.TimeOnly))
	if r.Level >= slog.LevelWarn {
		b.WriteString(" " + r.Level.String())
	}
	b.WriteString("  " + r.Message)
	b.WriteString(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		writeHumanAttr(&b, h.group, a)
		return true
	})
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *humanHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	var b strings.Builder
	for _, a := range attrs {
		writeHumanAttr(&b, h.group, a)
	}
	c := *h
	c.attrs += b.String()
	return &c
}

func (h *humanHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.group += name + "."
	return &c
}

func writeHumanAttr(b *strings.Builder, group string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		for _, g := range a.Value.Group() {
			writeHumanAttr(b, group+a.Key+".", g)
		}
		return
	}
	v := a.Value.String()
	if v == "" || strings.ContainsAny(v, " \t\"=") {
		v = strconv.Quote(v)
	}
	fmt.Fprintf(b, "  %s%s=%s", group, a.Key, v)
}

// openURL is the address a person opens for serve's pages: the listener's
// port on localhost when it listens on every interface.
func openURL(addr net.Addr, basePath string) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + basePath + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + basePath + "/"
}
