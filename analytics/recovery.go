package analytics

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
)

// HasStore reports whether dir holds a store (Badger's MANIFEST file, or a
// repair's interrupted swap that the next writable Open finishes).
func HasStore(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "MANIFEST"))
	return err == nil || swapPending(dir)
}

// CheckDataDir returns a *CorruptError when dir holds store files but no
// MANIFEST (see Open); a missing or empty directory passes.
func CheckDataDir(dir string) error { return checkBadgerFiles(dir) }

// checkBadgerFiles refuses a directory that holds Badger data files but no
// MANIFEST: Badger would start an empty store there and delete the tables
// it does not know, and the embedded dataset would be imported over the
// user's data.
func checkBadgerFiles(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	hasManifest, data := false, 0
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "MANIFEST":
			hasManifest = true
		case strings.HasSuffix(name, ".sst"), strings.HasSuffix(name, ".vlog"), name == manifestFile:
			data++
		}
	}
	if !hasManifest && data > 0 {
		return corrupt(dir, nil, "Badger's MANIFEST file is missing while %d data files remain; opening would discard them", data)
	}
	return nil
}

// recoverPending finishes or rolls back an import that a crash interrupted.
// An import writes its marker, then its runs (each a higher Badger version
// than the marker), then commits by writing the manifest and deleting the
// marker in one transaction. So a marker still present means the commit
// never happened: every run key newer than the marker is removed, and so
// is the import's copy of its source file.
func (s *Store) recoverPending(ctx context.Context) error {
	var (
		p       pendingImport
		version uint64
		found   bool
	)
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		p, version, found, err = readPending(txn)
		return err
	})
	if err != nil {
		return corrupt(s.dir, err, "the pending-import marker cannot be read (%v)", err)
	}
	if !found {
		return nil
	}
	if s.readOnly {
		return fmt.Errorf("%w: an import of %s was interrupted", ErrNeedsRecovery, p.Name)
	}
	removed, err := s.rollBack(ctx, version)
	if err != nil {
		return fmt.Errorf("rolling back the interrupted import of %s: %w", p.Name, err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete([]byte(pendingKey)) }); err != nil {
		return fmt.Errorf("rolling back the interrupted import of %s: %w", p.Name, err)
	}
	if err := s.db.Sync(); err != nil {
		return fmt.Errorf("rolling back the interrupted import of %s: %w", p.Name, err)
	}
	s.log.Warn("rolled back an interrupted import; the store is as it was before it",
		"file", p.Name, "session", p.Session, "runs_removed", removed)
	s.repaired = append(s.repaired, fmt.Sprintf("rolled back the interrupted import of %s (session %d, %d runs written before it stopped)", p.Name, p.Session, removed))
	return nil
}

// rollBack deletes every run, run-ID and derived key written after the
// marker's version (derived keys are per generation, so the committed
// generation's are older than the marker and stay).
func (s *Store) rollBack(ctx context.Context, marker uint64) (int, error) {
	runs := 0
	for _, prefix := range []string{cellRunPrefix, runIDPrefix, derivedPrefix} {
		n, err := s.deleteKeys(ctx, prefix, func(key []byte, version uint64) bool { return version > marker })
		if err != nil {
			return 0, err
		}
		if prefix == cellRunPrefix {
			runs = n
		}
	}
	return runs, nil
}

