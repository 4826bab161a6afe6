package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
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
