package analytics

import (
	"errors"
	"fmt"
)

// ErrCorrupt means the store failed verification: its files are damaged or
// it does not hold what its manifest says. Nothing is answered from such a
// store; doctor explains and repairs it.
var ErrCorrupt = errors.New("store damaged")

// ErrDiskFull means there is not enough free space to write safely.
var ErrDiskFull = errors.New("not enough free disk space")

// ErrNeedsRecovery means a read-only open found an interrupted import or an
// unfinished Badger log that only a writing open can finish or roll back.
var ErrNeedsRecovery = errors.New("store needs recovery by a writing open")

// CorruptError says what is wrong with a damaged store.
type CorruptError struct {
	Dir     string // data directory ("" in memory)
	Problem string // what verification found, for a person to read
	Err     error  // underlying error, if any
}

func (e *CorruptError) Error() string {
	where := "the store"
	if e.Dir != "" {
		where = "the store in " + e.Dir
	}
	return fmt.Sprintf("%s is damaged: %s", where, e.Problem)
}

// Is makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns the underlying error.
func (e *CorruptError) Unwrap() error { return e.Err }

// corrupt builds a CorruptError.
func corrupt(dir string, err error, format string, a ...any) *CorruptError {
	return &CorruptError{Dir: dir, Problem: fmt.Sprintf(format, a...), Err: err}
}

// panicked turns a panic recovered from Badger (which asserts on some kinds
// of damaged files) into a CorruptError.
func panicked(dir string, what string, p any) *CorruptError {
	return corrupt(dir, nil, "%s failed on damaged data (%v)", what, p)
}
