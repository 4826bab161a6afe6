package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damageLargestTable flips bytes in the middle of the data directory's
// largest table: the open-time check (footer, index, first and last
// blocks) passes, and the damage is found by the read that needs it.
func damageLargestTable(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	best, size := "", int64(-1)
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > size {
			best, size = f, fi.Size()
		}
	}
	b, err := os.ReadFile(best)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4096 {
		b[len(b)/3+i] ^= 0xff
	}
	if err := os.WriteFile(best, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestEveryCommandReportsDamageWithTheSameExitCode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, dir, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	damageLargestTable(t, dir)
	for _, args := range [][]string{
		{"runs", "ops_per_sec > 0"},
		{"ask", "what is the median ops_per_sec of every engine at 48 cores with pipeline 16"},
		{"ask", "--thread", "t1", "what is the median ops_per_sec of every engine at 48 cores with pipeline 16"},
		{"doctor"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, _, err := runCLI(t, dir, args...)
			if code := exitCode(err); code != exitDamaged {
				t.Errorf("exit %d (%v), want %d (damaged)\n%s", code, err, exitDamaged, out)
			}
			if strings.Contains(out, "internal error") {
				t.Errorf("damage said as an internal error:\n%s", out)
			}
		})
	}
}
