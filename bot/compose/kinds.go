package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// RunMatcher returns the runs a filter matches, each repetition with its
// own values. *analytics.Store satisfies it; answers that show
// repetitions or a run's setup need it from the Querier (a search
// over single runs ranks them instead: RunRanker).
type RunMatcher interface {
	MatchRuns(ctx context.Context, filter string) ([]analytics.Run, error)
}

// errNoRunMatcher is a wiring mistake: the Querier cannot list runs.
var errNoRunMatcher = errors.New("the querier cannot list single runs")

// RunRanker ranks the runs a filter matches on one field and counts those
// kept, holding only the best few: what a search over single runs needs,
// without a copy of every matching run (at 1M runs a dataset-wide search
// held 1.8 GB to rank them here). *analytics.Store satisfies it.
type RunRanker interface {
	RankRuns(ctx context.Context, filter string, r analytics.RunRanking) (analytics.RankedRuns, error)
}

func (b *Composer) rankRuns(ctx context.Context, filter string, r analytics.RunRanking) (analytics.RankedRuns, error) {
	m, ok := b.cfg.Querier.(RunRanker)
	if !ok {
		return analytics.RankedRuns{}, errNoRunRanker
	}
	done := b.observe(ctx, filter)
	ranked, err := m.RankRuns(ctx, filter, r)
	done(err)
	if err != nil {
		return analytics.RankedRuns{}, fmt.Errorf("ranking the runs of %q: %w", filter, err)
	}
	return ranked, nil
}

// errNoRunRanker is a wiring mistake: the Querier cannot rank runs.
var errNoRunRanker = errors.New("the querier cannot rank single runs")

// RunTallier tallies the runs a filter matches: the distinct values of a
// few of their own fields with their counts, and the first few run IDs;
// what a provenance answer needs, without a copy of every matching run
// (at 1M runs that held 2 GB and named every run). *analytics.Store
// satisfies it.
type RunTallier interface {
	TallyRuns(ctx context.Context, filter string, t analytics.RunTally) (analytics.TalliedRuns, error)
}

// errNoRunTallier is a wiring mistake: the Querier cannot tally runs.
var errNoRunTallier = errors.New("the querier cannot tally single runs")

func (b *Composer) tallyRuns(ctx context.Context, filter string, t analytics.RunTally) (analytics.TalliedRuns, error) {
	m, ok := b.cfg.Querier.(RunTallier)
	if !ok {
		return analytics.TalliedRuns{}, errNoRunTallier
	}
	done := b.observe(ctx, filter)
	tallied, err := m.TallyRuns(ctx, filter, t)
	done(err)
	if err != nil {
		return analytics.TalliedRuns{}, fmt.Errorf("tallying the runs of %q: %w", filter, err)
	}
	return tallied, nil
}

func (b *Composer) matchRuns(ctx context.Context, filter string) ([]analytics.Run, error) {
	m, ok := b.cfg.Querier.(RunMatcher)
	if !ok {
		return nil, errNoRunMatcher
	}
	done := b.observe(ctx, filter)
	runs, err := m.MatchRuns(ctx, filter)
	done(err)
	if err != nil {
		return nil, fmt.Errorf("runs of %q: %w", filter, err)
	}
	return runs, nil
}

// composeChatter answers a greeting in one line.
func composeChatter(p planner.Plan) Answer {
	a := Answer{Kind: KindChatter, Rows: []Row{}, Nearest: []Row{}}
	if p.Greeting {
		a.Headline = "Hello! I answer questions about Redis, Valkey, Dragonfly, KeyDB and Garnet from the benchmark's measured runs — ask “what can I ask you?” for examples."
	} else {
		a.Headline = "Noted — ask me about the measurements whenever you like."
	}
	return a
}

// corrected says, before anything else, what a correction changed.
func corrected(p planner.Plan, a Answer) Answer {
	if len(p.Corrected) == 0 {
		return a
	}
	a.Body = append([]string{"Changed from the previous question: " + strings.Join(p.Corrected, "; ") + "."}, a.Body...)
	return a
}
