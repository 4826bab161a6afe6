package analytics

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// TestAFlippedByteInThePersistedIndexIsReportedNotAnsweredAround flips
// one byte in each kind of derived value (through Badger, so Badger's own
// checksums pass) and checks that the store reports it as damaged where
// that value is read: the head at open, a cell record or posting list at
// the first query that reads it, and all of them in doctor's Check.
func TestAFlippedByteInThePersistedIndexIsReportedNotAnsweredAround(t *testing.T) {
	dir, gen := storeWithImportAndGeneration(t)
	for _, tc := range []struct {
		name   string
		key    []byte
		atOpen bool
		delete bool // delete the value instead of flipping a byte
	}{
		{"the head", derivedKey(gen, "head"), true, false},
		{"a cell record", derivedKey(gen, cellChunkName(0)), false, false},
		{"a posting list", derivedKey(gen, pinName(pin{field: "engine", text: "dragonfly"})), false, false},
		{"a deleted posting list", derivedKey(gen, pinName(pin{field: "engine", text: "dragonfly"})), false, true},
		{"a deleted cell record", derivedKey(gen, cellChunkName(0)), false, true},
		{"a cell entry", cellRunKey(sampleEmbeddedRun()), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			damaged := forgedCopy(t, dir, func(txn *badger.Txn) error {
				if tc.delete {
					return txn.Delete(tc.key)
				}
				return rewrite(txn, tc.key, func(v []byte) []byte { v[len(v)/2] ^= 0x01; return v })
			})
			s, err := Open(t.Context(), Options{Dir: damaged})
			if tc.atOpen {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open = %v, want ErrCorrupt", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				_, qerr := s.Query(t.Context(), selectiveFilter)
				_, rerr := s.MatchRuns(t.Context(), `engine == "dragonfly" && cores == 4 && ratio == "1:10" && value_bytes == 100 && pipeline == 1`)
				s.Close()
				if !errors.Is(qerr, ErrCorrupt) && !errors.Is(rerr, ErrCorrupt) && tc.name != "a cell entry" {
					t.Errorf("queries over the damaged %s = %v, %v; want ErrCorrupt", tc.name, qerr, rerr)
				}
			}
			if _, err := Check(t.Context(), damaged); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check = %v, want ErrCorrupt", err)
			}
		})
	}
}

// TestASnapshotAnImportReplacedStillAnswers checks that a query still
// reading the snapshot it started on when an import commits finds that
// snapshot's cell index: the import keeps the generation it replaced.
func TestASnapshotAnImportReplacedStillAnswers(t *testing.T) {
	s := openDefault(t)
	f, err := CompileFilter(`engine == "dragonfly" && cores == 4 && p50_ms > 0`)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.QueryFilter(t.Context(), f)
	if err != nil {
		t.Fatal(err)
	}
	old := newLazySnapshot(s, s.current().lazy.head, s.manifest) // nothing read yet
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "again.csv", bytes.NewReader(b), 3); err != nil {
		t.Fatal(err)
	}
	got, err := old.query(t.Context(), f)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the replaced snapshot answered %d cells, %v; want %d cells", len(got.Cells), err, len(want.Cells))
	}
	if s.Err() != nil {
		t.Fatalf("the store is marked damaged: %v", s.Err())
	}
}
