package analytics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// Keys of the store format and of a migration under way.
const (
	formatKey    = "meta/format"    // the store format, decimal; absent before format 2
	migratingKey = "meta/migrating" // a migration under way: present from its first write to its commit
)

// storedFormat is the format of the store's layout: storeFormat, 1 for a
// store an earlier release wrote (no format key, runs as JSON under
// legacyRunPrefix or a manifest), or 0 for an empty store (which gets the
// current format with its first write).
func (s *Store) storedFormat() (int, error) {
	var (
		format  int
		legacy  bool
		hasMeta bool
	)
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(formatKey))
		switch {
		case err == nil:
			return item.Value(func(v []byte) error {
				format, err = strconv.Atoi(string(v))
				return err
			})
		case !errors.Is(err, badger.ErrKeyNotFound):
			return err
		}
		_, err = txn.Get([]byte(manifestKey))
		if err == nil {
			hasMeta = true
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		legacy = hasPrefix(txn, legacyRunPrefix)
		return nil
	})
	if err != nil {
		return 0, corrupt(s.dir, err, "the store format cannot be read (%v)", err)
	}
	switch {
	case format > storeFormat:
		return 0, fmt.Errorf("open store in %s: it was written by a later release (store format %d; this release reads formats 1 to %d)", s.dir, format, storeFormat)
	case format > 0:
		return format, nil
	case legacy || hasMeta:
		return 1, nil
	}
	return 0, nil
}

// migrationDiskFactor is the free space a migration needs above the
// floor, as a multiple of the store's tables: it writes every run anew
// beside the old ones, then the derived data, and Badger writes through
// memory maps, where a disk that runs out is a SIGBUS, not an error.
const migrationDiskFactor = 2

// checkMigrationSpace refuses a migration, with nothing written, on a disk
// without the space it needs (ErrDiskFull): a command then answers
// read-only from the store as it is, and the next writing open with room
// migrates it.
func (s *Store) checkMigrationSpace() error {
	if s.dir == "" {
		return nil
	}
	var tables int64
	files, _ := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			tables += fi.Size()
		}
	}
	if err := s.disk.check(tables * migrationDiskFactor); err != nil {
		return fmt.Errorf("migrating the store in %s to format %d: nothing written: %w", s.dir, storeFormat, err)
	}
	return nil
}

func hasPrefix(txn *badger.Txn, prefix string) bool {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(prefix)})
	defer it.Close()
	it.Rewind()
	return it.Valid()
}

// migrate rewrites a format-1 store (JSON per run) as format 2: the runs
// in the binary encoding under cellRunPrefix, their IDs under runIDPrefix,
// and the derived data of the current generation. The old runs stay where
// they are until the commit, which writes the manifest (new digests), the
// derived head and the format key and deletes the migration marker in one
// transaction. A crash before the commit leaves the format-1 store as it
// was (the next open throws away the partial copy and starts again); a
// crash after it leaves only the old keys to delete (finishMigration).
func (s *Store) migrate(ctx context.Context) error {
	started := time.Now()
	if err := s.abandonMigration(ctx); err != nil {
		return err
	}
	fail := func(err error) error {
		return fmt.Errorf("migrating the store in %s to format %d (the next open tries again): %w", s.dir, storeFormat, err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error {
		return txn.Set([]byte(migratingKey), []byte(strconv.Itoa(storeFormat)))
	}); err != nil {
		return fail(err)
	}
	if err := s.syncIfOnDisk(); err != nil {
		return fail(err)
	}
	s.stage("migrate-marker")
	next := s.manifest.clone()
	next.Format = storeFormat
	// One pass, a run at a time, in bounded batches: the old runs are
	// checked against the old manifest before the commit, and a damaged
	// store leaves only what the next open throws away (as a crash would).
	digests := map[string]*digest256{}
	wb := s.newBulkBatch()
	defer wb.Cancel()
	written := 0
	n, sums, err := s.eachLegacyRun(ctx, func(r *Run) error {
		err := s.putRun(wb, r, func(key, val []byte) {
			k := sessionKey(r.Session)
			if digests[k] == nil {
				digests[k] = &digest256{}
			}
			digests[k].add(runDigest(key, val))
		})
		if written++; err == nil && written%releaseEvery == 0 {
			// As an import does: what Badger wrote through memory (the new
			// runs, its compactions' tables) would stay resident.
			err = s.releaseWritten()
		}
		return err
	})
	if err != nil {
		return fail(err)
	}
	if err := verify(s.dir, s.manifest, sums); err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fail(err)
	}
	s.stage("migrate-runs")
	for k, ss := range next.Sessions {
		d := digests[k]
		if d == nil {
			d = &digest256{}
		}
		next.Sessions[k] = sessionSums{Runs: ss.Runs, Digest: d.String()}
	}
	return s.commitMigration(ctx, next, fail, func(where string) string {
		return fmt.Sprintf("migrated %s from store format 1 (JSON runs) to format %d (binary runs and a persisted cell index): %d runs, %s; earlier releases cannot open it",
			where, storeFormat, n, time.Since(started).Round(time.Millisecond))
	})
}

