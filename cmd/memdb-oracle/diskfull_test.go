package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest/smalldisk"
)

// mountSmallDisk is smalldisk.Mount: a size-capped tmpfs (root only, as
// in CI), skipped with what to do elsewhere and failed under CI.
func mountSmallDisk(t *testing.T, size string) string {
	t.Helper()
	return smalldisk.Mount(t, size)
}

// fillDiskCompletely writes a file under dir until its file system has no
// byte free, and returns the file.
func fillDiskCompletely(t *testing.T, dir string) string {
	t.Helper()
	return smalldisk.Fill(t, dir)
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
