package analytics

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// storeWithImport makes a data directory holding the embedded dataset and
// one imported file (session 3), closed.
func storeWithImport(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "mine.csv", bytes.NewReader(b), 3); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func largestTable(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	best, size := "", int64(-1)
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > size {
			best, size = f, fi.Size()
		}
	}
	if best == "" {
		t.Fatal("no table file")
	}
	return best
}

func TestADamagedStoreIsReportedNeverAnsweredFrom(t *testing.T) {
	dir := storeWithImport(t)
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"64 flipped bytes in a table", func(t *testing.T, dir string) {
			f := largestTable(t, dir)
			b, _ := os.ReadFile(f)
			for i := range 64 {
				b[len(b)/2+i] ^= 0xff
			}
			if err := os.WriteFile(f, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a truncated table", func(t *testing.T, dir string) {
			f := largestTable(t, dir)
			fi, _ := os.Stat(f)
			if err := os.Truncate(f, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted MANIFEST", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "MANIFEST")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a run deleted behind the manifest's back", func(t *testing.T, dir string) {
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			r := s.Runs()[0]
			if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete([]byte(runIDPrefix + r.ID)) }); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}},
		{"a flipped byte in a column chunk", func(t *testing.T, dir string) {
			damageValue(t, dir, "col/ops_per_sec/00000000")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			damaged := filepath.Join(t.TempDir(), "data")
			copyDir(t, dir, damaged)
			tt.damage(t, damaged)
			// Open checks the tables, the manifest and the cell index's
			// head; a scan checks the columns it reads; a read of the runs
			// themselves checks them against the manifest; doctor's Check
			// reads everything.
			s, err := Open(t.Context(), Options{Dir: damaged})
			if err == nil {
				if _, err = s.Query(t.Context(), fullScanFilter); err == nil {
					_, err = s.MatchRuns(t.Context(), fullScanFilter)
				}
				s.Close()
			}
			var ce *CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error = %v, want a *CorruptError", err)
			}
			if _, err := Check(t.Context(), damaged); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Check = %v, want a *CorruptError", err)
			}

			rep, err := Repair(t.Context(), damaged, nil)
			if err != nil {
				t.Fatalf("repair: %v", err)
			}
			if len(rep.Embedded) != 2 || len(rep.Restored) != 1 || rep.Restored[0].Added != 350 || len(rep.Lost) != 0 {
				t.Errorf("repair report = %+v", rep)
			}
			counts, err := Check(t.Context(), damaged)
			if err != nil || counts[1] != 350 || counts[2] != 128 || counts[3] != 350 {
				t.Errorf("after repair: %v, %v", counts, err)
			}
		})
	}
}

// damageValue flips a byte in the middle of one value of the committed
// generation's derived data (name as derivedKey takes it), behind the
// store's back.
func damageValue(t *testing.T, dir, name string) {
	t.Helper()
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	key := derivedKey(s.manifest.Generation, name)
	err = s.db.Update(func(txn *badger.Txn) error {
		return rewrite(txn, key, func(v []byte) []byte { v[len(v)/2] ^= 0x40; return v })
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
