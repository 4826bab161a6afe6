package analytics

import "context"

// MatchRuns returns copies of the runs the filter matches, in ID order:
// each repetition with its own values, for answers that show repetitions
// or search single runs. The filter goes through the one gate
// (CompileFilter).
func (s *Store) MatchRuns(ctx context.Context, filter string) ([]Run, error) {
	f, err := s.filters.compile(ctx, filter)
	if err != nil {
		return nil, err
	}
	snap := s.current()
	idx, err := snap.matchRuns(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]Run, len(idx))
	for i, j := range idx {
		out[i] = snap.runs[j].clone()
	}
	return out, nil
}
