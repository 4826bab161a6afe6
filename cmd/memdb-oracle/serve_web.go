package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/adapters/web"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// serveWeb adds the browser pages (adapters/web) to the API's mux: they
// answer through the same instrumented handler behind the same Guard (API
// keys, per-client limits), and sit under MEMDB_ORACLE_BASE_PATH when a
// reverse proxy forwards a sub-path.
func (a *app) serveWeb(mux *http.ServeMux, h handler, guard *httpadapter.Guard) error {
	st, err := a.store()
	if err != nil {
		return err
	}
	kb, err := a.knowledge()
	if err != nil {
		return err
	}
	base := a.cfg.Getenv("MEMDB_ORACLE_BASE_PATH")
	var signIn http.Handler
	if len(a.cfg.HTTP.Keys) > 0 {
		signIn = guard.SignIn(base + "/")
	}
	var feedback *bot.FeedbackStore
	kv, err := a.kv("web")
	if err != nil {
		return err
	}
	if fkv, ok := kv.(bot.FeedbackKV); ok {
		feedback = bot.NewFeedbackStore(fkv)
		a.metrics().WatchFeedback(a.log, feedback)
	}
	site, err := web.New(h, bot.NewDataset(st, kb), web.Options{
		Feedback:  feedback,
		BasePath:  base,
		Logger:    a.log.With("adapter", "web"),
		Guard:     guard.Wrap,
		PageGuard: guard.WrapPages,
		SignIn:    signIn,
		RenderChart: func(_ context.Context, c bot.Chart) ([]byte, error) {
			return chart.Render(c)
		},
	})
	if err != nil {
		return fmt.Errorf("MEMDB_ORACLE_BASE_PATH: %w", err)
	}
	site.Register(mux)
	return nil
}
