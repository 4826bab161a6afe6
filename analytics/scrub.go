package analytics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4/options"
)

// ErrCopyDamaged means a kept copy of an imported file no longer matches
// the checksum recorded at its import: the store answers as before, but
// doctor --repair could not restore that import.
var ErrCopyDamaged = errors.New("a kept copy of an imported file is damaged")

// ScrubReport is what one scrub read and found.
type ScrubReport struct {
	Finished time.Time
	Took     time.Duration
	Tables   int      // table files read, every block against its checksum
	Copies   int      // kept copies of imported files read against their SHA-256
	Damaged  []string // what failed its checksum: one line a file
}

// Scrub reads every block of every table and every kept copy against its
// checksum, as doctor does, while the store stays open (serve runs it on
// a schedule; doctor --scrub on demand): media damage is found before a
// query needs the data. It reads every file even after finding damage, so
// the report lists all of it. A damaged table is kept as the store's
// damage (see Err: queries then fail and /healthz says so); damaged
// copies are returned (ErrCopyDamaged), and kept for CheckStore, without
// stopping queries. The report is kept for LastScrub.
func (s *Store) Scrub(ctx context.Context) (ScrubReport, error) {
	start := time.Now()
	var rep ScrubReport
	if s.dir == "" || s.HandedOff() {
		// Handed to another process, the directory may hold what that
		// process was writing when it stopped: the next scrub reads it
		// once the store is opened again (and what was left rolled back).
		return rep, nil
	}
	files, err := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	if err != nil {
		return rep, err
	}
	snap := s.current()
	var tableErr error
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		err := verifyTable(s.dir, f, options.OnTableRead)
		if _, serr := os.Stat(f); errors.Is(serr, os.ErrNotExist) {
			continue // compacted away while it was read
		}
		rep.Tables++
		if err != nil {
			rep.Damaged = append(rep.Damaged, err.Error())
			tableErr = cmp.Or(tableErr, err)
		}
	}
	copies, warnings := s.checkCopies()
	rep.Copies = copies + len(warnings)
	rep.Damaged = append(rep.Damaged, warnings...)
	var copyErr error
	if len(warnings) > 0 {
		copyErr = fmt.Errorf("%w: %s", ErrCopyDamaged, strings.Join(warnings, "; "))
	}
	if tableErr != nil {
		s.fail(snap, tableErr)
	}
	rep.Finished, rep.Took = time.Now(), time.Since(start)
	s.brokenMu.Lock()
	s.scrubbed = copyErr
	s.lastScrub = rep
	s.brokenMu.Unlock()
	if tableErr != nil {
		return rep, tableErr
	}
	return rep, copyErr
}

// LastScrub is the report of the last Scrub that finished (zero Finished:
// none yet), for serve's /metrics.
func (s *Store) LastScrub() ScrubReport {
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	return s.lastScrub
}

// ScrubDir opens the store in dir read-only and scrubs it (see Scrub):
// doctor --scrub, the check serve runs every 6 hours, on demand.
func ScrubDir(ctx context.Context, dir string) (ScrubReport, error) {
	if !HasStore(dir) {
		return ScrubReport{}, CheckDataDir(dir)
	}
	s, err := Open(ctx, Options{Dir: dir, ReadOnly: true})
	if errors.Is(err, ErrNeedsRecovery) {
		s, err = Open(ctx, Options{Dir: dir})
	}
	if err != nil {
		return ScrubReport{}, err
	}
	defer s.Close()
	return s.Scrub(ctx)
}
