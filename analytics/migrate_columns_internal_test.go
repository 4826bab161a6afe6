package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// writeFormat2Store writes a data directory holding the embedded dataset
// as the previous release did (store format 2): see downgradeToFormat2.
func writeFormat2Store(t *testing.T, dir string) {
	t.Helper()
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	downgradeToFormat2(t, s, dir)
}

// downgradeToFormat2 rewrites an open store's data as store format 2 and
// closes it: each cell entry holds the run's metrics only, the derived
// data has no columns, and the format key, the manifest and its mirror
// say 2.
func downgradeToFormat2(t testing.TB, s *Store, dir string) {
	t.Helper()
	m := s.manifest.clone()
	m.Format = 2
	head := s.current().lazy.head
	head.ColumnChunkRuns = 0
	wb := s.db.NewWriteBatch() // many runs do not fit one transaction
	for _, r := range s.Runs() {
		if err := wb.Set(cellRunKey(&r), encodeMetrics(nil, metricsOf(&r))); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	err := s.db.Update(func(txn *badger.Txn) error {
		if err := setJSON(txn, manifestKey, m); err != nil {
			return err
		}
		if err := setHead(txn, head); err != nil {
			return err
		}
		return txn.Set([]byte(formatKey), []byte("2"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.deleteKeys(t.Context(), string(derivedKey(m.Generation, "col/")), func([]byte, uint64) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := writeManifestFile(dir, m); err != nil {
		t.Fatal(err)
	}
}

func TestAFormat2StoreIsMigratedOnceAndAnswersAlike(t *testing.T) {
	want := answersOf(t, openDefault(t))
	dir := filepath.Join(t.TempDir(), "data")
	writeFormat2Store(t, dir)
	if b, err := os.ReadFile(filepath.Join(dir, manifestFile)); err != nil || !strings.Contains(string(b), `"format": 2`) && !strings.Contains(string(b), `"format":2`) {
		t.Fatalf("the format-2 store's manifest mirror: %s, %v", b, err)
	}

	// Read-only: answered from the runs, without columns, nothing written.
	ro, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !ro.NeedsMigration() || ro.Migrated() != "" {
		t.Errorf("a read-only open of a format-2 store: needs migration %v, migrated %q", ro.NeedsMigration(), ro.Migrated())
	}
	if got := answersOf(t, ro); !reflect.DeepEqual(got, want) {
		t.Error("a format-2 store opened read-only answers differently")
	}
	ro.Close()

	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	msg := s.Migrated()
	if !strings.Contains(msg, "from store format 2 to format "+strconv.Itoa(storeFormat)) || !strings.Contains(msg, "478 runs") {
		t.Errorf("migration message = %q", msg)
	}
	if s.current().lazy.head.ColumnChunkRuns == 0 {
		t.Error("the migrated store has no columns")
	}
	if got := answersOf(t, s); !reflect.DeepEqual(got, want) {
		t.Error("the migrated store answers differently")
	}
	s.Close()

	s, err = Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated() != "" || s.NeedsMigration() {
		t.Errorf("migrated a second time: %q", s.Migrated())
	}
	if got := answersOf(t, s); !reflect.DeepEqual(got, want) {
		t.Error("the migrated store answers differently when reopened")
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("doctor's check of the migrated store: %v", err)
	}
}

func TestAFormat2MigrationKilledAtAnyPointLeavesAUsableStore(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := filepath.Join(t.TempDir(), "base")
	writeFormat2Store(t, base)
	killMigrationAt(t, base, []string{"migrate-entries", "migrate-committed"})
}

// TestAMigrationWithoutTheSpaceItNeedsWritesNothing: a writing open of a
// store of an earlier format on a disk short of what the migration needs
// is ErrDiskFull with nothing written (Badger writes through memory maps:
// a migration that ran out of disk would be a SIGBUS); the store still
// opens read-only as it was, and migrates once there is room.
func TestAMigrationWithoutTheSpaceItNeedsWritesNothing(t *testing.T) {
	for format, write := range map[int]func(*testing.T, string){1: writeFormat1Store, 2: writeFormat2Store} {
		t.Run("format "+strconv.Itoa(format), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			write(t, dir)
			free, ok := freeBytes(dir)
			if !ok {
				t.Skip("free space cannot be told here")
			}
			_, err := Open(t.Context(), Options{Dir: dir, MinFreeBytes: int64(free)})
			if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "migrating") || !strings.Contains(err.Error(), "nothing written") {
				t.Fatalf("open short of space: %v, want ErrDiskFull saying the migration wrote nothing", err)
			}
			ro, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !ro.NeedsMigration() || len(ro.Runs()) != 478 {
				t.Errorf("read-only after the refused migration: needs migration %v, %d runs", ro.NeedsMigration(), len(ro.Runs()))
			}
			if err := ro.Close(); err != nil {
				t.Fatal(err)
			}
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Migrated() == "" {
				t.Error("the open with room did not migrate")
			}
		})
	}
}
