// Package smalldisk gives tests a file system that fills up: a size-capped
// tmpfs, which needs root to mount (CI runs as root).
package smalldisk

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Mount mounts a tmpfs of size (as mount takes it: "256m") on a new
// temporary directory, unmounted when the test ends, and returns the
// directory. Where it cannot, it skips the test with one line saying what
// is needed — and fails it when the environment variable CI is set, as
// the full-disk tests must run there.
func Mount(tb testing.TB, size string) string {
	tb.Helper()
	skip := tb.Skip
	if os.Getenv("CI") != "" {
		skip = tb.Fatal
	}
	if os.Geteuid() != 0 {
		skip("a full disk is simulated with a size-capped tmpfs, which needs root to mount: run the tests as root")
	}
	dir := tb.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		skip(fmt.Sprintf("cannot mount a size-capped tmpfs here (needs root and mount permission, as in a privileged container): %v", err))
	}
	tb.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// Fill writes a file named filler under dir until its file system has no
// byte free, and returns the file.
func Fill(tb testing.TB, dir string) string {
	tb.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	FillFile(f)
	return path
}

// FillFile writes f until its file system has no byte free.
func FillFile(f *os.File) {
	buf := make([]byte, 1<<20)
	for _, n := range []int{1 << 20, 4 << 10, 1} {
		for {
			if _, err := f.Write(buf[:n]); err != nil {
				break
			}
		}
	}
}
