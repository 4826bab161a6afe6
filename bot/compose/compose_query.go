package compose

import (
	"context"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// evidence is what a query answer's figures rest on, as its shape says:
// the rows whose run IDs it cites, the caveats they carry and the glossary
// terms it explains (at most maxTerms).
type evidence struct {
	rows     []Row
	caveats  []caveat
	terms    []string
	maxTerms int
}

// composeQuery is the one composer for query answers: lookups,
// comparisons, positions and multiples, scaling curves, crossovers and
// thresholds, knob effects, counts and distinct values, repetitions,
// recommendations, yes/no checks, claim checks, and refusals of what was
// never measured with the nearest measured rows. It runs the plan's
// filters, lets the plan's shape write line 1 and the rows that prove it,
// and applies the rest once for all of them: the filters verbatim, the
// caveats the rows carry (Garnet floors, cross-session, single runs), the
// terms, and the run IDs of every row shown.
func (b *Composer) composeQuery(ctx context.Context, p planner.Plan) (Answer, error) {
	rows, results, s, err := b.runQueries(ctx, p.Queries)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: rows, Nearest: []Row{}}
	var ev evidence
	switch {
	case p.Aggregate == "count" || p.Aggregate == "distinct":
		ev = countAnswer(&a, p, rows)
	case p.Intent == planner.IntentClaim:
		ev = b.claimAnswer(&a, p, rows, results, s)
	case p.Premise != nil:
		// A yes/no check says itself when no pair was measured.
		ev = premiseAnswer(&a, p, results)
	case p.Intent == planner.IntentNoData || len(rows) == 0:
		ev = b.noDataAnswer(&a, p, rows, s)
	case p.Intent == planner.IntentSpread:
		if ev, err = b.spreadAnswer(ctx, &a, p, rows); err != nil {
			return Answer{}, err
		}
	case p.Intent == planner.IntentRecommend:
		ev = recommendAnswer(&a, p, rows, results)
	default:
		ev = measuredAnswer(&a, p, rows, results)
	}
	b.cite(&a, s, ev)
	return a, nil
}

// cite applies an answer's evidence, once: the caveats its rows carry
// and the terms it explains, each with its knowledge entry, then the run
// IDs of every row it shows.
func (b *Composer) cite(a *Answer, s *sourcer, ev evidence) {
	b.applyCaveatsAndTerms(a, s, ev.caveats, ev.terms, ev.maxTerms)
	s.rows(ev.rows)
	a.Sources = s.sources()
}
