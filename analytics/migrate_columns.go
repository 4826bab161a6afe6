package analytics

import (
	"context"
	"fmt"
	"strconv"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// withImportOptions runs fn (a migration: it rewrites every run's cell
// entry) with Badger reopened with the import's options (forImport), then
// reopens it with bo. With the ordinary ones, the compactions of a
// million rewritten entries build their tables on the heap, several at a
// time: 1.3 GB at 1M runs against the import's 170 MB.
func (s *Store) withImportOptions(opts Options, bo badger.Options, fn func() error) error {
	if s.dir == "" || opts.ForImport {
		return fn()
	}
	reopen := func(o badger.Options) error {
		if err := s.db.Close(); err != nil {
			return fmt.Errorf("open store in %s: %w", s.dir, err)
		}
		db, err := openBadger(o)
		if err != nil {
			return fmt.Errorf("open store in %s: %w", s.dir, err)
		}
		s.db = db
		return nil
	}
	if err := reopen(forImport(bo)); err != nil {
		return err
	}
	err := fn()
	if rerr := reopen(bo); err == nil {
		err = rerr
	}
	return err
}

// migrateColumns brings a format-2 store to format 3: every run's cell
// entry is rewritten with all of its filter fields (encodeCellEntry), and
// a new generation of derived data, its columns included, is written from
// them and committed with the manifest and the format key in one
// transaction. The runs themselves do not change, nor their digests. Both
// kinds of cell entry decode, so a crash part-way leaves a sound format-2
// store (the committed generation untouched) that the next writing open
// migrates again; what the crashed attempt wrote of the new generation is
// deleted first.
func (s *Store) migrateColumns(ctx context.Context) error {
	started := time.Now()
	fail := func(err error) error {
		return fmt.Errorf("migrating the store in %s to format %d (the next open tries again): %w", s.dir, storeFormat, err)
	}
	gen := s.manifest.Generation
	if _, err := s.deleteKeys(ctx, derivedPrefix, func(key []byte, _ uint64) bool {
		g, err := strconv.ParseUint(string(key[len(derivedPrefix):min(len(key), len(derivedPrefix)+16)]), 16, 64)
		return err == nil && g > gen
	}); err != nil {
		return fail(err)
	}
	type tally struct {
		d digest256
		n int
	}
	tallies := map[int]*tally{}
	wb := s.newBulkBatch()
	defer wb.Cancel()
	err := s.scanRuns(ctx, func(key, v []byte, r *Run) error {
		t := tallies[r.Session]
		if t == nil {
			t = &tally{}
			tallies[r.Session] = t
		}
		t.d.add(runDigest(key, v))
		t.n++
		return wb.Set(cellRunKey(r), encodeCellEntry(nil, r))
	})
	if err != nil {
		return fail(err)
	}
	sums := make(map[string]sessionSums, len(tallies))
	runs := 0
	for session, t := range tallies {
		sums[sessionKey(session)] = sessionSums{Runs: t.n, Digest: t.d.String()}
		runs += t.n
	}
	if err := verify(s.dir, s.manifest, sums); err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fail(err)
	}
	s.stage("migrate-entries")
	next := s.manifest.clone()
	next.Format = storeFormat
	next.Generation = gen + 1
	return s.commitMigration(ctx, next, fail, func(where string) string {
		return fmt.Sprintf("migrated %s from store format 2 to format %d (columns for scans): %d runs, %s; earlier releases cannot open it",
			where, storeFormat, runs, time.Since(started).Round(time.Millisecond))
	})
}
