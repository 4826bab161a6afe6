package analytics

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

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
// means it is sound. It streams: two passes in key order (the runs, then
// the cell entries in cell order) with the derived data rebuilt one cell
// and one column chunk at a time and compared with what is stored as it
// goes, so its memory does not grow with the store.
func (s *Store) Verify(ctx context.Context) error {
	snap := s.current()
	if snap.lazy == nil {
		// Built in memory from checked runs (a format-1 store read-only).
		return snap.ensureRuns(ctx)
	}
	h := snap.lazy.head
	entries, err := s.verifyRuns(ctx, snap.lazy)
	if err != nil {
		return err
	}
	b, err := s.verifyDerived(ctx, snap.lazy, entries)
	if err != nil {
		return err
	}
	switch {
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
		if !slices.Equal(got, want) {
			return corrupt(s.dir, nil, "the posting list %s differs from the runs", pinName(p))
		}
	}
	if n, err := s.countKeys(derivedKey(h.Generation, "pin/")); err != nil || n != len(h.Pins) {
		if err != nil {
			return err
		}
		return corrupt(s.dir, nil, "the cell index holds %d posting lists, its head says %d", n, len(h.Pins))
	}
	if h.ColumnChunkRuns == 0 {
		return nil // a format-2 store read before its migration
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

// entrySums is what the runs say their cell entries must be: how many, and
// the order-independent digest of each one's key and fields.
type entrySums struct {
	n int
	d digest256
}

// verifyRuns reads every run in ID order: each must decode, the runs of
// each session must match the manifest's count and digest, and the
// fingerprint the stored head. It returns the digest of the cell entries
// the runs imply, for verifyDerived to compare with the stored ones.
func (s *Store) verifyRuns(ctx context.Context, l *lazyCells) (entrySums, error) {
	type tally struct {
		stored, canonical digest256
		n                 int
	}
	tallies := map[int]*tally{}
	var (
		want entrySums
		val  []byte
	)
	metricsOnly := l.head.ColumnChunkRuns == 0 // format 2
	err := s.scanRuns(ctx, func(key, v []byte, r *Run) error {
		t := tallies[r.Session]
		if t == nil {
			t = &tally{}
			tallies[r.Session] = t
		}
		t.stored.add(runDigest(key, v))
		val = encodeRun(val[:0], r)
		t.canonical.add(runDigest(key, val))
		t.n++
		f := fieldsOf(r)
		if metricsOnly {
			f = runFields{runMetrics: f.runMetrics, Rep: r.Rep, metricsOnly: true}
		}
		want.n++
		want.d.add(entryDigest(r.Key(), r.Rep, r.ID, &f))
		return nil
	})
	if err != nil {
		return want, err
	}
	stored := make(map[string]sessionSums, len(tallies))
	canonical := make(map[string]sessionSums, len(tallies))
	for session, t := range tallies {
		stored[sessionKey(session)] = sessionSums{Runs: t.n, Digest: t.stored.String()}
		canonical[sessionKey(session)] = sessionSums{Runs: t.n, Digest: t.canonical.String()}
	}
	if err := verify(s.dir, l.manifest, stored); err != nil {
		return want, err
	}
	if fingerprintOf(canonical) != l.head.Fingerprint {
		return want, corrupt(s.dir, nil, "the stored fingerprint %s is not that of the runs", l.head.Fingerprint)
	}
	if want.n != l.head.Runs {
		return want, corrupt(s.dir, nil, "the store holds %d runs, the cell index %d", want.n, l.head.Runs)
	}
	return want, nil
}

// entryDigest hashes one cell entry as decoded: its cell, repetition, run
// ID and fields. The runs and the stored entries are hashed alike, so the
// two sums agree exactly when the entries are the runs'.
func entryDigest(k CellKey, rep int, id string, f *runFields) digest256 {
	key := appendOrderedInt(appendCellKey(nil, k), rep)
	key = append(key, id...)
	v := encodeMetrics(make([]byte, 0, 128), f.runMetrics)
	if f.metricsOnly {
		return runDigest(key, append(v, 0))
	}
	v = append(v, 1)
	for _, n := range [...]int{f.Rep, f.Shards, f.ServerThreads, f.ClientThreads, f.ClientConns, f.KeyMax, f.TestTimeS, f.ConnErrors} {
		v = binary.AppendVarint(v, int64(n))
	}
	for _, t := range [...]string{f.RunID, f.Note} {
		v = binary.AppendUvarint(v, uint64(len(t)))
		v = append(v, t...)
	}
	return runDigest(key, v)
}

// verifyDerived reads every cell entry in cell order, checks them against
// the digest of the runs, and rebuilds the derived data from them: each
// cell as it completes against the stored record, each column chunk as it
// fills against the stored chunk. It returns the builder, holding what is
// left to compare (posting lists, coverage).
func (s *Store) verifyDerived(ctx context.Context, l *lazyCells, want entrySums) (*derivedBuilder, error) {
	h := l.head
	var (
		stored []Cell // the chunk of stored cells holding the next to compare
		next   int    // number of the next cell to compare
		chunk  = -1
	)
	b := newDerivedBuilder(h.Generation, func(c *Cell) error {
		for chunk+1 < len(h.ChunkStarts) && next >= h.ChunkStarts[chunk+1] {
			chunk++
			cells, ids, err := l.lazyChunk(chunk)
			if err != nil {
				return err
			}
			for i := range cells {
				cells[i].RunIDs = ids[i].get()
			}
			stored = cells
		}
		if chunk < 0 || next-h.ChunkStarts[chunk] >= len(stored) {
			return corrupt(s.dir, nil, "the cell index holds %d cells, the runs make more", h.Cells)
		}
		if !reflect.DeepEqual(*c, stored[next-h.ChunkStarts[chunk]]) {
			return corrupt(s.dir, nil, "the cell index's medians or run lists differ from the runs")
		}
		next++
		return nil
	})
	var cols *columnWriter
	if h.ColumnChunkRuns > 0 {
		cols = newColumnWriter(func(name string, payload []byte) error { return s.verifyColumnChunk(l, name, payload) })
		cols.per = h.ColumnChunkRuns // as the store was written
	}
	var got entrySums
	err := s.scanCellEntries(ctx, func(k CellKey, id string, f *runFields) error {
		got.n++
		got.d.add(entryDigest(k, f.Rep, id, f))
		if cols != nil {
			if err := cols.add(f); err != nil {
				return corrupt(s.dir, err, "the cell entry of run %s: %v", id, err)
			}
		}
		if err := b.add(k, id, f.runMetrics); err != nil {
			return corrupt(s.dir, err, "%v", err)
		}
		return nil
	})
	if err == nil {
		err = b.finish()
	}
	if err == nil && cols != nil {
		err = cols.flush()
	}
	if err != nil {
		return nil, err
	}
	switch {
	case got.n != want.n:
		return nil, corrupt(s.dir, nil, "the store holds %d cell entries for %d runs", got.n, want.n)
	case got.d != want.d:
		return nil, corrupt(s.dir, nil, "the cell entries differ from the runs")
	case next != h.Cells:
		return nil, corrupt(s.dir, nil, "the cell index holds %d cells, the runs make %d", h.Cells, next)
	}
	return b, nil
}

// verifyColumnChunk compares one column chunk rebuilt from the cell
// entries with the stored one, value by value.
func (s *Store) verifyColumnChunk(l *lazyCells, name string, rebuilt []byte) error {
	rest, _ := strings.CutPrefix(name, "col/")
	field, _, _ := strings.Cut(rest, "/")
	sp, ok := columnSpecOf(field)
	if !ok {
		return fmt.Errorf("verifying the columns: no column %s", field)
	}
	n, k := binary.Uvarint(rebuilt[1:])
	if k <= 0 {
		return fmt.Errorf("verifying the columns: a bad chunk of %s rebuilt", field)
	}
	wantCol := newColumnReader(sp, int(n))
	if err := wantCol.add(rebuilt, int(n)); err != nil {
		return fmt.Errorf("verifying the columns: %w", err)
	}
	key := derivedKey(l.head.Generation, name)
	gotCol := newColumnReader(sp, int(n))
	err := s.viewValue(key, func(v []byte) error {
		payload, err := openValue(key, v)
		if err == nil {
			err = gotCol.add(payload, int(n))
		}
		return err
	})
	if err != nil {
		return l.corrupt(err, "the column %s cannot be read (%v)", sp.name, err)
	}
	if !sameColumn(&gotCol.col, &wantCol.col) {
		return corrupt(s.dir, nil, "the column %s differs from the runs", sp.name)
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

// countKeys counts the keys under a prefix.
func (s *Store) countKeys(prefix []byte) (int, error) {
	n := 0
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	return n, storeReadError(s.dir, "reading the cell index", err)
}
