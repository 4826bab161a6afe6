package compose

import (
	"context"
	"errors"
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// Compose turns a plan into an answer of the matching kind (docs/design.md#answers),
// with the plan's interpretation as readers see it (readAs), and for a
// "why?" follow-up the reasons behind the answer first (explain).
func (b *Composer) Compose(ctx context.Context, p planner.Plan) (Answer, error) {
	a, err := b.composeKind(ctx, p)
	if err != nil {
		return a, err
	}
	withoutRepeatedCrossSession(&a)
	a = corrected(p, a)
	if a.Interpretation != "" && a.Interpretation == p.Interpretation {
		a.Interpretation = b.readAs(p)
	}
	if p.Explain {
		a = b.explain(p, a)
	}
	withUnboundReading(&a, p)
	return a, nil
}

// withUnboundReading opens the first line with the reading a default gave
// words the plan left unbound (planner.Plan.UnboundReading), so an answer
// for another workload than the one asked about says so before its number.
func withUnboundReading(a *Answer, p planner.Plan) {
	if p.UnboundReading == "" {
		return
	}
	if a.Headline == "" {
		a.Headline = p.UnboundReading + "."
		return
	}
	a.Headline = p.UnboundReading + ". " + a.Headline
	a.reading = p.UnboundReading + "."
}

// composeKind picks the composer of a plan: the query composer for every
// question the measured runs answer, a search, setup or provenance
// answer, the claim check, the measured tables, and the kinds that answer
// from the knowledge base alone. Units, corrections and extrapolation
// refusals adjust the answer their ordinary composer writes.
func (b *Composer) composeKind(ctx context.Context, p planner.Plan) (Answer, error) {
	switch {
	case p.Aggregate == "count" || p.Aggregate == "distinct", p.Intent == planner.IntentRecommend,
		p.Intent == planner.IntentSpread, p.Premise != nil && p.Intent != planner.IntentFailover && p.Intent != planner.IntentMemory:
		return b.composeQuery(ctx, p)
	case p.Intent == planner.IntentChatter:
		return composeChatter(p), nil
	case p.Intent == planner.IntentCompound:
		return b.composeCompound(ctx, p)
	case p.Intent == planner.IntentSearch:
		return b.composeSearch(ctx, p)
	case isSetupPlan(p):
		return b.composeSetup(p), nil // what the setup entries answer whole
	case p.Intent == planner.IntentProvenance:
		return b.composeProvenance(ctx, p)
	case p.Units != nil:
		base := p
		base.Units = nil
		return b.adjusted(ctx, p, base, withUnits)
	case p.Prediction != nil:
		base := p
		base.Prediction = nil
		return b.adjusted(ctx, p, base, withTrend)
	}
	switch p.Intent {
	case planner.IntentLookup, planner.IntentCompare, planner.IntentScaling, planner.IntentEffect, planner.IntentNoData, planner.IntentClaim:
		return b.composeQuery(ctx, p)
	case planner.IntentMemory:
		return b.composeMemory(p)
	case planner.IntentFailover:
		return b.composeFailover(p)
	case planner.IntentCrossSlot:
		return b.composeCrossSlot(p)
	case planner.IntentDiagnostic:
		return b.composeDiagnostics(p)
	case planner.IntentDefine:
		return b.composeDefinition(ctx, p)
	case planner.IntentOutOfScope:
		return composeOutOfScope(p), nil
	case planner.IntentHelp:
		return composeHelp(p), nil
	case planner.IntentClarify:
		return composeClarify(p), nil
	}
	return Answer{}, fmt.Errorf("composing plan for %q: %w %q", p.Question, errUnknownIntent, p.Intent)
}

// adjusted composes base, the plan without one of its adjustments, and
// applies that adjustment, which reads the whole plan p, to the answer.
func (b *Composer) adjusted(ctx context.Context, p, base planner.Plan, adjust func(planner.Plan, Answer) Answer) (Answer, error) {
	a, err := b.composeKind(ctx, base)
	if err != nil {
		return a, err
	}
	return adjust(p, a), nil
}

// errUnknownIntent is a planner/bot mismatch: a plan the bot cannot compose.
var errUnknownIntent = errors.New("unknown intent")

// queryResult is one plan query with the rows it returned.
type queryResult struct {
	query planner.Query
	rows  []Row
}

// runQueries runs every query of the plan and returns the rows (deduplicated,
// in analytics order), each query's own rows, and the answer's sources
// started with every filter run.
func (b *Composer) runQueries(ctx context.Context, qs []planner.Query) ([]Row, []queryResult, *sourcer, error) {
	var all []Row
	var results []queryResult
	s := newSourcer(b.cfg.Knowledge)
	for _, q := range qs {
		res, err := b.query(ctx, q.Filter)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("query %q: %w", q.Filter, err)
		}
		s.filter(q.Filter)
		qr := queryResult{query: q}
		for _, c := range res.Cells {
			qr.rows = append(qr.rows, rowFromCellOf(q.Filter, c))
		}
		all = append(all, qr.rows...)
		results = append(results, qr)
	}
	all = dedupeRows(all)
	sortRows(all)
	return all, results, s, nil
}

// sourcer collects an answer's sources in order, without duplicates.
type sourcer struct {
	k       Knowledge
	src     Sources
	seen    map[string]bool
	seenRun map[string]bool
}

func newSourcer(k Knowledge) *sourcer {
	return &sourcer{k: k, seen: map[string]bool{}, seenRun: map[string]bool{},
		src: Sources{Filters: []string{}, RunIDs: []string{}, Entries: []SourceEntry{}}}
}

func (s *sourcer) filter(f string) {
	if f == "" || s.seen["filter\x00"+f] {
		return
	}
	s.seen["filter\x00"+f] = true
	s.src.Filters = append(s.src.Filters, f)
}

func (s *sourcer) rows(rows []Row) {
	for _, r := range rows {
		s.runs(r.RunIDs...)
		s.unnamed(r.RunsFilter, r.RunCount-len(r.RunIDs))
	}
}

// unnamed counts n runs the answer does not name, all listed by filter.
func (s *sourcer) unnamed(filter string, n int) {
	if n <= 0 || filter == "" {
		return
	}
	if s.src.unnamed == nil {
		s.src.unnamed = map[string]int{}
	}
	s.src.unnamed[filter] = max(s.src.unnamed[filter], n)
}

// merge continues with another answer's run IDs and the runs it left unnamed.
func (s *sourcer) merge(src Sources) {
	s.runs(src.RunIDs...)
	for f, n := range src.unnamed {
		s.unnamed(f, n)
	}
}

func (s *sourcer) runs(ids ...string) {
	for _, id := range ids {
		if !s.seenRun[id] {
			s.seenRun[id] = true
			s.src.RunIDs = append(s.src.RunIDs, id)
		}
	}
}

// entry cites a knowledge entry by id when the knowledge base has it and
// reports whether it did.
func (s *sourcer) entry(id string) bool {
	if s.seen[id] {
		return true
	}
	e, ok := lookupEntry(s.k, id)
	if !ok {
		return false
	}
	s.seen[id] = true
	s.src.Entries = append(s.src.Entries, e)
	return true
}

func (s *sourcer) sources() Sources {
	src := s.src
	src.RunCount = len(src.RunIDs)
	for _, n := range src.unnamed {
		src.RunCount += n
	}
	return src
}
