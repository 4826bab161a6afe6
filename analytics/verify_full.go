package analytics

import (
	"context"
	"math"
	"reflect"
	"slices"

	badger "github.com/dgraph-io/badger/v4"
)

// What is verified when:
//   - Open: each table file's footer, index and first and last blocks
//     (verifyTables), the manifest against its mirror file, and the
//     derived head (CRC, generation, runs per session, fingerprint)
//     against the manifest. No run is read; the cost does not grow with
//     the store.
//   - Every block Badger reads: its checksum (OnBlockRead); a query whose
//     data sits in a damaged block fails, and a scan cut short by one is
//     caught by the counts below.
//   - Every read of a derived value (cell records, posting lists): its
//     CRC-32C, and its shape against the head (cells per chunk, order).
//   - Reading a cell's runs (a pinned query): they are exactly the runs
//     its record names.
//   - Every column a scan reads: the CRC-32C of each chunk, its kind and
//     its count of runs against the head; the runs a search returns
//     (MatchRuns) are read by ID and checked against their cell.
//   - Loading every run (Runs, Load, and scans of a store without
//     columns): the count and digest of each session against the
//     manifest, and each cell's runs against its record.
//   - Check (doctor): every block of every table, then Verify.
//   - Verify: all of the above, and the derived data rebuilt from the
//     runs compared with what is stored (fingerprint, cells, posting lists,
//     coverage, columns), and the cell entries (cr/) against the runs.

// Verify reads and checks everything the store holds (see above); nil
// means it is sound.
func (s *Store) Verify(ctx context.Context) error {
	snap := s.current()
	if err := snap.ensureRuns(ctx); err != nil {
		return err
	}
	if snap.lazy == nil {
		return nil // built in memory from checked runs (a format-1 store read-only)
	}
	var rebuilt []Cell
	b := newDerivedBuilder(snap.lazy.head.Generation, func(c *Cell) error { rebuilt = append(rebuilt, *c); return nil })
	for i := range snap.runs {
		if err := b.addRun(&snap.runs[i]); err != nil {
			return corrupt(s.dir, err, "%v", err)
		}
	}
	if err := b.finish(); err != nil {
		return corrupt(s.dir, err, "%v", err)
	}
	h := snap.lazy.head
	switch {
	case fingerprint(snap.runs) != h.Fingerprint:
		return corrupt(s.dir, nil, "the stored fingerprint %s is not that of the runs", h.Fingerprint)
	case !reflect.DeepEqual(rebuilt, snap.fullCells()):
		return corrupt(s.dir, nil, "the cell index's medians or run lists differ from the runs")
	case !reflect.DeepEqual(b.head.Coverage, h.Coverage):
		return corrupt(s.dir, nil, "the stored coverage differs from the runs")
	case !reflect.DeepEqual(b.head.Pins, h.Pins):
		return corrupt(s.dir, nil, "the cell index's posting lists are not those of the runs")
	}
	for p, want := range b.posts {
		got, err := snap.lazy.posting(p)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			return corrupt(s.dir, nil, "the posting list %s differs from the runs", pinName(p))
		}
	}
	if n, err := s.countKeys(derivedKey(h.Generation, "pin/")); err != nil || n != len(h.Pins) {
		if err != nil {
			return err
		}
		return corrupt(s.dir, nil, "the cell index holds %d posting lists, its head says %d", n, len(h.Pins))
	}
	if err := s.verifyCellEntries(ctx, snap.runs); err != nil {
		return err
	}
	return s.verifyColumns(ctx, snap)
}

// verifyColumns checks that each stored column holds the values of the
// runs, in cell order, and that the generation holds no other column
// chunk.
func (s *Store) verifyColumns(ctx context.Context, snap *snapshot) error {
	h := snap.lazy.head
	if h.ColumnChunkRuns == 0 {
		return nil // a format-2 store read before its migration
	}
	for i := range columnSpecs {
		sp := &columnSpecs[i]
		got, err := snap.lazy.column(ctx, sp)
		if err != nil {
			return err
		}
		if !sameColumn(got, columnFromRuns(sp, snap.runs)) {
			return corrupt(s.dir, nil, "the column %s differs from the runs", sp.name)
		}
	}
	want := len(columnSpecs) * columnChunks(h.Runs, h.ColumnChunkRuns)
	if n, err := s.countKeys(derivedKey(h.Generation, "col/")); err != nil || n != want {
		if err != nil {
			return err
		}
		return corrupt(s.dir, nil, "the store holds %d column chunks, its head says %d", n, want)
	}
	return nil
}

// sameColumn compares two columns value by value (floats bit for bit).
func sameColumn(a, b *runColumn) bool {
	if len(a.f)+len(a.fcodes) != len(b.f)+len(b.fcodes) || !slices.Equal(a.has, b.has) || !slices.Equal(a.i, b.i) || len(a.codes) != len(b.codes) {
		return false
	}
	for p := range len(a.f) + len(a.fcodes) {
		if math.Float64bits(a.float(p)) != math.Float64bits(b.float(p)) {
			return false
		}
	}
	for p := range a.codes {
		if a.dict[a.codes[p]] != b.dict[b.codes[p]] {
			return false
		}
	}
	return true
}

// verifyCellEntries checks that the cell entries are exactly the runs'
// cells, repetitions, IDs and metrics, in cell order.
func (s *Store) verifyCellEntries(ctx context.Context, runs []Run) error {
	i := 0
	err := s.scanCellEntries(ctx, func(k CellKey, id string, f *runFields) error {
		if i >= len(runs) {
			return corrupt(s.dir, nil, "the cell entry of run %s names no stored run", id)
		}
		r := &runs[i]
		i++
		want := fieldsOf(r)
		if f.metricsOnly { // format 2: no columns are built from it
			want = runFields{runMetrics: want.runMetrics, Rep: r.Rep, metricsOnly: true}
		}
		if r.Key() != k || r.ID != id || !reflect.DeepEqual(want, *f) {
			return corrupt(s.dir, nil, "the cell entry of run %s differs from the run", id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if i != len(runs) {
		return corrupt(s.dir, nil, "the store holds %d cell entries for %d runs", i, len(runs))
	}
	return nil
}

// countKeys counts the keys under a prefix.
func (s *Store) countKeys(prefix []byte) (int, error) {
	n := 0
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	return n, storeReadError(s.dir, "reading the cell index", err)
}
