package analytics

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestPinnedQueriesAndScansShareTheChunksTheyRead runs pinned queries
// (which keep the chunks they read, run IDs decoded only for the cells
// they return) before, beside and after scans and Cells on a snapshot
// nothing is loaded of yet: each answers as on a store read whole (run
// with -race: a kept chunk's IDs may be decoded while a scan takes its
// cells).
func TestPinnedQueriesAndScansShareTheChunksTheyRead(t *testing.T) {
	s := storeOfSynthetic(t, 3_000)
	all := s.Cells()
	pinnedOn := func(k CellKey) string {
		return fmt.Sprintf(`engine == %q && cores == %d && ratio == %q && value_bytes == %d && pipeline == %d`,
			k.Engine, k.Cores, k.Ratio, k.ValueBytes, k.Pipeline)
	}
	filters := []string{fullScanFilter, `p50_ms < 0.3`, pinnedOn(all[1].CellKey), pinnedOn(all[len(all)/2].CellKey)}
	want := make([]Result, len(filters))
	for i, text := range filters {
		var err error
		if want[i], err = s.Query(t.Context(), text); err != nil {
			t.Fatal(err)
		}
	}
	s.snap = newLazySnapshot(s, s.snap.lazy.head, s.manifest)
	wantCells := s.Cells()
	for _, i := range []int{2, 3} {
		if len(want[i].Cells) == 0 || len(want[i].Cells[0].RunIDs) == 0 {
			t.Fatalf("%s matches no cell with run IDs: the test would not read a chunk", filters[i])
		}
	}

	t.Run("pinned first, then the cells", func(t *testing.T) {
		s.snap = newLazySnapshot(s, s.snap.lazy.head, s.manifest)
		for _, i := range []int{2, 3} {
			if got, err := s.Query(t.Context(), filters[i]); err != nil || !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("%s = %v, %v; want %v", filters[i], got, err, want[i])
			}
		}
		if !reflect.DeepEqual(s.Cells(), wantCells) {
			t.Fatal("the cells read after pinned queries differ")
		}
	})

	t.Run("concurrently", func(t *testing.T) {
		s.snap = newLazySnapshot(s, s.snap.lazy.head, s.manifest)
		errs := make(chan error, 4*(len(filters)+1))
		var wg sync.WaitGroup
		for range 4 {
			for i, text := range filters {
				wg.Go(func() {
					got, err := s.Query(t.Context(), text)
					if err == nil && !reflect.DeepEqual(got, want[i]) {
						err = fmt.Errorf("%s answered differently beside other queries", text)
					}
					errs <- err
				})
			}
			wg.Go(func() {
				if !reflect.DeepEqual(s.Cells(), wantCells) {
					errs <- fmt.Errorf("the cells differ beside pinned queries")
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}
