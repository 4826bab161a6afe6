package planner

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Outcomes of one Completer call, as metrics and logs name them.
const (
	CompletionOK        = "ok"         // a reply inside the plan schema
	CompletionTimeout   = "timeout"    // no reply within the budget
	CompletionHTTPError = "http_error" // the model failed: refused connection, HTTP error, unreadable body
	CompletionRejected  = "rejected"   // a reply outside the plan schema
)

// CompletionOutcomes lists every outcome, so observers can show each series
// from the start.
func CompletionOutcomes() []string {
	return []string{CompletionOK, CompletionTimeout, CompletionHTTPError, CompletionRejected}
}

// CompletionObserver is told the outcome and duration of each Completer
// call (metrics).
type CompletionObserver interface {
	ObserveCompletion(outcome string, took time.Duration)
}

// failureOutcome classifies a Completer error: the budget running out (or
// the message being abandoned) is a timeout, anything else a failure of
// the model or of the way to it.
func failureOutcome(err error) string {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return CompletionTimeout
	}
	return CompletionHTTPError
}

// outcomeLogInterval is how often each outcome is logged at most: a dead
// endpoint shows within a minute without one line per question.
const outcomeLogInterval = time.Minute

// outcomeLog writes at most one line per outcome per interval, counting
// the calls it kept quiet about in between.
type outcomeLog struct {
	log   *slog.Logger
	model string

	mu    sync.Mutex
	last  map[string]time.Time
	quiet map[string]int
}

func newOutcomeLog(log *slog.Logger, model string) *outcomeLog {
	return &outcomeLog{log: log, model: model, last: map[string]time.Time{}, quiet: map[string]int{}}
}

// record logs one outcome unless the same outcome was logged less than
// outcomeLogInterval ago. Failures are warnings, so they show at the
// default level; a working model is info.
func (l *outcomeLog) record(ctx context.Context, outcome string, took time.Duration, err error) {
	now := time.Now()
	l.mu.Lock()
	if last, ok := l.last[outcome]; ok && now.Sub(last) < outcomeLogInterval {
		l.quiet[outcome]++
		l.mu.Unlock()
		return
	}
	l.last[outcome] = now
	quiet := l.quiet[outcome]
	l.quiet[outcome] = 0
	l.mu.Unlock()

	attrs := []any{"outcome", outcome, "took", took.Round(time.Millisecond).String(), "since_last_line", quiet}
	if l.model != "" {
		attrs = append(attrs, "model", l.model)
	}
	if err != nil {
		attrs = append(attrs, "err", err)
	}
	switch outcome {
	case CompletionOK:
		l.log.InfoContext(ctx, "language model answered", attrs...)
	case CompletionTimeout:
		l.log.WarnContext(ctx, "language model did not answer in time; the rules' reading stands", attrs...)
	case CompletionRejected:
		l.log.WarnContext(ctx, "language model reply rejected; the rules' reading stands", attrs...)
	default:
		l.log.WarnContext(ctx, "language model failed; the rules' reading stands", attrs...)
	}
}
