package http

import (
	"strings"
	"testing"
	"time"
)

func TestMetricsSayWhatTheLastScrubCheckedAndFound(t *testing.T) {
	for _, tc := range []struct {
		name     string
		finished time.Time
		checked  int
		damaged  int
		want     []string
	}{
		{"before the first scrub", time.Time{}, 0, 0, []string{
			"memdb_oracle_scrub_last_timestamp_seconds 0\n", "memdb_oracle_scrub_files_checked 0\n", "memdb_oracle_scrub_damaged_files 0\n"}},
		{"after a scrub that found a damaged file", time.Unix(1_700_000_000, 0), 12, 1, []string{
			"memdb_oracle_scrub_last_timestamp_seconds 1.7e+09\n", "memdb_oracle_scrub_files_checked 12\n", "memdb_oracle_scrub_damaged_files 1\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMetrics()
			m.WatchScrub(func() (time.Time, int, int) { return tc.finished, tc.checked, tc.damaged })
			body := scrape(t, m)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("metrics lack %q", w)
				}
			}
		})
	}
}
