package analytics_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

// TestEarlierFormatFixturesMigrate checks the stores other packages' tests
// migrate (analyticstest.EarlierFormatStore): each opens read-only as
// needing migration, and a writing open migrates it once, saying so, to
// the embedded dataset's runs.
func TestEarlierFormatFixturesMigrate(t *testing.T) {
	want := analyticstest.OpenStore(t).Fingerprint()
	for _, format := range []int{1, 2} {
		t.Run("format "+strconv.Itoa(format), func(t *testing.T) {
			dir := analyticstest.EarlierFormatStore(t, format)
			ro, err := analytics.Open(t.Context(), analytics.Options{Dir: dir, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			needs := ro.NeedsMigration()
			if err := ro.Close(); err != nil {
				t.Fatal(err)
			}
			if !needs {
				t.Errorf("a format-%d store opened read-only does not need migration", format)
			}
			s, err := analytics.Open(t.Context(), analytics.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if msg := s.Migrated(); !strings.Contains(msg, "from store format "+strconv.Itoa(format)) || !strings.Contains(msg, "478 runs") {
				t.Errorf("Migrated() = %q", msg)
			}
			if got := s.Fingerprint(); got != want {
				t.Errorf("migrated fingerprint %s, want the embedded dataset's %s", got, want)
			}
			if err := s.Verify(t.Context()); err != nil {
				t.Error(err)
			}
		})
	}
}
