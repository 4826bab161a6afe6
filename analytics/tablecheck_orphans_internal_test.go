package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest/smalldisk"
)

// A table file the MANIFEST does not name is what a kill during a flush or
// a compaction leaves; Badger deletes it at open, so a writing open sets it
// aside first (a read-only one asks for a writing open). Torn, it is not
// damage: the store opens, answers as before, and doctor finds it sound. A torn table the MANIFEST does name is still
// reported (TestATableDamagedAfterItWasRememberedIsStillReported).
func TestATableTheManifestDoesNotNameIsNotReportedAsDamage(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		name := "writable"
		if readOnly {
			name = "read-only"
		}
		t.Run(name, func(t *testing.T) {
			dir := storeWithImport(t)
			want := queryAll(t, dir, readOnly)
			b, err := os.ReadFile(largestTable(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			orphan := filepath.Join(dir, "999999.sst")
			if err := os.WriteFile(orphan, b[:len(b)/2], 0o600); err != nil { // torn half way
				t.Fatal(err)
			}
			if readOnly {
				if _, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true}); !errors.Is(err, ErrNeedsRecovery) {
					t.Fatalf("read-only open with an unnamed table = %v, want ErrNeedsRecovery", err)
				}
			}
			if got := queryAll(t, dir, false); got != want {
				t.Fatalf("with an unnamed torn table: %d runs, want %d", got, want)
			}
			if _, err := os.Stat(orphan); !os.IsNotExist(err) {
				t.Errorf("the unnamed table is still there after an open (stat: %v); Badger removes it", err)
			}
			if aside, _ := filepath.Glob(filepath.Join(dir, damagedPrefix+"*", "999999.sst")); len(aside) != 1 {
				t.Errorf("the unnamed table was not set aside under %s*/", damagedPrefix)
			}
			if got := queryAll(t, dir, readOnly); got != want {
				t.Fatalf("after setting the table aside: %d runs, want %d", got, want)
			}
			if _, err := verifyTablesNamed(t, dir); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func queryAll(t *testing.T, dir string, readOnly bool) int {
	t.Helper()
	s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Query(t.Context(), "ops_per_sec > 0")
	if err != nil {
		t.Fatal(err)
	}
	return res.Runs
}

func verifyTablesNamed(t *testing.T, dir string) (int, error) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	named := namedTables(dir, files)
	if len(named) != len(files) {
		t.Errorf("after an open %d of %d tables are named by the MANIFEST, want all", len(named), len(files))
	}
	return len(named), verifyTables(dir, true)
}

// A table a crash cut off while it was written through a memory map has
// holes where the copy had not reached (serve's writing process, dying of
// SIGBUS in a flush on a full disk, leaves one). On a memory-backed file
// system even reading a hole allocates a page, so on a full tmpfs the
// open-time check's read of it faults: that is read as a torn table, never
// a crash, and the read-only open asks for a writing open as for any
// unnamed table.
func TestATornTableWithHolesOnAFullMemoryDiskIsNoCrash(t *testing.T) {
	disk := smalldisk.Mount(t, "64m")
	dir := filepath.Join(disk, "data")
	copyDir(t, storeWithImport(t), dir)
	f, err := os.Create(filepath.Join(dir, "999999.sst"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 20); err != nil { // a table's size, none of it written
		t.Fatal(err)
	}
	f.Close()
	smalldisk.Fill(t, disk)
	if _, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true}); !errors.Is(err, ErrNeedsRecovery) {
		t.Fatalf("read-only open with a torn table with holes on a full tmpfs = %v, want ErrNeedsRecovery", err)
	}
	if err := verifyTable(dir, filepath.Join(dir, "999999.sst"), 0); !errors.Is(err, ErrCorrupt) {
		t.Errorf("the torn table's check = %v, want damage", err)
	}
}
