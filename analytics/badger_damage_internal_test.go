package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// overwrite puts garbage over n bytes of a file at off (negative: from
// its end).
func overwrite(t *testing.T, path string, off int64, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if off < 0 {
		off += int64(len(b))
	}
	for i := range n {
		if int(off)+i < len(b) {
			b[int(off)+i] ^= 0x5a
		}
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestBadgerLevelDamageIsDamageThatRepairRebuildsFrom(t *testing.T) {
	base := storeWithImport(t)
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"a deleted table", func(t *testing.T, dir string) {
			if err := os.Remove(largestTable(t, dir)); err != nil {
				t.Fatal(err)
			}
		}},
		{"a damaged MANIFEST", func(t *testing.T, dir string) {
			overwrite(t, filepath.Join(dir, "MANIFEST"), 12, 8)
		}},
		{"a damaged KEYREGISTRY", func(t *testing.T, dir string) {
			overwrite(t, filepath.Join(dir, "KEYREGISTRY"), -8, 8)
		}},
		{"a damaged value-log header", func(t *testing.T, dir string) {
			logs, _ := filepath.Glob(filepath.Join(dir, "*.vlog"))
			if len(logs) == 0 {
				t.Fatal("no value log")
			}
			overwrite(t, logs[0], 0, 20)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			tt.damage(t, dir)
			for _, readOnly := range []bool{true, false} {
				s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: readOnly})
				if err == nil {
					_, err = s.Query(t.Context(), fullScanFilter)
					s.Close()
				}
				if !errors.Is(err, ErrCorrupt) && !(readOnly && errors.Is(err, ErrNeedsRecovery)) {
					t.Fatalf("open (read-only %v) = %v, want ErrCorrupt", readOnly, err)
				}
			}
			if _, err := Check(t.Context(), dir); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Check = %v, want ErrCorrupt", err)
			}
			rep, err := Repair(t.Context(), dir, nil)
			if err != nil {
				t.Fatalf("repair: %v", err)
			}
			if len(rep.Embedded) != 2 || len(rep.Restored) != 1 || len(rep.Lost) != 0 {
				t.Errorf("repair report = %+v", rep)
			}
			if counts, err := Check(t.Context(), dir); err != nil || counts[3] != 350 {
				t.Errorf("after repair: %v, %v", counts, err)
			}
		})
	}
}

func TestRepairFindsTheImportsWhenTheManifestFileIsDamaged(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"the manifest file alone", func(t *testing.T, dir string) {
			overwrite(t, filepath.Join(dir, manifestFile), 0, 4)
		}},
		{"the manifest file and Badger's MANIFEST", func(t *testing.T, dir string) {
			overwrite(t, filepath.Join(dir, manifestFile), 0, 4)
			overwrite(t, filepath.Join(dir, "MANIFEST"), 12, 8)
		}},
		{"the manifest file deleted and Badger's MANIFEST damaged", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, manifestFile)); err != nil {
				t.Fatal(err)
			}
			overwrite(t, filepath.Join(dir, "MANIFEST"), 12, 8)
		}},
	}
	base := storeWithImport(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			tt.damage(t, dir)
			if _, err := Check(t.Context(), dir); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Check = %v, want ErrCorrupt", err)
			}
			rep, err := Repair(t.Context(), dir, nil)
			if err != nil {
				t.Fatalf("repair: %v", err)
			}
			if len(rep.Restored) != 1 || rep.Restored[0].Added != 350 || rep.Restored[0].Session != 3 || len(rep.Lost) != 0 {
				t.Errorf("repair report = %+v, want mine.csv restored as session 3", rep)
			}
			if counts, err := Check(t.Context(), dir); err != nil || counts[3] != 350 {
				t.Errorf("after repair: %v, %v", counts, err)
			}
		})
	}
}

func TestDamageAQueryFindsIsKeptForTheHealthCheck(t *testing.T) {
	dir := storeWithImport(t)
	damageValue(t, dir, "col/ops_per_sec/00000000")
	s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckStore(t.Context()); err != nil {
		t.Fatalf("health before any query = %v", err)
	}
	if _, err := s.Query(t.Context(), fullScanFilter); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("query = %v, want ErrCorrupt", err)
	}
	if err := s.CheckStore(t.Context()); !errors.Is(err, ErrCorrupt) {
		t.Errorf("health after a query found damage = %v, want ErrCorrupt", err)
	}
}

func TestDoctorSaysWhatTheOpenRolledBackAndChecksCopiesAndBotState(t *testing.T) {
	dir := storeWithImport(t)
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.KV("threads").Set(t.Context(), "t1", []byte("plan"), 0); err != nil {
		t.Fatal(err)
	}
	// An import that stopped after its marker: the next open rolls it back.
	err = s.db.Update(func(txn *badger.Txn) error {
		return setJSON(txn, pendingKey, pendingImport{Generation: s.manifest.Generation + 1, Name: "half.csv", Session: 4})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*mine.csv"))
	overwrite(t, copies[0], 100, 1)

	d, err := Diagnose(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Repaired) != 1 || !strings.Contains(d.Repaired[0], "rolled back the interrupted import of half.csv") {
		t.Errorf("repaired = %q, want the rollback named", d.Repaired)
	}
	if d.KVValues < 1 {
		t.Errorf("bot-state values checked = %d", d.KVValues)
	}
	if d.Copies != 0 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "no longer matches") {
		t.Errorf("copies %d, warnings %q: want the changed copy named", d.Copies, d.Warnings)
	}
}

func TestAScrubFindsBitRotBeforeAQueryAndADamagedCopy(t *testing.T) {
	dir := storeWithImport(t)
	s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	rep, err := s.Scrub(t.Context())
	if err != nil {
		t.Fatalf("scrub of a sound store: %v", err)
	}
	if rep.Tables != len(tables) || rep.Copies != 1 || len(rep.Damaged) != 0 || rep.Finished.IsZero() {
		t.Errorf("scrub of a sound store reports %+v, want %d tables, 1 copy, nothing damaged", rep, len(tables))
	}
	if s.LastScrub().Finished != rep.Finished {
		t.Error("LastScrub is not the last scrub's report")
	}
	copies, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*mine.csv"))
	overwrite(t, copies[0], 10, 1)
	rep, err = s.Scrub(t.Context())
	if !errors.Is(err, ErrCopyDamaged) || !errors.Is(s.CheckStore(t.Context()), ErrCopyDamaged) {
		t.Errorf("scrub with a damaged copy = %v, health %v", err, s.CheckStore(t.Context()))
	}
	if len(rep.Damaged) != 1 || !strings.Contains(rep.Damaged[0], "mine.csv") {
		t.Errorf("scrub with a damaged copy reports %q, want the copy named", rep.Damaged)
	}
	if s.Err() != nil {
		t.Errorf("a damaged copy stopped queries: %v", s.Err())
	}
	overwrite(t, largestTable(t, dir), 5000, 64)
	rep, err = s.Scrub(t.Context())
	if !errors.Is(err, ErrCorrupt) || !errors.Is(s.Err(), ErrCorrupt) {
		t.Errorf("scrub with a damaged table = %v, store %v", err, s.Err())
	}
	if len(rep.Damaged) != 2 || rep.Tables != len(tables) {
		t.Errorf("scrub with a damaged table and a damaged copy reports %+v, want both, every table read", rep)
	}
}
