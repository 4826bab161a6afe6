package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tableNames lists the table files in dir and in every damaged-*/ under
// it, by base name.
func tableNames(t *testing.T, dir string) (live, aside []string) {
	t.Helper()
	for _, pattern := range []string{"*.sst", damagedPrefix + "*/*.sst"} {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.Contains(f, damagedPrefix) {
				aside = append(aside, filepath.Base(f))
			} else {
				live = append(live, filepath.Base(f))
			}
		}
	}
	return live, aside
}

// everyTableKept fails the test when a table file that was in dir before
// is neither there nor set aside under damaged-*/.
func everyTableKept(t *testing.T, dir string, before []string) {
	t.Helper()
	live, aside := tableNames(t, dir)
	for _, name := range before {
		if !slices.Contains(live, name) && !slices.Contains(aside, name) {
			t.Errorf("table %s was deleted by an open (live %v, set aside %v)", name, live, aside)
		}
	}
}

// restoreBadgerFiles puts Badger's files from backup into dir (an older
// backup restored over a newer store), leaving the store's own manifest
// file and kept copies as they are.
func restoreBadgerFiles(t *testing.T, backup, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); name != sourcesDir && name != manifestFile {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err = os.ReadDir(backup)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); name != sourcesDir && name != manifestFile && !e.IsDir() {
			b, err := os.ReadFile(filepath.Join(backup, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestAStaleBadgerManifestNeverCostsTheKeptCopyOfAnImport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "backup")
	copyDir(t, dir, backup)

	s, err = Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "mine.csv", strings.NewReader(string(b)), 3); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*mine.csv"))
	if len(copies) != 1 {
		t.Fatalf("kept copies = %v, want one", copies)
	}

	restoreBadgerFiles(t, backup, dir)
	// Every writing open (ask --thread, import, serve) reports the damage
	// and leaves the copy where repair finds it.
	for range 2 {
		if s, err := Open(t.Context(), Options{Dir: dir}); !errors.Is(err, ErrCorrupt) {
			if err == nil {
				s.Close()
			}
			t.Fatalf("open over a stale Badger manifest = %v, want ErrCorrupt", err)
		}
	}
	if _, err := os.Stat(copies[0]); err != nil {
		t.Fatalf("the kept copy is gone after opening: %v", err)
	}
	rep, err := Repair(t.Context(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Restored) != 1 || rep.Restored[0].Added != 350 || len(rep.Lost) != 0 {
		t.Errorf("repair report = %+v, want mine.csv restored with 350 runs", rep)
	}
	counts, err := Check(t.Context(), dir)
	if err != nil || counts[3] != 350 {
		t.Errorf("after repair: %v, %v", counts, err)
	}
}

func TestACopyNoImportRefersToIsSetAsideNotDeleted(t *testing.T) {
	dir := storeWithImport(t)
	stray := filepath.Join(dir, sourcesDir, "20250101T000000.000000000Z-left-by-a-crash.csv")
	if err := os.WriteFile(stray, []byte("engine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stray); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stray copy is still under %s (stat: %v)", sourcesDir, err)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, damagedPrefix+"*", sourcesDir, filepath.Base(stray)))
	if len(aside) != 1 {
		t.Errorf("the stray copy was not set aside under %s*/%s/", damagedPrefix, sourcesDir)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*mine.csv")); len(kept) != 1 {
		t.Errorf("the committed import's copy moved: %v", kept)
	}
}

func TestATruncatedBadgerManifestSetsTablesAsideAndIsDamage(t *testing.T) {
	dir := storeWithImport(t)
	// Thread memory, flushed into a table of its own at close: the last
	// change Badger's MANIFEST records.
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.KV("threads").Set(t.Context(), "t1", []byte(strings.Repeat("plan ", 100)), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := tableNames(t, dir)
	mf := filepath.Join(dir, "MANIFEST")
	fi, err := os.Stat(mf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(mf, fi.Size()-1); err != nil {
		t.Fatal(err)
	}

	for _, readOnly := range []bool{true, false} {
		s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: readOnly})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, ErrCorrupt) && !(readOnly && errors.Is(err, ErrNeedsRecovery)) {
			t.Errorf("open (read-only %v) = %v, want ErrCorrupt", readOnly, err)
		}
		everyTableKept(t, dir, before)
	}
	if _, err := Check(t.Context(), dir); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Check = %v, want ErrCorrupt", err)
	}
	everyTableKept(t, dir, before)
}

func TestATableLeftByAnInterruptedCompactionIsSetAsideAndTheStoreOpens(t *testing.T) {
	dir := storeWithImport(t)
	// A table Badger's MANIFEST does not name whose entries the store still
	// holds: what a kill between writing a compaction's output and
	// recording it leaves.
	b, err := os.ReadFile(largestTable(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "000999.sst"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true}); !errors.Is(err, ErrNeedsRecovery) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("read-only open = %v, want ErrNeedsRecovery (a writing open sets the table aside)", err)
	}
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("open = %v, want the store", err)
	}
	if n := len(s.Runs()); n != 828 {
		t.Errorf("runs = %d, want 828", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, aside := tableNames(t, dir); !slices.Contains(aside, "000999.sst") {
		t.Errorf("the unnamed table was not set aside: %v", aside)
	}
	if _, err := os.Stat(filepath.Join(dir, setAsideFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the set-aside record stays after its tables were checked: %v", err)
	}
	if _, err := Check(t.Context(), dir); err != nil {
		t.Errorf("Check = %v, want sound", err)
	}
}
