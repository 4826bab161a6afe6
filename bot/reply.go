package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// SafeError carries a message that is safe to show users, apart from the
// internal error it wraps (idea: tailscale vizerror).
type SafeError struct {
	Msg string // shown to the user as is
	Err error  // logged, never shown
}

func (e *SafeError) Error() string {
	if e.Err == nil {
		return e.Msg
	}
	return e.Msg + ": " + e.Err.Error()
}

func (e *SafeError) Unwrap() error { return e.Err }

// RateLimitError says a user or channel reached a limit.
type RateLimitError struct {
	Scope string        // "user" or "channel"
	Kind  string        // "burst" or "daily"
	Limit int           // the limit reached (questions per day, or burst size)
	Retry time.Duration // how long until a question is accepted again (0: unknown)
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("rate limited: %s %s limit %d", e.Scope, e.Kind, e.Limit)
}

// errorAnswer is the one place an error becomes user text. Known kinds
// (rate limits, filter errors, deadlines, safe errors) get a friendly
// message; anything else becomes "internal error (ref …)" and one log line
// carrying the same ref.
func errorAnswer(err error, deadline time.Duration, ref string, log *slog.Logger, attrs ...any) Answer {
	a := Answer{Kind: KindError, Ephemeral: true}
	var (
		rl   *RateLimitError
		fe   *analytics.FilterError
		safe *SafeError
	)
	switch {
	case errors.As(err, &rl):
		a.Kind = KindRateLimited
		a.Headline = rateLimitText(rl)
	case errors.As(err, &fe):
		a.Headline = "That filter cannot be run: " + fe.Msg + "."
		a.Body = []string{"Filters use the run fields (engine, mode, cores, pipeline, ratio, value_bytes, session, ops_per_sec, p99_ms, …) joined with && and ||."}
		log.Info("filter rejected", append(attrs, "err", err)...)
	case errors.Is(err, context.DeadlineExceeded):
		a.Headline = fmt.Sprintf("That question took longer than %s to answer, so I stopped. Please try again, or ask about fewer engines or settings at once.", deadlineWords(deadline))
		log.Warn("answer deadline exceeded", append(attrs, "err", err)...)
	case errors.Is(err, context.Canceled):
		a.Headline = "The question was cancelled before an answer was ready."
		log.Info("answer cancelled", append(attrs, "err", err)...)
	case errors.As(err, &safe):
		a.Headline = safe.Msg
		log.Info("answer refused", append(attrs, "err", err)...)
	case errors.Is(err, analytics.ErrCorrupt):
		a.Headline = "The stored benchmark data failed its checks, so I will not answer from it."
		a.Body = []string{"An operator can run `memdb-oracle doctor` for details and `memdb-oracle doctor --repair` to rebuild the store from the embedded dataset and the kept copies of imported files."}
		log.Error("the store is damaged", append(attrs, "err", err)...)
	case errors.Is(err, analytics.ErrPermission):
		a.Headline = "The benchmark data cannot be read: the data directory's files refuse this process."
		log.Error("the store's files refuse this process", append(attrs, "err", err)...)
	default:
		a = internalAnswer(ref)
		log.Error("internal error", append(attrs, "ref", ref, "err", err)...)
	}
	return a
}

func rateLimitText(e *RateLimitError) string {
	who := "You have"
	if e.Scope == "channel" {
		who = "This channel has"
	}
	switch e.Kind {
	case "daily":
		return fmt.Sprintf("%s reached today's limit of %d questions. It resets at midnight UTC.", who, e.Limit)
	default:
		wait := "a moment"
		if e.Retry > 0 {
			wait = deadlineWords(e.Retry.Round(time.Second))
		}
		return fmt.Sprintf("%s asked several questions in quick succession. Please wait %s and ask again.", who, wait)
	}
}

func deadlineWords(d time.Duration) string {
	if d <= 0 {
		return "the time allowed"
	}
	if d < time.Second {
		return "a second"
	}
	s := d.Round(time.Second).String() // "20s", "1m30s"
	s = strings.Replace(s, "m0s", "m", 1)
	s = strings.Replace(s, "m", " min ", 1)
	s = strings.Replace(s, "s", " s", 1)
	return strings.TrimSpace(strings.ReplaceAll(s, "  ", " "))
}
