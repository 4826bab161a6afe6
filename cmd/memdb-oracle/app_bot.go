package main

import (
	"context"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// KV namespaces of the bot's state in the data directory's store.
const (
	kvThreads   = "threads"
	kvRateLimit = "ratelimit"
)

// bot builds the bot once: the store, the knowledge base and the planner,
// thread memory and daily rate-limit counters persisted in the store's KV
// (so `ask --thread` follow-ups work across processes), and the configured
// rate limits. Messages with neither user nor channel (the local terminal)
// are not rate limited.
func (a *app) bot() (*bot.Bot, error) {
	if a.b != nil {
		return a.b, nil
	}
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	kb, err := a.knowledge()
	if err != nil {
		return nil, err
	}
	pl, err := a.planner()
	if err != nil {
		return nil, err
	}
	threads, err := a.kv(kvThreads)
	if err != nil {
		return nil, err
	}
	limiter, err := a.limiter(a.cfg.Limits, kvRateLimit)
	if err != nil {
		return nil, err
	}
	a.b = bot.New(bot.Config{
		Planner:   pl,
		Querier:   st,
		Knowledge: kb,
		Threads:   bot.NewKVThreads(threads, 0, 0),
		Limiter:   limiter,
		Logger:    a.log.With("component", "bot"),
		Deadline:  a.cfg.Deadline,
	})
	return a.b, nil
}

// metrics returns the process's Prometheus series (one registry, created
// once); serve exposes them on GET /metrics.
func (a *app) metrics() *httpadapter.Metrics {
	if a.mt == nil {
		a.mt = httpadapter.NewMetrics()
	}
	return a.mt
}

// handler answers one message; *bot.Bot and the metrics-instrumented bot
// satisfy it, as do the adapters' own Handler interfaces.
type handler interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// answerer is the bot wrapped so that every answer is counted in metrics()
// by kind and platform. Surfaces run by serve (HTTP, Slack, Discord) should
// ask through it rather than through bot() directly.
func (a *app) answerer() (handler, error) {
	b, err := a.bot()
	if err != nil {
		return nil, err
	}
	return a.metrics().Instrument(b), nil
}
