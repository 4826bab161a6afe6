package compose

import (
	"context"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// Querier runs one filter over the measured runs and returns the medians per
// cell. *analytics.Store satisfies it. Filter errors are
// *analytics.FilterError values.
type Querier interface {
	Query(ctx context.Context, filter string) (analytics.Result, error)
}

// Knowledge is what the bot reads from the knowledge base: glossary terms,
// claims, rules and caveats, and the measured tables that are not runs.
// *knowledge.Base satisfies it.
type Knowledge interface {
	Term(id string) (knowledge.Term, bool)
	Claim(id string) (knowledge.Claim, bool)
	// Entry looks any entry up by id (title, first URL) for sources.
	Entry(id string) (knowledge.Entry, bool)
	// Finding looks a measured finding up by id ("finding:pipelining-effect").
	Finding(id string) (knowledge.Finding, bool)
	// Engine looks an engine up by run key, name or id ("valkey", "engine:valkey").
	Engine(name string) (knowledge.Engine, bool)
	// Engines lists the five engines as tested (name, version, session).
	Engines() []knowledge.Engine
	// Note looks a documentary entry up by id ("setup:hardware", "scope:not-measured").
	Note(id string) (knowledge.Note, bool)
	// Session looks a capture session up by number.
	Session(n int) (knowledge.Session, bool)
	MemoryTable() knowledge.MemoryTable
	FailoverSweep() knowledge.FailoverTable
	FailoverEngines() knowledge.FailoverTable
}
