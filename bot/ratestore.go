package bot

import (
	"context"
	"time"
)

// RateStore applies rate limits atomically for every replica sharing it
// (docs/design.md#replicas-and-shared-state), so two replicas racing never admit more than a limit allows.
// A Redis/Valkey script is one (adapters/redis). The Limiter falls back to
// its own per-process buckets when the store fails.
type RateStore interface {
	// Admit takes one request from every limit, or from none when any of
	// them refuses; it reports the first refusing limit and when it would
	// admit again.
	Admit(ctx context.Context, limits []RateLimit) (RateDecision, error)
}

// RateLimit is one bucket a request must fit: a GCRA token bucket when
// Every is set (one token per Every, at most Burst saved), else a counter
// of Count requests per window ending at Reset.
type RateLimit struct {
	Key   string
	Every time.Duration
	Burst int
	Count int
	Reset time.Time
}

// RateDecision is a RateStore's verdict: Refused is the index of the first
// limit that refused (-1: admitted), Retry how long until it admits.
type RateDecision struct {
	Refused int
	Retry   time.Duration
}
