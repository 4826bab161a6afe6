package main

import (
	"errors"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Exit codes beyond 1 (internal) and 2 (usage).
const (
	exitDamaged  = 3 // the store failed verification: doctor explains
	exitDiskFull = 4 // not enough free disk space to write safely
)

// damagedStore is a store that failed verification; its message says what
// to run next.
type damagedStore struct{ err error }

func (e damagedStore) Error() string {
	return e.err.Error() + "\nNothing was answered from it. Run `memdb-oracle doctor` for details, or `memdb-oracle doctor --repair` to rebuild it (the embedded dataset and the imported files kept in the data directory)."
}
func (e damagedStore) Unwrap() error { return e.err }

// storeError marks store errors that need their own message and exit code.
func storeError(err error) error {
	if errors.Is(err, analytics.ErrCorrupt) {
		return damagedStore{err}
	}
	return err
}