// deleteKeys deletes the keys under prefix that drop says to, in write
// batches, reading keys only; it returns how many it deleted. It reads and
// deletes a chunk at a time (see chunkedView), so neither the keys, nor
// Badger's record of the deletes, nor the mapped pages read grow with the
// store.
func (s *Store) deleteKeys(ctx context.Context, prefix string, drop func(key []byte, version uint64) bool) (int, error) {
	var keys [][]byte
	n := 0
	err := s.chunkedView(ctx, badger.IteratorOptions{Prefix: []byte(prefix)}, deleteChunkKeys, func(item *badger.Item) error {
		if drop(item.Key(), item.Version()) {
			keys = append(keys, item.KeyCopy(nil))
		}
		return nil
	}, func() error {
		if s.dir != "" {
			forgetMappedPages(s.dir) // the keys' tables (values inline, in a format-1 store) were read
		}
		if len(keys) == 0 {
			return nil
		}
		wb := s.db.NewWriteBatch()
		defer wb.Cancel()
		for _, k := range keys {
			if err := wb.Delete(k); err != nil {
				return err
			}
		}
		if err := wb.Flush(); err != nil {
			return err
		}
		n += len(keys)
		keys = keys[:0]
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// deleteChunkKeys is how many keys deleteKeys reads before it deletes
// them: a few megabytes of keys. A variable so that a test crosses its
// chunks with a few hundred keys.
var deleteChunkKeys = 1 << 16

// chunkedView calls fn with every item opts iterates, in key order, at
// most chunk of them per read transaction, and done after each of those
// transactions ended. Badger keeps its record of every commit made while
// a read transaction is open (for conflict checks) until that transaction
// ends, and does not drop it from its list's backing array even then: one
// transaction over a million runs with their copies written alongside
// kept 65 MB of it alive to the end of the process. Items are valid
// during fn only; a context cancelled stops the read.
func (s *Store) chunkedView(ctx context.Context, opts badger.IteratorOptions, chunk int, fn func(item *badger.Item) error, done func() error) error {
	var after []byte // the last key read: the next chunk starts past it
	for {
		read := 0
		err := s.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(opts)
			defer it.Close()
			if after == nil {
				it.Rewind()
			} else {
				it.Seek(append(after, 0)) // the first key after it
			}
			for ; it.Valid() && read < chunk; it.Next() {
				if read++; read%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				item := it.Item()
				if err := fn(item); err != nil {
					return err
				}
				after = item.KeyCopy(after[:0])
			}
			return ctx.Err()
		})
		if err != nil {
			return err
		}
		if err := done(); err != nil {
			return err
		}
		if read < chunk {
			return nil
		}
	}
}

// checkManifest reads the manifest and checks it against the copy kept
// outside Badger. A store from before manifests (format 1, runs under
// runPrefix) gets one, built from what it holds; a store that lost
// committed imports is damaged.
func (s *Store) checkManifest(ctx context.Context, runPrefix string) error {
	var (
		m     manifest
		found bool
		runs  bool
	)
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		if m, found, err = readManifest(txn); err != nil || found {
			return err
		}
		// Only a store without a manifest needs to know whether it holds
		// runs; an iterator opens every table, a third of a millisecond
		// on a large store.
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(runPrefix)})
		defer it.Close()
		it.Rewind()
		runs = it.Valid()
		return nil
	})
	if err != nil {
		return corrupt(s.dir, err, "the manifest cannot be read (%v)", err)
	}
	var mirror manifest
	mirrored := false
	if s.dir != "" {
		if mirror, mirrored, err = readManifestFile(s.dir); err != nil {
			if isPermission(err) {
				return permissionError(s.dir, filepath.Join(s.dir, manifestFile), err)
			}
			return corrupt(s.dir, err, "%v", err)
		}
	}
	switch {
	case !found && mirrored:
		return corrupt(s.dir, nil, "Badger no longer holds the store's manifest, but %s records %d imports of %d runs: Badger's files lost data",
			manifestFile, mirror.Generation, mirror.totalRuns())
	case !found && runs && runPrefix == legacyRunPrefix:
		// Written before manifests existed: record what it holds now.
		if m, err = s.manifestFromRuns(ctx); err != nil {
			return err
		}
		if !s.readOnly {
			if err := s.commitManifest(m); err != nil {
				return err
			}
			s.log.Warn("recorded a manifest for a store written by an earlier version", "dir", s.dir, "runs", m.totalRuns())
		}
	case !found && runs:
		return corrupt(s.dir, nil, "the store holds runs but its manifest is missing")
	case found && mirrored && mirror.Generation > m.Generation:
		return corrupt(s.dir, nil, "Badger holds %d imports but %s records %d: committed imports were lost",
			m.Generation, manifestFile, mirror.Generation)
	case found && s.dir != "" && !s.readOnly && (!mirrored || mirror.Generation < m.Generation):
		// A crash between the commit and the mirror's update: catch up.
		if err := writeManifestFile(s.dir, m); err != nil {
			return fmt.Errorf("writing %s: %w", manifestFile, err)
		}
	}
	s.manifest = m
	return nil
}

// manifestFromRuns builds a manifest from the stored runs (for a store
// from before manifests, which is format 1).
func (s *Store) manifestFromRuns(ctx context.Context) (manifest, error) {
	_, sums, err := s.readLegacyRuns(ctx)
	if err != nil {
		return manifest{}, err
	}
	m := emptyManifest()
	m.Format = 1
	m.Sessions = sums
	return m, nil
}

// commitManifest writes a manifest on its own (no runs), in Badger and
// in the mirror file.
func (s *Store) commitManifest(m manifest) error {
	if err := s.db.Update(func(txn *badger.Txn) error { return setJSON(txn, manifestKey, m) }); err != nil {
		return fmt.Errorf("writing the manifest: %w", err)
	}
	if s.dir == "" {
		return nil
	}
	if err := s.db.Sync(); err != nil {
		return fmt.Errorf("writing the manifest: %w", err)
	}
	return writeManifestFile(s.dir, m)
}

// Manifest summary for commands that do not load the runs.

// StoredRuns is the number of runs the store holds per session, from its
// manifest (no runs need to be loaded).
func (s *Store) StoredRuns() map[int]int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[int]int{}
	for k, v := range s.manifest.Sessions {
		var n int
		if _, err := fmt.Sscan(k, &n); err == nil {
			out[n] = v.Runs
		}
	}
	return out
}
