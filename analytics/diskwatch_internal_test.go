package analytics

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

func TestDiskWatchLooksMoreOftenTheLessIsFree(t *testing.T) {
	const floor = 64 << 20
	for _, tc := range []struct {
		free uint64
		want time.Duration
	}{
		{0, diskWatchMin},
		{floor, diskWatchMin},
		{floor + 4<<20, diskWatchMin},               // 4 MB above: under a millisecond at diskFillRate
		{floor + 256<<20, 31250 * time.Microsecond}, // half the time a fill of 256 MB takes
		{floor + 100<<30, diskWatchMax},             // plenty
		{floor + 1<<30, 125 * time.Millisecond},     // half the time a fill of 1 GiB takes
	} {
		if got := diskWatchInterval(tc.free, floor); got != tc.want {
			t.Errorf("free %d above the floor: wait %v, want %v", int64(tc.free)-floor, got, tc.want)
		}
	}
}

// Once the watcher found the disk below the floor, no write starts (even
// with space free again above the floor: Badger's deletes freed it), an
// import stopped by it keeps its rollback for later, and the watcher rolls
// it back and lets writes resume a quarter above the floor.
func TestATrippedDiskGuardRefusesWritesAndRollsBackTheStoppedImportOnceSpaceIsBack(t *testing.T) {
	dir := storeWithImport(t)
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := s.StoredRuns()
	floor := s.minFree
	csv := syntheticFile(t, t.TempDir(), 2*diskCheckEvery)

	s.beforeWrite = func(i int) error {
		if i == 1 {
			s.disk.observe(t.Context(), floor-1) // another writer filled the disk
		}
		return nil
	}
	f, err := os.Open(csv)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := s.Import(t.Context(), "synthetic.csv", f, 3); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("an import the watcher stopped: %v, want ErrDiskFull", err)
	}
	s.beforeWrite = nil
	if !pendingImportLeft(t, s) {
		t.Error("the stopped import was rolled back on the full disk")
	}
	if err := s.CheckDisk(t.Context()); !errors.Is(err, ErrDiskFull) {
		t.Errorf("CheckDisk while tripped: %v, want ErrDiskFull", err)
	}
	if degraded, _ := s.Degraded(); !degraded {
		t.Error("not degraded while tripped")
	}
	if err := s.KV("test").Set(t.Context(), "k", []byte("v"), 0); err != nil {
		t.Errorf("a KV write while tripped: %v, want it held in memory", err)
	}

	s.disk.observe(t.Context(), floor) // back at the floor: not yet
	if err := s.CheckDisk(t.Context()); !errors.Is(err, ErrDiskFull) {
		t.Errorf("CheckDisk at the floor after a trip: %v, want ErrDiskFull", err)
	}
	s.disk.observe(t.Context(), floor+floor/4)
	if err := s.CheckDisk(t.Context()); err != nil {
		t.Errorf("CheckDisk once space was back: %v", err)
	}
	if pendingImportLeft(t, s) {
		t.Error("the stopped import was not rolled back once space was back")
	}
	if got := s.StoredRuns(); !reflect.DeepEqual(got, before) {
		t.Errorf("the store holds %v, want %v as before the import", got, before)
	}
	if v, ok, err := s.KV("test").Get(t.Context(), "k"); err != nil || !ok || string(v) != "v" {
		t.Errorf("the KV write held in memory: %q %v %v", v, ok, err)
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("doctor's check after the rollback: %v", err)
	}

}

func pendingImportLeft(t *testing.T, s *Store) bool {
	t.Helper()
	var found bool
	if err := s.db.View(func(txn *badger.Txn) error {
		var err error
		_, _, found, err = readPending(txn)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return found
}
