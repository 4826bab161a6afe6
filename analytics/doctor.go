package analytics

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// RepairReport says what Repair rebuilt and what it could not.
type RepairReport struct {
	Embedded []ImportReport // the embedded sessions, rebuilt from the binary
	Restored []ImportReport // imported files restored from their copies
	Lost     []string       // imports that could not be restored, with why
	Notes    []string       // where the list of imports came from, when not the manifest file
	Damaged  string         // where the damaged files were moved
}

// repairDir and damagedPrefix name Repair's working directories inside
// the data directory.
const (
	repairDir     = "repair-in-progress"
	damagedPrefix = "damaged-"
)

// importsToRestore lists the imports a repair restores: from the store's
// manifest file, else from Badger's manifest, else from the records kept
// beside the copies (see importSidecar). A manifest file this process may
// not read is a permission error, not a reason to drop imports.
func importsToRestore(ctx context.Context, dir string, log *slog.Logger, rep *RepairReport) ([]importSource, error) {
	mirror, found, err := readManifestFile(dir)
	switch {
	case err != nil && isPermission(err):
		return nil, permissionError(dir, filepath.Join(dir, manifestFile), err)
	case err == nil && found:
		return mirror.Sources, nil
	case err != nil:
		rep.Notes = append(rep.Notes, fmt.Sprintf("the list of imports (%s) is unreadable (%v)", manifestFile, err))
	}
	if m, err := badgerManifest(ctx, dir, log); err == nil {
		rep.Notes = append(rep.Notes, "the imports were listed from Badger's copy of the manifest")
		return m.Sources, nil
	} else if !found {
		rep.Notes = append(rep.Notes, fmt.Sprintf("Badger's copy of the manifest is unreadable too (%v)", err))
	}
	sources := readSidecars(dir)
	if len(sources) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the imports were listed from the records beside their %d kept copies", len(sources)))
	}
	return sources, nil
}

