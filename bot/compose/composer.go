// Package compose turns a plan into an Answer: it runs the plan's queries,
// reads the knowledge base and writes the answer model (headline,
// interpretation, table, claim context, caveats, terms, plain words,
// sources) and its canonical Markdown. It knows nothing of chat surfaces,
// threads or rate limits; package bot does.
package compose

// Config is what composition reads from: the measured runs and the
// knowledge base. Both are required.
type Config struct {
	Querier   Querier
	Knowledge Knowledge
}

// Composer composes answers. It is safe for concurrent use.
type Composer struct {
	cfg Config
}

// New returns a Composer over cfg.
func New(cfg Config) *Composer { return &Composer{cfg: cfg} }
