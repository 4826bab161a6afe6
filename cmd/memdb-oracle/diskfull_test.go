package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// mountSmallDisk mounts a size-capped tmpfs (root only, as in CI) and
// returns its path; it skips the test, saying why, where it cannot.
func mountSmallDisk(t *testing.T, size string) string {
	t.Helper()
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal // CI runs as root: the full-disk tests must run there
	}
	if os.Geteuid() != 0 {
		skip("a full disk is simulated with a size-capped tmpfs, which needs root to mount: run as root")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		skip(fmt.Sprintf("cannot mount a size-capped tmpfs here (needs root and mount permission): %v", err))
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fillDiskCompletely writes a file under dir until its file system has no
// byte free, and returns the file.
func fillDiskCompletely(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fillUntilFull(f)
	return path
}

// fillUntilFull writes f until its file system has no byte free.
func fillUntilFull(f *os.File) {
	buf := make([]byte, 1<<20)
	for _, n := range []int{1 << 20, 4 << 10, 1} {
		for {
			if _, err := f.Write(buf[:n]); err != nil {
				break
			}
		}
	}
}

func TestAFullDiskIsExitFourWithTheSpaceNeededNeverARawError(t *testing.T) {
	disk := mountSmallDisk(t, "256m")
	dir := filepath.Join(disk, "data")
	if _, _, err := runCLI(t, dir, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "mine.csv")
	if err := os.WriteFile(csv, sessionOneCSV(t), 0o600); err != nil {
		t.Fatal(err)
	}
	fillDiskCompletely(t, disk)

	// Reading answers from what the store has; a thread's memory is held
	// in memory; an import is refused with the space it needs.
	if out, _, err := runCLI(t, dir, "runs", dragonflyFilter); err != nil || !strings.Contains(out, "15,473,658.395") {
		t.Errorf("runs on a full disk: %v\n%s", err, out)
	}
	if out, _, err := runCLI(t, dir, "ask", "--thread", "t1", "dragonfly at 48 cores"); err != nil {
		t.Errorf("ask --thread on a full disk: %v (exit %d)\n%s", err, exitCode(err), out)
	}
	_, _, err := runCLI(t, dir, "import", "--session", "3", csv)
	if exitCode(err) != exitDiskFull || !strings.Contains(err.Error(), "needed") {
		t.Errorf("import on a full disk: %v (exit %d), want exit %d with the space needed", err, exitCode(err), exitDiskFull)
	}
}
