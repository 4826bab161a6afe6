package analytics

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest/smalldisk"
)

// mountSmallDisk is smalldisk.Mount: a size-capped tmpfs, skipped with
// what to do where it cannot be mounted, and failed under CI.
func mountSmallDisk(t *testing.T, size string) string {
	t.Helper()
	return smalldisk.Mount(t, size)
}

func TestAFullDiskDegradesInsteadOfCrashing(t *testing.T) {
	disk := mountSmallDisk(t, "96m")
	const floor = 32 << 20
	s, err := Open(t.Context(), Options{Dir: filepath.Join(disk, "data"), MinFreeBytes: floor})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	if degraded, _ := s.Degraded(); degraded {
		t.Fatal("degraded with space to spare")
	}

	filler := fillBelowFloor(t, disk, floor)

	kv := s.KV("threads")
	if err := kv.Set(t.Context(), "t1", []byte("plan"), 0); err != nil {
		t.Fatalf("a thread write on a full disk failed instead of degrading: %v", err)
	}
	if v, found, err := kv.Get(t.Context(), "t1"); err != nil || !found || string(v) != "plan" {
		t.Errorf("held write reads back as %q, %v, %v", v, found, err)
	}
	if degraded, why := s.Degraded(); !degraded || why == "" {
		t.Error("not reported degraded on a full disk")
	}
	if err := s.CheckDisk(t.Context()); !errors.Is(err, ErrDiskFull) {
		t.Errorf("CheckDisk = %v, want ErrDiskFull", err)
	}
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "mine.csv", bytes.NewReader(b), 3); !errors.Is(err, ErrDiskFull) {
		t.Errorf("import on a full disk = %v, want ErrDiskFull", err)
	}
	if n := len(s.Runs()); n != 478 {
		t.Errorf("runs = %d after a refused import, want 478", n)
	}
	if _, err := s.Query(t.Context(), `cores == 48`); err != nil {
		t.Errorf("queries stop on a full disk: %v", err)
	}

	// Space freed: writes go to the store again.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := kv.Set(t.Context(), "t2", []byte("later"), 0); err != nil {
		t.Fatal(err)
	}
	if degraded, _ := s.Degraded(); degraded {
		t.Error("still degraded after space was freed")
	}
	if keys, err := kv.Keys(t.Context(), ""); err != nil || len(keys) != 2 {
		t.Errorf("keys = %v, %v; want t1 (held) and t2 (stored)", keys, err)
	}

	// What was held is in the store once it closes with room to spare.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(t.Context(), Options{Dir: filepath.Join(disk, "data"), MinFreeBytes: floor})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for key, want := range map[string]string{"t1": "plan", "t2": "later"} {
		if v, found, err := again.KV("threads").Get(t.Context(), key); err != nil || !found || string(v) != want {
			t.Errorf("after reopening, %s = %q, %v, %v; want %q (a write held while the disk was full is lost)", key, v, found, err, want)
		}
	}
}

// TestServesDiskWatchWritesBackWhatWasHeldOnceSpaceIsBack holds a thread
// write while the disk is full and frees the space with the store open:
// the disk watch serve runs writes it to Badger, so a process that then
// dies without closing has not lost it.
func TestServesDiskWatchWritesBackWhatWasHeldOnceSpaceIsBack(t *testing.T) {
	disk := mountSmallDisk(t, "96m")
	const floor = 32 << 20
	dir := filepath.Join(disk, "data")
	s, err := Open(t.Context(), Options{Dir: dir, MinFreeBytes: floor})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	watched := make(chan error, 1)
	ctx, stop := context.WithCancel(t.Context())
	defer func() { stop(); <-watched }()
	go func() { watched <- s.WatchDisk(ctx) }()

	filler := fillBelowFloor(t, disk, floor)
	kv := s.KV("threads")
	if err := kv.Set(t.Context(), "t1", []byte("plan"), 0); err != nil {
		t.Fatal(err)
	}
	if n := heldWrites(s); n != 1 {
		t.Fatalf("held writes = %d on a full disk, want 1", n)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for heldWrites(s) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := heldWrites(s); n != 0 {
		t.Fatalf("held writes = %d ten seconds after space came back, want 0", n)
	}
	var stored []byte
	if err := s.view(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(kv.prefix + "t1"))
		if err != nil {
			return err
		}
		stored, err = item.ValueCopy(nil)
		return err
	}); err != nil || string(stored) != "plan" {
		t.Errorf("in Badger, t1 = %q, %v; want the held write", stored, err)
	}
}

// fillBelowFloor writes a file that leaves half the floor free on disk,
// and returns its path (removing it frees the space again).
func fillBelowFloor(t *testing.T, disk string, floor uint64) string {
	t.Helper()
	free, ok := freeBytes(disk)
	if !ok {
		t.Fatal("the free space of the tmpfs cannot be read")
	}
	filler := filepath.Join(disk, "filler")
	if err := os.WriteFile(filler, make([]byte, free-floor/2), 0o600); err != nil {
		t.Fatal(err)
	}
	return filler
}

func heldWrites(s *Store) int {
	s.disk.mu.Lock()
	defer s.disk.mu.Unlock()
	return len(s.disk.mem)
}

// TestAWritingOpenOnADiskFilledToTheLastByteIsDiskFull opens Badger for
// writing on a store whose disk another writer filled to the last byte:
// its new memtable log is written through memory, a fault that the open
// reports as ErrDiskFull instead of crashing the process (serve opens its
// store again after each import).
func TestAWritingOpenOnADiskFilledToTheLastByteIsDiskFull(t *testing.T) {
	disk := mountSmallDisk(t, "64m")
	dir := filepath.Join(disk, "data")
	s, err := Open(t.Context(), Options{Dir: dir, MinFreeBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	bo := s.badgerOpts
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// One page free: the lock file's, and none for the new memtable log.
	filler := smalldisk.Fill(t, disk)
	if fi, err := os.Stat(filler); err != nil || os.Truncate(filler, fi.Size()-4096) != nil {
		t.Fatal("cannot free a page of the filler", err)
	}
	db, err := openBadger(bo)
	if err == nil {
		_ = db.Close()
		t.Skip("Badger opened without writing a new page on this file system")
	}
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("a writing open on a full disk: %v, want ErrDiskFull", err)
	}
	// What the failed open left (a memtable log made sparse, its first
	// page never written) is no damage to a read-only open on the full
	// disk, where reading its hole faults (tmpfs allocates the page).
	if _, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true}); errors.Is(err, ErrCorrupt) ||
		err != nil && !errors.Is(err, ErrDiskFull) && !errors.Is(err, ErrNeedsRecovery) {
		t.Errorf("a read-only open after it, on the full disk: %v, want it answered, ErrDiskFull or ErrNeedsRecovery", err)
	}
	// The failed open let go of the directory: once space is freed, the
	// same process opens it.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	s, err = Open(t.Context(), Options{Dir: dir, MinFreeBytes: 1 << 20})
	if err != nil {
		t.Fatalf("opening once space was freed: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
