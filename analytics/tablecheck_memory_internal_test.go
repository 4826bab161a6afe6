package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// rememberedStore is storeWithImport once every table is remembered: its
// tables are older than racyChange first.
func rememberedStore(t *testing.T) (dir string, tables int) {
	t.Helper()
	dir = storeWithImport(t)
	time.Sleep(2 * racyChange)
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if _, err := checkTables(dir, true); err != nil { // what the import's Close did not remember
		t.Fatal(err)
	}
	if n, err := checkTables(dir, false); n != 0 || err != nil {
		t.Fatalf("second check: %d of %d tables read again (err %v), want 0", n, len(files), err)
	}
	return dir, len(files)
}

// damageFooter overwrites a table's last bytes (the length of its index's
// checksum) in place: the same file, the same size. Badger's own open
// panics on such a table inside its goroutines.
func damageFooter(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	if _, err := f.WriteAt([]byte{0x7f, 0xff, 0xff, 0xf0}, fi.Size()-4); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestATableDamagedAfterItWasRememberedIsStillReported(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, table string)
	}{
		{"overwritten in place, same size", damageFooter},
		{"replaced by a damaged copy of the same size", func(t *testing.T, table string) {
			b, err := os.ReadFile(table)
			if err != nil {
				t.Fatal(err)
			}
			copy(b[len(b)-4:], []byte{0x7f, 0xff, 0xff, 0xf0})
			tmp := table + ".new"
			if err := os.WriteFile(tmp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, table); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated", func(t *testing.T, table string) {
			fi, _ := os.Stat(table)
			if err := os.Truncate(table, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := rememberedStore(t)
			tt.damage(t, largestTable(t, dir))
			n, err := checkTables(dir, false)
			if n != 1 || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("check = %d tables read, %v; want the damaged one read and ErrCorrupt", n, err)
			}
			for _, readOnly := range []bool{true, false} {
				s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: readOnly})
				if err == nil {
					s.Close()
				}
				var ce *CorruptError
				if !errors.As(err, &ce) {
					t.Fatalf("open (read-only %v) = %v, want a *CorruptError", readOnly, err)
				}
			}
		})
	}
}

func TestATableChangedJustBeforeItsCheckIsNotRemembered(t *testing.T) {
	dir, _ := rememberedStore(t)
	table := largestTable(t, dir)
	// Rewrite one byte with itself: the content is sound, the change time
	// new, and a write in the same clock tick could follow unseen.
	f, err := os.OpenFile(table, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for range 2 {
		if n, err := checkTables(dir, true); n != 1 || err != nil {
			t.Fatalf("check = %d tables read, %v; want the changed table read each time", n, err)
		}
	}
	time.Sleep(2 * racyChange)
	if n, err := checkTables(dir, true); n != 1 || err != nil {
		t.Fatalf("check = %d tables read, %v; want the changed table read once more", n, err)
	}
	if n, err := checkTables(dir, true); n != 0 || err != nil {
		t.Fatalf("check = %d tables read, %v; want it remembered now", n, err)
	}
}

func TestAReadOnlyOpenWritesNoRecordOfCheckedTables(t *testing.T) {
	dir, tables := rememberedStore(t)
	record := filepath.Join(dir, checkedTablesFile)
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	if _, err := os.Stat(record); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read-only open wrote %s (%v)", checkedTablesFile, err)
	}
	if n, err := checkTables(dir, false); n != tables || err != nil {
		t.Fatalf("check = %d tables read, %v; want all %d", n, err, tables)
	}
}

func TestAnUnreadableRecordOfCheckedTablesIsIgnored(t *testing.T) {
	dir, tables := rememberedStore(t)
	record := filepath.Join(dir, checkedTablesFile)
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for name, garbled := range map[string][]byte{
		"torn":        b[:len(b)/2],
		"edited":      append([]byte("x"), b[1:]...),
		"empty":       nil,
		"not a table": []byte("memdb-oracle checked tables 1\n000001.sst 1 2\ncrc32 0\n"),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(record, garbled, 0o600); err != nil {
				t.Fatal(err)
			}
			if n, err := checkTables(dir, true); n != tables || err != nil {
				t.Fatalf("check = %d tables read, %v; want all %d", n, err, tables)
			}
			if n, err := checkTables(dir, false); n != 0 || err != nil {
				t.Fatalf("check after the record was rewritten = %d tables read, %v; want 0", n, err)
			}
		})
	}
}

func TestAWritingProcessRemembersTheTablesAtOpenAndClose(t *testing.T) {
	dir := storeWithImport(t)
	time.Sleep(2 * racyChange)
	record := filepath.Join(dir, checkedTablesFile)
	os.Remove(record)
	before, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(record); err != nil {
		t.Fatalf("a writing open kept no record: %v", err)
	}
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	if err := s.KV("test").Set(t.Context(), "k", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	written := 0
	for _, f := range after {
		if !slices.Contains(before, f) {
			written++
		}
	}
	// Every table the process found is remembered again by its Close;
	// what it wrote may be too recent to remember (racyChange).
	if n, err := checkTables(dir, false); n > written || written == len(after) || err != nil {
		t.Fatalf("after Close: %d of %d tables read (err %v), want at most the %d this process wrote", n, len(after), err, written)
	}
}

// The close of an import waits out racyChange for the table it flushed, so
// every table is remembered and the read-only processes after it (which
// never record) read none again.
func TestAnImportsCloseRemembersEveryTable(t *testing.T) {
	dir := storeWithImport(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if n, err := checkTables(dir, false); n != 0 || err != nil {
		t.Fatalf("right after the import's close %d of %d tables are read again (err %v), want 0", n, len(files), err)
	}
}
