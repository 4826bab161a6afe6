package analytics

import (
	"errors"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// TestDoctorFindsDerivedDataThatDecodesButDiffersFromTheRuns forges
// damage that passes every checksum (values re-sealed, entries that still
// decode): only comparing the derived data rebuilt from the runs with
// what is stored finds it.
func TestDoctorFindsDerivedDataThatDecodesButDiffersFromTheRuns(t *testing.T) {
	dir, gen := storeWithImportAndGeneration(t)
	run := sampleEmbeddedRun()
	entry := cellRunKey(run)
	column := derivedKey(gen, columnChunkName("ops_per_sec", 0))
	for _, tc := range []struct {
		name  string
		forge func(txn *badger.Txn) error
	}{
		{"a cell entry whose throughput changed", func(txn *badger.Txn) error {
			return rewrite(txn, entry, func(v []byte) []byte { v[8] ^= 0x01; return v })
		}},
		{"a cell entry deleted", func(txn *badger.Txn) error { return txn.Delete(entry) }},
		{"a cell entry added for a run never stored", func(txn *badger.Txn) error {
			extra := *run
			extra.Rep = 9
			extra.ID = "run-forged"
			return txn.Set(cellRunKey(&extra), encodeCellEntry(nil, &extra))
		}},
		{"a column chunk re-sealed with a value changed", func(txn *badger.Txn) error {
			return rewrite(txn, column, func(v []byte) []byte {
				payload, err := openValue(column, v)
				if err != nil {
					t.Fatal(err)
				}
				payload = append([]byte(nil), payload...)
				payload[len(payload)-1] ^= 0x10
				return sealValue(column, payload)
			})
		}},
		{"a run deleted", func(txn *badger.Txn) error { return txn.Delete([]byte(runIDPrefix + run.ID)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			damaged := forgedCopy(t, dir, tc.forge)
			if _, err := Check(t.Context(), damaged); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check = %v, want ErrCorrupt", err)
			}
		})
	}
	if _, err := Check(t.Context(), dir); err != nil {
		t.Fatalf("the undamaged store: %v", err)
	}
}

// storeWithImportAndGeneration is storeWithImport and the generation its
// derived data is under.
func storeWithImportAndGeneration(t *testing.T) (string, uint64) {
	t.Helper()
	dir := storeWithImport(t)
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return dir, s.manifest.Generation
}

// sampleEmbeddedRun is the key fields of one run of the embedded dataset.
func sampleEmbeddedRun() *Run {
	return &Run{ID: "run-s1-20260901-083406-dragonfly-single-4c-p1-1-10-d100-rep1", Session: 1,
		Engine: "dragonfly", Mode: "single", Cores: 4, Pipeline: 1, Ratio: "1:10", ValueBytes: 100, Rep: 1}
}

// forgedCopy copies the store in dir and changes the copy behind the
// store's back with forge; it returns the copy, closed.
func forgedCopy(t *testing.T, dir string, forge func(txn *badger.Txn) error) string {
	t.Helper()
	damaged := t.TempDir()
	copyDir(t, dir, damaged)
	s, err := Open(t.Context(), Options{Dir: damaged})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(forge); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return damaged
}

// rewrite replaces the value of key by what change makes of a copy.
func rewrite(txn *badger.Txn, key []byte, change func([]byte) []byte) error {
	item, err := txn.Get(key)
	if err != nil {
		return err
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		return err
	}
	return txn.Set(key, change(v))
}
