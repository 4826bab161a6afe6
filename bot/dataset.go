package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// Names for the dataset's own types, so that adapters browsing the dataset
// (the web pages) can name them while talking to bot only.
type (
	// MeasuredRun is one measurement with every field (analytics.Run).
	MeasuredRun = analytics.Run
	// MeasuredCell is one measured combination with its medians (analytics.Cell).
	MeasuredCell = analytics.Cell
)

// DatasetStore is what browsing reads from the measured runs.
// *analytics.Store satisfies it.
type DatasetStore interface {
	Querier
	Run(id string) (analytics.Run, bool)
	Cells() []analytics.Cell
}

// DatasetKnowledge is what browsing reads from the knowledge base.
// *knowledge.Base satisfies it.
type DatasetKnowledge interface {
	Engine(name string) (knowledge.Engine, bool)
	Engines() []knowledge.Engine
	Session(n int) (knowledge.Session, bool)
	Sessions() []knowledge.Session
	Note(id string) (knowledge.Note, bool)
	Terms() []knowledge.Term
	Claims(engine, topic string) []knowledge.Claim
	MemoryTable() knowledge.MemoryTable
	FailoverSweep() knowledge.FailoverTable
	FailoverEngines() knowledge.FailoverTable
}

// Dataset answers the browsing questions a page asks directly, without a
// plan: one run with its cell, the runs matching a filter, and what the
// dataset and knowledge base hold. Filters go through the same gate as the
// planner's (analytics' compiler via Querier). It is safe for concurrent use.
type Dataset struct {
	store DatasetStore
	kb    DatasetKnowledge
}

// NewDataset returns a Dataset over the store and knowledge base.
func NewDataset(store DatasetStore, kb DatasetKnowledge) *Dataset {
	return &Dataset{store: store, kb: kb}
}

// ErrUnknownRun reports a run ID the store does not hold.
var ErrUnknownRun = errors.New("no measured run has this ID")

// FilterProblem is a filter the gate refused, safe to show the user: the
// message and the 1-based character column it points at (0: none).
type FilterProblem struct {
	Filter string
	Msg    string
	Column int
}

func (e *FilterProblem) Error() string { return "bad filter: " + e.Msg }

// RunDetail is one run with everything needed to judge it: its cell's
// repetitions and medians, the session and engine as tested, the setup
// notes, and where its line came from.
type RunDetail struct {
	Run analytics.Run
	// Cell is the run's combination with the median across Reps.
	Cell analytics.Cell
	// Reps are every repetition of the cell, this run included, in
	// repetition order.
	Reps    []analytics.Run
	Session knowledge.Session
	Engine  knowledge.Engine
	// Setup are the hardware and software notes that apply to every run.
	Setup  []knowledge.Note
	Source RunSource
}

// Run returns the run with the given ID and its context, or ErrUnknownRun.
func (d *Dataset) Run(ctx context.Context, id string) (RunDetail, error) {
	r, ok := d.store.Run(id)
	if !ok {
		return RunDetail{}, fmt.Errorf("%w: %q", ErrUnknownRun, id)
	}
	det := RunDetail{Run: r, Source: sourceOf(r)}
	k := r.Key()
	for _, c := range d.store.Cells() {
		if c.CellKey == k {
			det.Cell = c
			break
		}
	}
	for _, rid := range det.Cell.RunIDs {
		if rep, ok := d.store.Run(rid); ok {
			det.Reps = append(det.Reps, rep)
		}
	}
	slices.SortFunc(det.Reps, func(a, b analytics.Run) int { return a.Rep - b.Rep })
	det.Session, _ = d.kb.Session(r.Session)
	det.Engine, _ = d.kb.Engine(r.Engine)
	for _, id := range []string{"setup:hardware", "setup:software", "setup:engine-config"} {
		if n, ok := d.kb.Note(id); ok {
			det.Setup = append(det.Setup, n)
		}
	}
	return det, ctx.Err()
}

// FilterResult is what a filter matched: the per-cell medians and every
// matching run, both in cell order.
type FilterResult struct {
	Filter string
	Cells  []analytics.Cell
	Runs   []analytics.Run
	// TotalCells and TotalRuns count every match; a page (FilterPage)
	// holds fewer.
	TotalCells, TotalRuns int
}

// Filter runs a user's filter through the gate and returns the matching
// cells and runs. A refused filter is a *FilterProblem.
func (d *Dataset) Filter(ctx context.Context, filter string) (FilterResult, error) {
	return d.FilterPage(ctx, filter, 0, math.MaxInt, math.MaxInt)
}

// FilterPage is Filter for a listing: the first maxCells matching cells,
// and the matching runs from index from (in cell order) up to limit of
// them, read one by one; the totals count every match. Memory grows with
// the page, not with the matches.
func (d *Dataset) FilterPage(ctx context.Context, filter string, from, limit, maxCells int) (FilterResult, error) {
	res, err := d.store.Query(ctx, filter)
	var fe *analytics.FilterError
	if errors.As(err, &fe) {
		return FilterResult{Filter: filter}, &FilterProblem{Filter: filter, Msg: fe.Msg, Column: fe.Column()}
	}
	if err != nil {
		return FilterResult{Filter: filter}, fmt.Errorf("running filter: %w", err)
	}
	out := FilterResult{Filter: res.Filter, Cells: res.Cells[:min(len(res.Cells), maxCells)], TotalCells: len(res.Cells)}
	for _, c := range res.Cells {
		lo, hi := max(from-out.TotalRuns, 0), min(from+limit-out.TotalRuns, len(c.RunIDs))
		for i := lo; i < hi; i++ {
			if r, ok := d.store.Run(c.RunIDs[i]); ok {
				out.Runs = append(out.Runs, r)
			}
		}
		out.TotalRuns += len(c.RunIDs)
	}
	return out, ctx.Err()
}

// Overview is what the dataset and knowledge base hold, for the data page.
type Overview struct {
	Sessions []knowledge.Session
	Engines  []knowledge.Engine
	// Coverage is every measured cell, in cell order.
	Coverage        []analytics.Cell
	Memory          knowledge.MemoryTable
	FailoverSweep   knowledge.FailoverTable
	FailoverEngines knowledge.FailoverTable
	Terms           []knowledge.Term
	Claims          []knowledge.Claim
}

// Overview returns the whole dataset's description.
func (d *Dataset) Overview() Overview {
	return Overview{
		Sessions:        d.kb.Sessions(),
		Engines:         d.kb.Engines(),
		Coverage:        d.store.Cells(),
		Memory:          d.kb.MemoryTable(),
		FailoverSweep:   d.kb.FailoverSweep(),
		FailoverEngines: d.kb.FailoverEngines(),
		Terms:           d.kb.Terms(),
		Claims:          d.kb.Claims("", ""),
	}
}

// FormatExact renders a measured value exactly, with thousands separators
// ("15,473,658.395"), for pages that show every field of a run.
func FormatExact(v float64) string { return compose.FormatExact(v) }

// FormatOps renders a throughput the way answers say it ("15.5M ops/s").
func FormatOps(v float64) string { return compose.FormatOps(v) }

// About is what the bot answers, in a headline and a few paragraphs, for
// surfaces that introduce it (compose.About).
func About() (headline string, paragraphs []string) { return compose.About() }

// Examples returns questions that really work, for surfaces that offer
// some before anything is asked.
func Examples() []string { return slices.Clone(compose.HelpExamples) }
