package analytics

import (
	"context"
	"fmt"
	"time"
)

// A process that keeps a store open and writes to it now and then (serve)
// cannot let Badger create a file on a disk another writer has filled to
// the last byte: Badger writes new memtable logs and tables through memory
// maps, and a page written into a hole of a full disk is a SIGBUS nothing
// in the process can catch. The import's own checks (every few hundred
// rows) see a disk that fills, but a writer filling it at the speed of
// memory passes from the floor to the last byte between two of them, and
// what the store then wrote — the rest of the batch in hand, and the
// rollback of the partial import, which writes a delete per run — made
// Badger rotate its memtable onto the full disk. WatchDisk closes that
// window: it looks at free space more often the less there is, and the
// first time it finds less than the floor it trips the guard, so that no
// write starts and a bulk write (an import's runs, its derived data) stops
// at its next entry (imports and KV writes get ErrDiskFull; KV writes are
// held in memory) and a failed import's rollback waits for space. Once a
// quarter more than the floor is free again it rolls back what an import
// left and lets writes resume. What Badger already had in hand when the
// guard tripped (a batch being committed, the flush of a full memtable, a
// compaction) still runs, and a writer that reaches the last byte before
// it ends can still make it fault: the limit docs/storage.md states.

// Bounds of WatchDisk's interval between looks at free space: it aims
// to look again before a writer at diskFillRate could use what is free
// above the floor, at most every diskWatchMax.
const (
	diskWatchMin = time.Millisecond
	diskWatchMax = 250 * time.Millisecond
	diskFillRate = 4 << 30 // bytes a second: a writer to a memory-backed file system
)

// diskWatchInterval is how long WatchDisk waits before its next look at
// free space, with free bytes free and floor the store's floor.
func diskWatchInterval(free, floor uint64) time.Duration {
	if free <= floor {
		return diskWatchMin
	}
	wait := time.Duration(float64(free-floor) / diskFillRate / 2 * float64(time.Second))
	return min(max(wait, diskWatchMin), diskWatchMax)
}

// WatchDisk watches the free space of the store's file system until ctx
// ends or the store is closed (see above); it returns at once for a store
// in memory or read-only. serve runs it, and closes the store only after
// it returned.
func (s *Store) WatchDisk(ctx context.Context) error {
	if s.dir == "" || s.readOnly {
		return nil
	}
	for {
		free, ok := freeBytes(s.dir)
		wait := diskWatchMax
		if ok {
			s.disk.observe(ctx, free)
			wait = diskWatchInterval(free, s.minFree)
		}
		s.writeBackHeld(ctx)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-s.stop:
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// observe trips the guard when free is below the floor, and resets it,
// after rolling back what a failed import left, once the floor is free.
func (g *diskGuard) observe(ctx context.Context, free uint64) {
	switch {
	case free < g.s.minFree && !g.tripped.Load():
		g.tripped.Store(true)
		g.markLow(free)
		g.s.log.Warn("the disk is nearly full: the store takes no writes until space is freed (imports are refused, thread memory and counters are kept in memory)",
			"dir", g.s.dir, "free_bytes", free, "floor_bytes", g.s.minFree)
	case free >= g.s.minFree+g.s.minFree/4 && (g.tripped.Load() || g.handedOff.Load()):
		// A quarter above the floor, so that the files Badger deletes as
		// it settles (a flushed memtable's log) do not start writes again
		// on a disk still all but full. The rollback of the import the
		// full disk stopped writes a delete per run it wrote: only now is
		// there room for it.
		if !g.s.importMu.TryLock() {
			return // an import is reading its file (or writing in another process); the next look retries
		}
		defer g.s.importMu.Unlock()
		if g.handedOff.Load() {
			// A write in another process that failed, and a store not yet
			// opened for writing again: the rollback is another process's
			// too (see HandOff).
			if time.Now().Before(g.s.aside.retryAt) {
				return
			}
			g.tripped.Store(false)
			if err := g.s.resume(ctx); err != nil {
				g.s.aside.retryAt = time.Now().Add(resumeRetry)
				g.s.log.Warn("opening the store for writing again; retrying", "in", resumeRetry.String(), "err", err)
				return
			}
			g.s.log.Info("disk space available again: the store takes writes", "dir", g.s.dir, "free_bytes", free)
			return
		}
		if err := g.s.recoverPending(ctx); err != nil {
			g.s.log.Warn("rolling back the import the full disk stopped; the next open retries", "err", err)
		}
		g.tripped.Store(false)
		g.s.log.Info("disk space available again: the store takes writes", "dir", g.s.dir, "free_bytes", free)
	}
}

// resumeRetry is how long WatchDisk waits before trying again to open for
// writing a store handed back after a failed write (see HandOff).
const resumeRetry = 5 * time.Second

// stopped is trippedError while the guard is tripped, else nil: what a
// bulk write asks before each entry (an atomic load while not tripped).
func (g *diskGuard) stopped() error {
	if !g.tripped.Load() {
		return nil
	}
	free, _ := freeBytes(g.s.dir)
	return g.trippedError(free)
}

// trippedError is check's answer while the guard is tripped: the disk was
// found below the floor, and writes wait until it is free again.
func (g *diskGuard) trippedError(free uint64) error {
	return fmt.Errorf("%w in %s: %s free, %s needed (the disk filled up while the store was open; writes resume once that much is free)",
		ErrDiskFull, g.s.dir, mib(free), mib(g.s.minFree))
}
