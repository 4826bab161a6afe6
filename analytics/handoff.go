package analytics

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// A long-running process (serve) cannot make Badger's bulk writes safe on
// a disk that another writer fills: Badger writes its logs and tables
// through memory maps, and a page written into a hole of a full disk is a
// SIGBUS that kills the process. HandOff lets another process do those
// writes: this one gives up its writing handle (Badger allows one writer a
// directory) and answers from a read-only handle of the store as it was,
// while the other process opens the directory for writing, writes, and
// exits. A fault in the writer then kills only the writer: this process
// goes on answering from the store it had, and opens the store for writing
// again once the writer is done (or, after a crash on a full disk, once
// space is freed: see resume).
//
// The read-only handle takes no directory lock (Badger's BypassLockGuard),
// so the writer can take its own. It reads only the tables and value-log
// offsets it found when it opened: what the writer adds is not seen, what
// the writer compacts away stays mapped until the handle closes (Linux
// keeps an unlinked file's pages), and the writer never rewrites a table
// in place. Until the store is handed back, KV writes (thread memory,
// counters) are held in memory, then written.

// handOffState is what a hand-off left for the next resume.
type handOffState struct {
	// settle, when set, runs before the store is opened for writing again:
	// another process that opens it with the ordinary options, rolling
	// back what a failed writer left and merging what the writer left in
	// level 0, and closes it (see resume).
	settle  func(context.Context) error
	retryAt time.Time // WatchDisk's next try at resume after a failed one
}

// ErrNoHandOff means the store cannot be handed to another process: it is
// in memory or read-only. The caller writes in its own process instead.
var ErrNoHandOff = errors.New("the store cannot be handed to another process")

// HandOff runs write while this process holds only a read-only handle of
// the store, so that write can have another process open the directory
// for writing, with Options.Beside (serve's imports do). Queries go on
// meanwhile, from the store as it was; KV writes are held in memory. Once
// write returns, the store is opened for writing again, seeing what the
// other process committed (see resume; settle is the process it runs
// first). If the disk is too full for that, the process goes on answering
// read-only (CheckDisk says why) and the store is opened for writing again
// once space is freed (WatchDisk) or at the next HandOff. It returns
// write's error, or why the store could not be handed off.
func (s *Store) HandOff(ctx context.Context, write, settle func(context.Context) error) error {
	if s.dir == "" || s.readOnly {
		return ErrNoHandOff
	}
	if err := s.WaitImport(); err != nil {
		return err
	}
	s.importMu.Lock()
	defer s.importMu.Unlock()
	if err := s.resume(ctx); err != nil {
		return err
	}
	if err := s.disk.check(0); err != nil {
		return err
	}
	if err := s.handOut(); err != nil {
		return err
	}
	s.aside.settle = settle
	werr := write(ctx)
	if rerr := s.resume(ctx); rerr != nil {
		s.log.Warn("answering read-only from the store as it was before the write in another process, until it can be opened for writing again",
			"dir", s.dir, "err", rerr)
		if werr == nil {
			s.log.Warn("the other process committed its write; it is answered from once the store is opened again", "dir", s.dir)
		}
	}
	return werr
}

// HandedOff says whether the store is answering from a read-only handle
// because it was handed to another process and not yet opened for
// writing again.
func (s *Store) HandedOff() bool { return s.disk.handedOff.Load() }

// handOut replaces the writing handle with a read-only one of the same
// store. importMu is held.
func (s *Store) handOut() error {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	s.disk.handedOff.Store(true)
	s.disk.writable.Store(false)
	if err := s.db.Close(); err != nil {
		// Badger's close flushes the memtable: what it could not write is
		// in its log, which the next writing open replays.
		s.log.Warn("closing the store's writing handle to hand it to another process", "dir", s.dir, "err", err)
	}
	ro, err := openBadger(s.badgerOpts.WithReadOnly(true).WithBypassLockGuard(true))
	if err != nil {
		// Nothing was handed over: back to a writing handle.
		db, werr := openBadger(s.badgerOpts)
		if werr != nil {
			s.dbErr = fmt.Errorf("the store cannot be opened again (%w); restart serve, or run memdb-oracle doctor", errors.Join(err, werr))
			s.setAsideErr(s.dbErr)
			s.log.Error("the store could not be opened again after closing it", "dir", s.dir, "err", s.dbErr)
			return s.dbErr
		}
		s.db = db
		s.disk.handedOff.Store(false)
		s.disk.writable.Store(true)
		return fmt.Errorf("opening the store read-only to hand it to another process: %w", err)
	}
	s.db = ro
	return nil
}

