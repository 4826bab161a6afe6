// Package knowledge holds what the bot knows besides the runs: glossary
// terms, vendor and third-party claims, measured findings (computed from the
// runs when loaded), measured tables that are not runs (bytes per key,
// Sentinel failover, cross-slot demo), engines, sessions and rules. Every
// entry has a stable id and source URLs, written in the project's own words
// from the benchmark's public material.
package knowledge

// TEMPORARY CONTRACT FILE: the knowledge helper splits these into term.go,
// claim.go, finding.go, table.go, base.go and may add fields, but keeps
// these names and meanings (planner and bot code against them).

import (
	"context"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Querier runs a filter over the measured runs (analytics.Store satisfies it).
type Querier interface {
	Query(ctx context.Context, filter string) (analytics.Result, error)
}

// Source is a cited page.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Term is a glossary entry.
type Term struct {
	ID         string   `json:"id"` // "term:pipelining"
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Definition string   `json:"definition"`
	Why        string   `json:"why"`        // why it moves the numbers
	ValueHere  string   `json:"value_here"` // the value used in this benchmark
	SeeAlso    []string `json:"see_also"`
	Sources    []Source `json:"sources"`
}

// Gist is the one-line form of the definition.
func (t Term) Gist() string { return firstSentence(t.Definition) }

// Measure is one named number computed from the runs: the median of Metric
// over the single cell Filter selects.
type Measure struct {
	Name   string `json:"name"`
	Filter string `json:"filter"`
	Metric string `json:"metric"`
	// Computed at load time:
	Value float64        `json:"value"`
	Cell  analytics.Cell `json:"cell"`
}

// Claim is a vendor or third-party claim with the measured counter-evidence.
type Claim struct {
	ID        string    `json:"id"` // "claim:dragonfly-25x"
	Title     string    `json:"title"`
	Claimant  string    `json:"claimant"` // "Dragonfly (vendor)", "Redis Ltd. (vendor)", "third party"
	Kind      string    `json:"kind"`     // "vendor" or "third-party"
	Engines   []string  `json:"engines"`
	Statement string    `json:"statement"` // slogan in quotes where there is one
	Setup     string    `json:"setup"`     // claimant's hardware, versions, date
	Numbers   string    `json:"numbers"`   // claimant's figures
	Topics    []string  `json:"topics"`    // "throughput", "memory", "latency", ...
	Measures  []Measure `json:"measures"`  // counter-evidence, computed from runs
	// Measured is the sentence stating what the data gives, with
	// {name} / {ratio:a/b} placeholders filled from Measures at load time.
	Measured  string   `json:"measured"`
	Verdict   string   `json:"verdict"` // comparability verdict
	WhyDiffer string   `json:"why_differ"`
	Session   int      `json:"session,omitempty"`
	Sources   []Source `json:"sources"`
}

// Finding is a measured headline; its figures are computed from the runs.
type Finding struct {
	ID       string    `json:"id"` // "finding:headline-48c"
	Title    string    `json:"title"`
	Session  int       `json:"session,omitempty"`
	Measures []Measure `json:"measures"`
	// Statement with placeholders, rendered with computed figures.
	Statement string   `json:"statement"`
	Sources   []Source `json:"sources"`
}

// Base is the loaded, validated knowledge base.
type Base struct{}

// Load parses the embedded data, validates it (unknown see-also ids,
// duplicate aliases, counter-queries that do not compile or match no run,
// findings that cannot be computed) and computes every figure from q.
func Load(ctx context.Context, q Querier) (*Base, error) { panic("unimplemented") }

// Define resolves a term name or alias (typo tolerant).
func (b *Base) Define(text string) (Term, bool) { panic("unimplemented") }

// Term, Claim, Finding look entries up by id.
func (b *Base) Term(id string) (Term, bool)       { panic("unimplemented") }
func (b *Base) Claim(id string) (Claim, bool)     { panic("unimplemented") }
func (b *Base) Finding(id string) (Finding, bool) { panic("unimplemented") }

// Claims lists claims about an engine and/or topic ("" matches any).
func (b *Base) Claims(engine, topic string) []Claim { panic("unimplemented") }

// Terms lists every glossary term (the planner builds its vocabulary from aliases).
func (b *Base) Terms() []Term { panic("unimplemented") }

func firstSentence(s string) string { return s }
