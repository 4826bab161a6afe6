// Package compose turns a plan into an Answer: it runs the plan's queries,
// reads the knowledge base and writes the answer model (headline,
// interpretation, table, claim context, caveats, terms, plain words,
// sources) and its canonical Markdown. It knows nothing of chat surfaces,
// threads or rate limits; package bot does.
package compose

import (
	"context"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Config is what composition reads from: the measured runs and the
// knowledge base. Both are required.
type Config struct {
	Querier   Querier
	Knowledge Knowledge
	// Observer is told of each filter run; nil: no one is.
	Observer QueryObserver
}

// QueryObserver is told of each filter the composer runs over the
// measured runs, as it starts and as it ends: a surface can show the
// answer being worked on.
type QueryObserver interface {
	FilterStarted(ctx context.Context, filter string)
	FilterDone(ctx context.Context, filter string, err error)
}

// observe tells the observer a filter starts, and returns what tells it
// the filter is done.
func (b *Composer) observe(ctx context.Context, filter string) func(error) {
	o := b.cfg.Observer
	if o == nil {
		return func(error) {}
	}
	o.FilterStarted(ctx, filter)
	return func(err error) { o.FilterDone(ctx, filter, err) }
}

// query runs one filter through the Querier, observed.
func (b *Composer) query(ctx context.Context, filter string) (analytics.Result, error) {
	done := b.observe(ctx, filter)
	res, err := b.cfg.Querier.Query(ctx, filter)
	done(err)
	return res, err
}

// Composer composes answers. It is safe for concurrent use.
type Composer struct {
	cfg Config
}

// New returns a Composer over cfg.
func New(cfg Config) *Composer { return &Composer{cfg: cfg} }
