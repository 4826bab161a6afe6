package analytics

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The bit-rot child: opens the store, answers a full scan and prints the
// answer's run count or the kind of error. A panic anywhere, in Badger's
// own goroutines too, shows in its exit status and output.
const bitrotDirEnv = "MEMDB_ORACLE_BITROT_DIR"

func TestBitRotChildProcess(t *testing.T) {
	dir := os.Getenv(bitrotDirEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestBitRotUnderTheTableCheckRecordNeverPanics")
	}
	s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err == nil {
		var res Result
		if res, err = s.Query(t.Context(), fullScanFilter); err == nil {
			if err = s.Load(t.Context()); err == nil {
				fmt.Printf("runs %d\n", res.Runs)
			}
		}
		s.Close()
	}
	switch {
	case err == nil:
	case errors.Is(err, ErrCorrupt):
		fmt.Println("damaged")
	default:
		fmt.Println("other:", err)
	}
}

// forgeCheckedRecord rewrites the record of checked tables so that it
// trusts every table as it is now: media corruption changes no size,
// inode or change time, so the record cannot tell.
func forgeCheckedRecord(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	stamps := map[string]tableStamp{}
	for _, f := range files {
		if st, ok := stampTable(f); ok {
			stamps[filepath.Base(f)] = st
		}
	}
	if err := writeCheckedTables(dir, stamps); err != nil {
		t.Fatal(err)
	}
}

func TestBitRotUnderTheTableCheckRecordNeverPanics(t *testing.T) {
	if os.Getenv(bitrotDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := storeWithImport(t)
	// The record exists and trusts every table.
	s, err := Open(t.Context(), Options{Dir: base})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := childAnswer(t, base)
	if !strings.HasPrefix(want, "runs ") {
		t.Fatalf("the sound store answers %q", want)
	}
	table := filepath.Base(largestTable(t, base))
	fi, err := os.Stat(filepath.Join(base, table))
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	places := []struct {
		name string
		off  int64
	}{
		{"the index checksum", -10},
		{"the footer", -3},
		{"the first block", 40},
		{"the index", -400},
		{"a middle block", size / 2},
		{"the last block", size * 3 / 4},
	}
	if !*allFaults {
		places = places[:3] // the two that panicked Badger, and a block
	}
	for _, at := range places {
		t.Run(at.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			overwrite(t, filepath.Join(dir, table), at.off, 16)
			forgeCheckedRecord(t, dir)
			if got := childAnswer(t, dir); got != want && got != "damaged" {
				t.Errorf("bit rot in %s: the child answered %q, want %q or damaged", at.name, got, want)
			}
		})
	}
}

// childAnswer runs the bit-rot child on dir and returns its one line; a
// panic or crash fails the test.
func childAnswer(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBitRotChildProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), bitrotDirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "panic") {
		t.Fatalf("the child crashed (%v):\n%.2000s", err, out)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}
