package analytics_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

func TestTheEmbeddedDatasetHolds478RunsIn254Cells(t *testing.T) {
	s := analyticstest.OpenStore(t)
	if got := len(s.Runs()); got != 478 {
		t.Errorf("runs = %d, want 478", got)
	}
	if got := len(s.Cells()); got != 254 {
		t.Errorf("cells = %d, want 254", got)
	}
}

func TestTheDragonflyExampleQueryGivesOneCellWithTwoReps(t *testing.T) {
	s := analyticstest.OpenStore(t)
	res, err := s.Query(t.Context(), `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 {
		t.Fatalf("cells = %d, want 1", len(res.Cells))
	}
	c := res.Cells[0]
	if c.OpsPerSec != 15473658.395 || c.Reps != 2 {
		t.Errorf("median = %v over %d reps, want 15473658.395 over 2", c.OpsPerSec, c.Reps)
	}
	want := []string{
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2",
	}
	if len(c.RunIDs) != 2 || c.RunIDs[0] != want[0] || c.RunIDs[1] != want[1] {
		t.Errorf("run IDs = %v, want %v", c.RunIDs, want)
	}
	if c.Session != 1 || c.Mode != "single" {
		t.Errorf("key = %+v", c.CellKey)
	}
	var _ analytics.Result = res
}

func TestOpeningADataDirectoryTwiceSaysItIsInUse(t *testing.T) {
	dir := t.TempDir()
	first, err := analytics.Open(t.Context(), analytics.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	_, err = analytics.Open(t.Context(), analytics.Options{Dir: dir})
	if !errors.Is(err, analytics.ErrInUse) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "--data") {
		t.Fatalf("second Open: %v, want ErrInUse naming the directory and what to do", err)
	}
}
