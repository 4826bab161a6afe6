//go:build linux

package analytics

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// preallocateMapped gives every block of Badger's open log files (value
// logs and memtable logs) its disk space now. Badger makes them at their
// full mapped size as sparse files and writes them through memory: a page
// written into a hole on a full disk is a SIGBUS that kills the process,
// where fallocate here is an ENOSPC error the store can report. Space
// already allocated costs nothing to ask for again. A file system without
// fallocate is left as it is.
func preallocateMapped(dir string) error {
	for _, pattern := range []string{"*.vlog", "*.mem"} {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, path := range files {
			if err := preallocate(path); err != nil {
				return err
			}
		}
	}
	return nil
}

// mappedLogBytes is the size of Badger's open logs in dir: what
// preallocateMapped needs at most, beyond the free-space floor.
func mappedLogBytes(dir string) uint64 {
	var n uint64
	for _, pattern := range []string{"*.vlog", "*.mem"} {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, path := range files {
			if fi, err := os.Stat(path); err == nil {
				n += uint64(fi.Size())
			}
		}
	}
	return n
}

func preallocate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil // rotated away meanwhile
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	err = unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, fi.Size())
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		return nil
	}
	if err != nil {
		return &os.PathError{Op: "fallocate", Path: path, Err: err}
	}
	return nil
}
