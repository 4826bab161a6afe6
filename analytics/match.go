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
	if err := s.Err(); err != nil {
		return nil, err
	}
	return s.current().matchRuns(ctx, f)
}