// resume opens the store for writing again after a hand-off. Queries wait
// meanwhile (the read-only handle is closed first: the processes below
// delete files it maps): settle runs (a process that opens the store with
// the ordinary options, so it rolls back what a failed writer left and
// merges what the writer left in level 0, then closes it), and then a
// writing open here, whose handle, manifest and committed generation
// replace the read-only ones. A disk below the floor leaves the store
// handed off, answering read-only (nothing writes it meanwhile); so does a
// settle or an open that fails, with a new read-only handle. It does
// nothing when the store is not handed off. importMu is held.
func (s *Store) resume(ctx context.Context) error {
	if !s.disk.handedOff.Load() {
		return nil
	}
	if err := s.disk.check(0); err != nil {
		return err
	}
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	if err := s.db.Close(); err != nil {
		s.log.Warn("closing the read-only handle of a hand-off", "dir", s.dir, "err", err)
	}
	n, err := s.settleAndOpen(ctx)
	if err != nil {
		s.setAsideErr(fmt.Errorf("answering read-only from the store as it was before the last import: %w", err))
		s.reopenReadOnly()
		return err
	}
	// n is only a way to open the files: its handle becomes this store's.
	close(n.stop)
	n.wg.Wait()
	snap := newSnapshot(nil)
	if l := n.snap.lazy; l != nil {
		snap = newLazySnapshot(s, l.head, n.manifest)
	}
	s.db, s.dbErr = n.db, nil
	s.mu.Lock()
	s.manifest, s.snap = n.manifest, snap
	s.mu.Unlock()
	s.disk.writable.Store(true)
	s.disk.handedOff.Store(false)
	s.setAsideErr(nil)
	for _, r := range n.Repaired() {
		s.log.Warn("opening the store again after another process wrote it: "+r, "dir", s.dir)
	}
	// Under dbMu still, and so before any KV write can reach Badger.
	s.disk.writeBack(ctx, s.db)
	return nil
}

// settleAndOpen is resume's part with no handle open: settle, then a
// writing open.
func (s *Store) settleAndOpen(ctx context.Context) (*Store, error) {
	if s.aside.settle != nil {
		if err := s.aside.settle(ctx); err != nil {
			return nil, err
		}
	}
	opts := s.opts
	opts.ForImport, opts.Small = false, false
	return Open(ctx, opts)
}

// reopenReadOnly gives the store a read-only handle again after resume
// failed with none open; without one, reads fail with why (dbErr).
func (s *Store) reopenReadOnly() {
	ro, err := openBadger(s.badgerOpts.WithReadOnly(true).WithBypassLockGuard(true))
	if err != nil {
		s.dbErr = fmt.Errorf("the store cannot be read until it is opened again (%w); restart serve, or run memdb-oracle doctor", err)
		s.setAsideErr(s.dbErr)
		s.log.Error("the store cannot be read", "dir", s.dir, "err", err)
		return
	}
	s.db, s.dbErr = ro, nil
}

// setAsideErr keeps why the store is not open for writing again, for
// CheckStore; a disk too full is CheckDisk's to say.
func (s *Store) setAsideErr(err error) {
	if errors.Is(err, ErrDiskFull) {
		err = nil
	}
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	s.asideErr = err
}

// writeBackHeld writes the KV state held in memory while space was short
// to the store, once it takes writes again: serve's disk watch asks at each
// look and every close asks, so thread memory kept through a full disk is
// not lost when the process ends. A hand-off writes back on its own.
func (s *Store) writeBackHeld(ctx context.Context) {
	g := &s.disk
	if s.dir == "" || s.readOnly || g.handedOff.Load() || !g.writable.Load() {
		return
	}
	g.mu.Lock()
	n := len(g.mem)
	g.mu.Unlock()
	if n == 0 {
		return
	}
	s.dbMu.RLock() // a hand-off does not replace the handle while it writes
	defer s.dbMu.RUnlock()
	if s.dbErr != nil {
		return
	}
	g.writeBack(ctx, s.db) // only if there is room now (it checks)
}

// writeBack writes the KV state held in memory to db, once the store
// takes writes again (dbMu held); a key written again meanwhile stays
// held until the next write-back.
func (g *diskGuard) writeBack(ctx context.Context, db *badger.DB) {
	if g.check(0) != nil {
		return
	}
	g.mu.Lock()
	held := maps.Clone(g.mem)
	g.mu.Unlock()
	if len(held) == 0 {
		return
	}
	written := 0
	now := time.Now()
	for key, e := range held {
		if ctx.Err() != nil {
			return
		}
		var ttl time.Duration // 0: no expiry
		if !e.expires.IsZero() {
			ttl = e.expires.Sub(now)
		}
		err := db.Update(func(txn *badger.Txn) error {
			if e.deleted || ttl < 0 {
				return txn.Delete([]byte(key))
			}
			return txn.SetEntry(entry([]byte(key), e.value, ttl))
		})
		if err != nil {
			g.s.log.Warn("thread memory and counters stay held in memory", "dir", g.s.dir, "err", err)
			return
		}
		g.mu.Lock()
		if cur, ok := g.mem[key]; ok && cur.seq == e.seq {
			delete(g.mem, key)
		}
		g.mu.Unlock()
		written++
	}
	g.s.log.Info("wrote the thread memory and counters held in memory to the store", "dir", g.s.dir, "keys", written)
}

// view is a read transaction on the store's current Badger handle, which
// a hand-off does not replace while it runs. fn must not call view again
// (a waiting hand-off would deadlock it).
func (s *Store) view(fn func(*badger.Txn) error) error {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	return s.viewLocked(fn)
}

// viewLocked is view with dbMu held.
func (s *Store) viewLocked(fn func(*badger.Txn) error) error {
	if s.dbErr != nil {
		return s.dbErr
	}
	return s.db.View(fn)
}
