package analytics

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
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

// ErrPermission means the process may not read or write a file of the
// data directory: the store is not damaged, its files belong to another
// user or the file system is read-only.
var ErrPermission = errors.New("permission denied")

// PermissionError names the file that could not be used and how to fix it.
type PermissionError struct {
	Dir  string // data directory
	Path string // the file or directory refused
	Err  error
}

func (e *PermissionError) Error() string {
	fix := fmt.Sprintf("run memdb-oracle as the owner of %s, or give this user (uid %d) read and write access to it and every file in it (chown -R %d %s)",
		e.Dir, os.Getuid(), os.Getuid(), e.Dir)
	if errors.Is(e.Err, syscall.EROFS) {
		fix = "the file system is mounted read-only; mount it read-write, or point --data at a writable directory"
	}
	return fmt.Sprintf("%s cannot be used: %v; the store is not damaged: %s", e.Path, e.Err, fix)
}

// Is makes errors.Is(err, ErrPermission) hold.
func (e *PermissionError) Is(target error) bool { return target == ErrPermission }

// Unwrap returns the underlying error.
func (e *PermissionError) Unwrap() error { return e.Err }

// isPermission reports whether err is a refusal by the operating system
// (EACCES, EPERM, EROFS) rather than damage.
func isPermission(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// isNoSpace reports whether err is a full disk (or quota).
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) ||
		strings.Contains(err.Error(), syscall.ENOSPC.Error())
}

// permissionError wraps err as a *PermissionError for path in dir.
func permissionError(dir, path string, err error) error {
	return &PermissionError{Dir: dir, Path: path, Err: err}
}

// openError classifies what Badger's open returned: a refusal by the
// operating system or a full disk is said as such; anything else means its
// files cannot be read as a store, which is damage that doctor --repair
// rebuilds from.
func openError(dir string, err error) error {
	var pe *fs.PathError
	switch {
	case isPermission(err) && errors.As(err, &pe):
		return permissionError(dir, pe.Path, err)
	case isPermission(err):
		return permissionError(dir, dir, err)
	case isNoSpace(err):
		return noSpace(dir, 0, err)
	}
	return corrupt(dir, err, "Badger cannot open its files (%v)", err)
}

// noSpace is an ErrDiskFull error for dir saying how much space is free
// and how much is needed (need 0: the store's floor).
func noSpace(dir string, need uint64, err error) error {
	free, _ := freeBytes(dir)
	if need == 0 {
		need = defaultMinFree
	}
	return fmt.Errorf("%w in %s: %s free, %s needed (%v)", ErrDiskFull, dir, mib(free), mib(need), err)
}

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
