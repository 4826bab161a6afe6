package analytics

import (
	"reflect"
	"slices"
	"testing"
)

// TestCoverageIsBuiltOncePerSnapshotAndHandedOutAsCopies checks the cached
// coverage: it equals a fresh build, a caller changing its copy does not
// change the next answer, and a new snapshot (what an import installs)
// brings its own coverage.
func TestCoverageIsBuiltOncePerSnapshotAndHandedOutAsCopies(t *testing.T) {
	s := &Store{snap: newSnapshot(syntheticRuns(3000))}
	first := s.Coverage()
	var fresh coverageBuilder
	for i := range s.current().cells {
		fresh.add(&s.current().cells[i])
	}
	if want := fresh.out; !reflect.DeepEqual(first, want) {
		t.Fatalf("cached coverage differs from a fresh build:\n got %+v\nwant %+v", first, want)
	}
	first[0].Cores[0] = -1
	first[0].Ratios = append(first[0].Ratios[:0], "changed")
	first[0].Engine = "changed"
	if again := s.Coverage(); again[0].Cores[0] == -1 || again[0].Ratios[0] == "changed" || again[0].Engine == "changed" {
		t.Errorf("a caller's change to its copy leaked into the store's coverage: %+v", again[0])
	}
	// The copies share backing arrays: appending to one slice must not
	// write into the next series' values.
	copied := s.Coverage()
	if len(copied) > 1 {
		before := slices.Clone(copied[1].Cores)
		_ = append(copied[0].Pipelines, -2)
		_ = append(copied[0].Cores, -2)
		_ = append(copied[0].ValueBytes, -2)
		_ = append(copied[0].Ratios, "appended")
		if !slices.Equal(copied[1].Cores, before) || slices.Contains(copied[1].Ratios, "appended") {
			t.Errorf("appending to one series' copy changed the next: %+v", copied[1])
		}
	}

	s.snap = newSnapshot(syntheticRuns(30)) // three cells only
	cells := 0
	for _, c := range s.Coverage() {
		cells += c.Cells
	}
	if cells != 3 {
		t.Errorf("coverage after a new snapshot counts %d cells, want 3", cells)
	}
}

func BenchmarkCoverage(b *testing.B) {
	s := openDefault(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Coverage()) == 0 {
			b.Fatal("no coverage")
		}
	}
}
