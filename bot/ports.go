package bot

import (
	"context"
	"time"
)

// KV is the small persistent key-value space bot state lives in (thread
// memory, rate-limit counters, de-duplication, digest markers). The default
// is analytics.Store.KV (Badger); a shared Redis/Valkey store can replace it
// on several replicas (docs/design.md#replicas-and-shared-state).
type KV interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
	Delete(ctx context.Context, key string) error
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// Poster posts digest messages to channels of one platform. Adapters
// implement it (Slack, Discord).
type Poster interface {
	// Platform names the platform ("slack", "discord").
	Platform() string
	// PostTop posts a top-level message and returns a reference that
	// PostReply uses to answer in its thread.
	PostTop(ctx context.Context, channel, markdown string) (threadRef string, err error)
	// PostReply posts into the thread of a message PostTop returned.
	PostReply(ctx context.Context, channel, threadRef, markdown string) error
}

// ChartPoster is a Poster that can also put a chart image into the thread
// of a message PostTop returned. It is optional: the digest checks for it
// and posts its headline chart only where a poster implements it.
type ChartPoster interface {
	// PostChart posts png (a rendered Chart) into the thread threadRef of
	// channel, with altText for screen readers and title as its caption.
	PostChart(ctx context.Context, channel, threadRef string, png []byte, altText, title string) error
}