// badgerManifest reads the manifest Badger holds, opening it read-only
// (its tables set aside first: Badger deletes those its MANIFEST does not
// name). A panic on damaged files is an error.
func badgerManifest(ctx context.Context, dir string, log *slog.Logger) (m manifest, err error) {
	if !hasBadgerManifest(dir) {
		return m, errors.New("there is no Badger MANIFEST")
	}
	if _, err := setAsideTables(dir, false); err != nil {
		return m, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db, err := openBadger(badger.DefaultOptions(dir).WithReadOnly(true).WithLogger(badgerLogger{log}).
		WithBlockSize(tableBlockSize).WithChecksumVerificationMode(options.OnBlockRead))
	if err != nil {
		return m, err
	}
	defer db.Close()
	defer func() {
		if p := recover(); p != nil {
			err = panicked(dir, "reading Badger's manifest", p)
		}
	}()
	err = db.View(func(txn *badger.Txn) error {
		var found bool
		var err error
		if m, found, err = readManifest(txn); err == nil && !found {
			err = errors.New("the Badger store holds no manifest")
		}
		return err
	})
	return m, errors.Join(err, ctx.Err())
}

// Repair rebuilds the store in dir: a fresh store, built aside, gets the
// embedded dataset and every imported file whose copy under sources/ still
// matches the SHA-256 recorded at import (nothing unverifiable is
// imported); then the old files move to dir/damaged-TIME/ and the fresh
// store takes their place, journaled so that a kill during the move is
// finished by the next Open (see swapIn). The list of imports comes from the manifest kept outside Badger,
// so Badger's own files need not be readable.
func Repair(ctx context.Context, dir string, log *slog.Logger) (RepairReport, error) {
	var rep RepairReport
	if err := finishSwap(dir); err != nil { // an earlier repair was interrupted
		return rep, err
	}
	sources, err := importsToRestore(ctx, dir, log, &rep)
	if err != nil {
		return rep, err
	}
	work := filepath.Join(dir, repairDir)
	if err := os.RemoveAll(work); err != nil {
		return rep, err
	}
	fresh, err := Open(ctx, Options{Dir: work, DeferLoad: true, Logger: log})
	if err != nil {
		return rep, fmt.Errorf("starting the rebuilt store: %w", err)
	}
	defer fresh.Close()
	if rep.Embedded, err = fresh.ImportDefault(ctx); err != nil {
		return rep, err
	}
	for _, src := range sources {
		if src.Embedded {
			continue
		}
		r, why, err := restoreSource(ctx, fresh, dir, src)
		if err != nil {
			// The rebuilt store failed to take it (a disk error): swapping
			// it in would drop the import, so nothing is swapped.
			return rep, fmt.Errorf("restoring %s into the rebuilt store: %w; the damaged store is as it was", src.Name, err)
		}
		if why != "" {
			rep.Lost = append(rep.Lost, fmt.Sprintf("%s (session %d, %d runs): %s", src.Name, src.Session, src.Added, why))
			continue
		}
		rep.Restored = append(rep.Restored, r)
	}
	if err := fresh.Close(); err != nil {
		return rep, err
	}
	rep.Damaged = filepath.Join(dir, damagedPrefix+time.Now().UTC().Format("20060102T150405Z"))
	if err := swapIn(dir, work, rep.Damaged); err != nil {
		return rep, fmt.Errorf("moving the rebuilt store into place: %w", err)
	}
	return rep, nil
}

// restoreSource imports one kept copy after checking it is the file that
// was imported; why says why it could not be (the copy is missing or
// changed, or its rows are refused now), err that the rebuilt store
// failed to take it. Rows that break a plausibility rule were accepted
// once, so they are accepted again.
func restoreSource(ctx context.Context, s *Store, dir string, src importSource) (r ImportReport, why string, err error) {
	if src.Copy == "" {
		return r, "no copy was kept", nil
	}
	path := filepath.Join(dir, src.Copy)
	f, err := os.Open(path)
	if err != nil {
		return r, fmt.Sprintf("its copy cannot be read (%v)", err), nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return r, fmt.Sprintf("its copy cannot be read (%v)", err), nil
	}
	if hex.EncodeToString(h.Sum(nil)) != src.SHA256 {
		return r, "its copy no longer matches the file imported (checksum differs)", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return r, fmt.Sprintf("its copy cannot be read (%v)", err), nil
	}
	r, err = s.ImportWith(ctx, src.Name, f, src.Session, ImportOptions{AllowImplausible: true})
	var ie *ImportError
	if errors.As(err, &ie) || errors.Is(err, ErrBadSession) {
		return r, fmt.Sprintf("re-importing it failed (%v)", err), nil
	}
	return r, "", err
}

// Diagnosis is what Diagnose found besides the verdict.
type Diagnosis struct {
	Runs     map[int]int // runs per session; nil when dir holds no store
	Repaired []string    // what the open finished, rolled back or set aside
	SetAside []string    // damaged-TIME directories kept in the data directory
	Copies   int         // kept copies of imported files that match their checksums
	// Warnings are problems that leave the store sound but weaken its
	// repair: a kept copy missing or changed cannot restore its import.
	Warnings []string
	KVValues int // bot-state values (threads, counters) read and checksummed
}

// Check opens the store in dir read-only and verifies everything it holds
// (see Diagnose); nil means it is sound.
func Check(ctx context.Context, dir string) (map[int]int, error) {
	d, err := Diagnose(ctx, dir)
	return d.Runs, err
}

// Diagnose opens the store in dir read-only (or writing, when an
// interrupted import must be rolled back first: it says so) and verifies
// everything it holds (Store.Verify: tables, manifest, every run, the
// derived data rebuilt from the runs, every bot-state value), then checks
// each kept copy of an imported file against its checksum.
func Diagnose(ctx context.Context, dir string) (Diagnosis, error) {
	var d Diagnosis
	if !HasStore(dir) {
		return d, CheckDataDir(dir)
	}
	if swapPending(dir) {
		d.Repaired = append(d.Repaired, "finished moving a repaired store into place (a repair was interrupted)")
	}
	if err := finishSwap(dir); err != nil { // as the next open would (see swapIn)
		return d, err
	}
	if err := verifyTables(dir, true); err != nil {
		return d, err
	}
	s, err := Open(ctx, Options{Dir: dir, ReadOnly: true})
	if errors.Is(err, ErrNeedsRecovery) {
		s, err = Open(ctx, Options{Dir: dir})
	}
	if err != nil {
		return d, err
	}
	defer s.Close()
	d.Repaired = append(d.Repaired, s.Repaired()...)
	if err := s.Verify(ctx); err != nil {
		return d, err
	}
	if d.KVValues, err = s.verifyKV(ctx); err != nil {
		return d, err
	}
	d.Copies, d.Warnings = s.checkCopies()
	d.SetAside, _ = filepath.Glob(filepath.Join(dir, damagedPrefix+"*"))
	d.Runs = s.StoredRuns()
	return d, nil
}

// verifyKV reads every bot-state value, so Badger checks its checksum.
func (s *Store) verifyKV(ctx context.Context) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicked(s.dir, "reading the bot state", p)
		}
	}()
	err = s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(kvPrefix), PrefetchValues: false})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := it.Item().Value(func([]byte) error { return nil }); err != nil {
				return corrupt(s.dir, err, "the bot-state value %s cannot be read (%v)", it.Item().Key(), err)
			}
			n++
		}
		return nil
	})
	return n, err
}

// checkCopies checks each kept copy named by the manifest against the
// checksum recorded at its import.
func (s *Store) checkCopies() (int, []string) {
	ok := 0
	var warnings []string
	for _, src := range s.committed().Sources {
		if src.Copy == "" {
			continue
		}
		f, err := os.Open(filepath.Join(s.dir, src.Copy))
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the kept copy of %s (session %d) cannot be read (%v): doctor --repair could not restore its %d runs", src.Name, src.Session, err, src.Added))
			continue
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		switch {
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("the kept copy of %s (session %d) cannot be read (%v)", src.Name, src.Session, err))
		case hex.EncodeToString(h.Sum(nil)) != src.SHA256:
			warnings = append(warnings, fmt.Sprintf("the kept copy of %s (session %d) no longer matches the file imported: doctor --repair could not restore its %d runs; import the file again to keep a good copy", src.Name, src.Session, src.Added))
		default:
			ok++
		}
	}
	return ok, warnings
}
