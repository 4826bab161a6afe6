package analytics

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4/options"
)

// ErrCopyDamaged means a kept copy of an imported file no longer matches
// the checksum recorded at its import: the store answers as before, but
// doctor --repair could not restore that import.
var ErrCopyDamaged = errors.New("a kept copy of an imported file is damaged")

// Scrub reads every block of every table and every kept copy against its
// checksum, as doctor does, while the store stays open (serve runs it on
// a schedule): media damage is found before a query needs the data. A
// damaged table is kept as the store's damage (see Err: queries then
// fail and /healthz says so); a damaged copy is returned, and kept for
// CheckStore, without stopping queries.
func (s *Store) Scrub(ctx context.Context) error {
	if s.dir == "" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	if err != nil {
		return err
	}
	snap := s.current()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := verifyTable(s.dir, f, options.OnTableRead)
		if _, serr := os.Stat(f); errors.Is(serr, os.ErrNotExist) {
			continue // compacted away while it was read
		}
		if err != nil {
			s.fail(snap, err)
			return err
		}
	}
	_, warnings := s.checkCopies()
	var scrubErr error
	if len(warnings) > 0 {
		scrubErr = fmt.Errorf("%w: %s", ErrCopyDamaged, strings.Join(warnings, "; "))
	}
	s.brokenMu.Lock()
	s.scrubbed = scrubErr
	s.brokenMu.Unlock()
	return scrubErr
}