// commitMigration writes the derived data of the migrated generation next
// describes and commits it (with next, the format key, and the migration
// marker deleted), then says what was migrated: message gets where.
func (s *Store) commitMigration(ctx context.Context, next manifest, fail func(error) error, message func(where string) string) error {
	head, err := s.writeGeneration(ctx, next)
	if err != nil {
		return fail(err)
	}
	if err := s.commitGeneration(next, head, migratingKey); err != nil {
		return fail(err)
	}
	if err := s.syncIfOnDisk(); err != nil {
		return fail(err)
	}
	s.stage("migrate-committed")
	s.manifest = next
	if s.dir != "" {
		if err := writeManifestFile(s.dir, next); err != nil {
			return fmt.Errorf("migrated, but writing %s failed (the next open rewrites it): %w", manifestFile, err)
		}
	}
	where := "the store"
	if s.dir != "" {
		where += " in " + s.dir
	}
	s.migrated = message(where)
	s.log.Info(s.migrated) // commands also print Migrated() once on stderr
	return nil
}

// abandonMigration throws away what an interrupted migration wrote: in a
// format-1 store every key under the format-2 prefixes is its.
func (s *Store) abandonMigration(ctx context.Context) error {
	var found bool
	err := s.db.View(func(txn *badger.Txn) error {
		_, err := txn.Get([]byte(migratingKey))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		found = err == nil
		return err
	})
	if err != nil {
		return corrupt(s.dir, err, "the migration marker cannot be read (%v)", err)
	}
	if !found {
		return nil
	}
	for _, prefix := range []string{cellRunPrefix, runIDPrefix, derivedPrefix} {
		if _, err := s.deleteKeys(ctx, prefix, func([]byte, uint64) bool { return true }); err != nil {
			return fmt.Errorf("undoing an interrupted migration: %w", err)
		}
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete([]byte(migratingKey)) }); err != nil {
		return fmt.Errorf("undoing an interrupted migration: %w", err)
	}
	s.log.Warn("an earlier migration of the store was interrupted; starting it again", "dir", s.dir)
	return s.syncIfOnDisk()
}

// finishMigration deletes the format-1 runs a migration left behind when
// it was stopped after its commit.
func (s *Store) finishMigration(ctx context.Context) error {
	n, err := s.deleteKeys(ctx, legacyRunPrefix, func([]byte, uint64) bool { return true })
	if err != nil {
		return fmt.Errorf("deleting the runs of store format 1: %w", err)
	}
	if n > 0 {
		s.log.Debug("deleted the runs of store format 1", "runs", n)
		return s.syncIfOnDisk()
	}
	return nil
}

// dropStaleGenerations deletes the derived data of every generation
// before keepFrom (left by earlier imports, or by a crash just after a
// commit). An import keeps the generation it replaced (keepFrom is the one
// before its own), so a query still reading the snapshot it started on
// finds its cells; the next open drops it.
func (s *Store) dropStaleGenerations(ctx context.Context, keepFrom uint64) error {
	_, err := s.deleteKeys(ctx, derivedPrefix, func(key []byte, _ uint64) bool {
		gen, err := strconv.ParseUint(string(key[len(derivedPrefix):min(len(key), len(derivedPrefix)+16)]), 16, 64)
		return err != nil || gen < keepFrom
	})
	if err != nil {
		return fmt.Errorf("deleting an old cell index: %w", err)
	}
	return nil
}

// openLegacy serves a format-1 store opened read-only (no migration):
// every run is read and checked now, and the derived data built in memory.
func (s *Store) openLegacy(ctx context.Context) error {
	runs, sums, err := s.readLegacyRuns(ctx)
	if err != nil {
		return err
	}
	if err := verify(s.dir, s.manifest, sums); err != nil {
		return err
	}
	s.snap, s.legacy = newSnapshot(runs), true
	return nil
}

// readLegacyRuns reads every format-1 run (JSON under legacyRunPrefix) and
// sums them per session the way the format-1 manifest does.
func (s *Store) readLegacyRuns(ctx context.Context) (runs []Run, sums map[string]sessionSums, err error) {
	_, sums, err = s.eachLegacyRun(ctx, func(r *Run) error {
		runs = append(runs, *r)
		return nil
	})
	return runs, sums, err
}

// eachLegacyRun calls fn with every format-1 run in key order and sums
// them per session the way the format-1 manifest does; n is how many.
func (s *Store) eachLegacyRun(ctx context.Context, fn func(r *Run) error) (n int, sums map[string]sessionSums, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, sums, err = 0, nil, panicked(s.dir, "reading the runs", p)
		}
	}()
	digests := map[string]*digest256{}
	counts := map[string]int{}
	var fnErr error // fn's own, not a read of the store
	// A chunk of runs per read transaction: a migration writes every run
	// again while it reads them (see chunkedView).
	opts := badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 100, Prefix: []byte(legacyRunPrefix)}
	err = s.chunkedView(ctx, opts, scanReleaseEvery, func(item *badger.Item) error {
		var r Run
		err := item.Value(func(v []byte) error {
			if err := json.Unmarshal(v, &r); err != nil {
				return corrupt(s.dir, err, "run %s does not decode (%v)", item.Key(), err)
			}
			k := sessionKey(r.Session)
			if digests[k] == nil {
				digests[k] = &digest256{}
			}
			digests[k].add(runDigest(item.Key(), v))
			counts[k]++
			return nil
		})
		if err != nil {
			return err
		}
		if fnErr = fn(&r); fnErr != nil {
			return fnErr
		}
		n++
		return nil
	}, func() error {
		if s.dir != "" {
			forgetMappedPages(s.dir) // reading maps every table and value-log page
		}
		return nil
	})
	if fnErr != nil {
		return 0, nil, fnErr
	}
	if err != nil {
		return 0, nil, storeReadError(s.dir, "reading the runs", err)
	}
	sums = make(map[string]sessionSums, len(counts))
	for k, c := range counts {
		sums[k] = sessionSums{Runs: c, Digest: digests[k].String()}
	}
	return n, sums, nil
}
