package analytics

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	badger "github.com/dgraph-io/badger/v4"
)

// Derived data: what queries need about the cells, computed from the runs
// once per import and persisted under derivedPrefix+generation, so that
// opening a store reads its head only and a query reads the posting lists
// and cell records it needs, never every run.
//
//	derived/{gen}/head            derivedHead (JSON), written in the commit transaction
//	derived/{gen}/cells/{chunk}   cell records (key, repetitions, medians, run IDs), cell order
//	derived/{gen}/pin/{field}={v} cells holding that cell-field value, ascending
//	derived/{gen}/col/{field}/{chunk} the runs' values of one field, cell order (columns.go)
//
// Every value carries a CRC-32C (sealValue). A generation's values other
// than the head are written before its commit, under the import's marker;
// a rolled-back import deletes them with its runs. Older generations are
// deleted after the commit that replaces them.

// Chunks of cell records: at most this many cells or about this many bytes.
// A query that pins one cell decodes the whole chunk holding it, every run
// ID of every cell in it: at a million runs (830 IDs a cell, about 7 KB
// coded) a 256 KB chunk was 6 ms of a selective query's 18 ms process; a
// 32 KB one is about five cells. A full scan reads every chunk either way.
const (
	chunkCells = 64
	chunkBytes = 32 << 10
)

// derivedHead summarises one generation's derived data.
type derivedHead struct {
	Format      int              `json:"format"`
	Generation  uint64           `json:"generation"`
	Fingerprint string           `json:"fingerprint"` // fingerprintOf the manifest committed with it
	Runs        int              `json:"runs"`
	Cells       int              `json:"cells"`
	ChunkStarts []int            `json:"chunk_starts"` // first cell of each chunk
	Sessions    map[string]int   `json:"sessions"`     // runs per session
	Pins        map[string]int   `json:"pins"`         // each posting list written (pinName) → its cells
	Coverage    []SeriesCoverage `json:"coverage"`
	// ColumnChunkRuns is the runs per column chunk (columns.go); 0: the
	// generation has no columns (store format 2).
	ColumnChunkRuns int `json:"column_chunk_runs,omitempty"`
}

// derivedBuilder computes the derived data from runs given in cell order
// (each cell's runs in repetition order), one cell in memory at a time.
type derivedBuilder struct {
	head  derivedHead
	cov   coverageBuilder
	posts map[pin][]int

	key  CellKey // the current cell
	ids  []string
	ms   []runMetrics
	vals []float64

	// cell is called with each finished cell, in cell order.
	cell func(c *Cell) error
}

func newDerivedBuilder(gen uint64, cell func(c *Cell) error) *derivedBuilder {
	return &derivedBuilder{
		head:  derivedHead{Format: storeFormat, Generation: gen, Sessions: map[string]int{}},
		posts: map[pin][]int{},
		cell:  cell,
	}
}

// add takes the next run in cell order.
func (b *derivedBuilder) add(k CellKey, id string, m runMetrics) error {
	if len(b.ids) > 0 && k != b.key {
		if CompareCellKeys(b.key, k) > 0 {
			return fmt.Errorf("runs out of cell order at %s", id)
		}
		if err := b.flushCell(); err != nil {
			return err
		}
	}
	b.key = k
	b.ids = append(b.ids, id)
	b.ms = append(b.ms, m)
	b.head.Runs++
	b.head.Sessions[sessionKey(k.Session)]++
	return nil
}

func (b *derivedBuilder) addRun(r *Run) error { return b.add(r.Key(), r.ID, metricsOf(r)) }

func (b *derivedBuilder) flushCell() error {
	if len(b.ids) == 0 {
		return nil
	}
	c := cellFromMetrics(b.key, slices.Clone(b.ids), b.ms, b.vals)
	n := b.head.Cells
	b.head.Cells++
	for _, p := range pinsOf(c.CellKey) {
		b.posts[p] = append(b.posts[p], n)
	}
	b.cov.add(&c)
	b.ids, b.ms = b.ids[:0], b.ms[:0]
	return b.cell(&c)
}

// cellFromMetrics aggregates one cell from the metrics of its runs (in
// repetition order) and their IDs, which the cell keeps: the median
// across them of every metric. vals is scratch space.
func cellFromMetrics(k CellKey, ids []string, ms []runMetrics, vals []float64) Cell {
	med := func(get func(*runMetrics) float64) float64 {
		vals = vals[:0]
		for i := range ms {
			vals = append(vals, get(&ms[i]))
		}
		return cellMedian(vals)
	}
	c := Cell{CellKey: k, Reps: len(ms)}
	c.OpsPerSec = med(func(m *runMetrics) float64 { return m.OpsPerSec })
	c.OpsPerCore = med(func(m *runMetrics) float64 { return m.OpsPerCore })
	c.P50Ms = med(func(m *runMetrics) float64 { return m.P50Ms })
	c.P99Ms = med(func(m *runMetrics) float64 { return m.P99Ms })
	c.P999Ms = med(func(m *runMetrics) float64 { return m.P999Ms })
	c.KBPerSec = med(func(m *runMetrics) float64 { return m.KBPerSec })
	vals = vals[:0]
	for i := range ms {
		if h := ms[i].HitRate; h != nil {
			vals = append(vals, *h)
		}
	}
	if len(vals) > 0 {
		h := cellMedian(vals)
		c.HitRate = &h
	}
	c.RunIDs = ids
	return c
}

// finish closes the last cell and completes the head.
func (b *derivedBuilder) finish() error {
	if err := b.flushCell(); err != nil {
		return err
	}
	b.head.Coverage = b.cov.out
	b.head.Pins = make(map[string]int, len(b.posts))
	for p, cells := range b.posts {
		b.head.Pins[pinName(p)] = len(cells)
	}
	return nil
}

// writeDerived computes generation gen's derived data from every stored
// run and writes it (all but the head) through wb; the caller commits the
// head. It reads the runs in cell order, holding one cell at a time.
func (s *Store) writeDerived(ctx context.Context, gen uint64, wb batchWriter) (derivedHead, error) {
	var chunk []byte
	chunkN, chunkFirst := 0, 0
	var starts []int
	flush := func() error {
		if chunkN == 0 {
			return nil
		}
		payload := binary.AppendUvarint(nil, uint64(chunkN))
		payload = append(payload, chunk...)
		key := derivedKey(gen, cellChunkName(len(starts)))
		starts = append(starts, chunkFirst)
		chunk, chunkN = chunk[:0], 0
		return wb.Set(key, sealValue(key, payload))
	}
	cells := 0
	b := newDerivedBuilder(gen, func(c *Cell) error {
		if chunkN == 0 {
			chunkFirst = cells
		}
		cells++
		chunk = appendCell(chunk, c)
		chunkN++
		if chunkN >= chunkCells || len(chunk) >= chunkBytes {
			return flush()
		}
		return nil
	})
	cols := newColumnWriter(func(name string, payload []byte) error {
		key := derivedKey(gen, name)
		return wb.Set(key, sealValue(key, payload))
	})
	err := s.cellEntries(ctx, func(k CellKey, id string, f *runFields) error {
		if err := cols.add(f); err != nil {
			return corrupt(s.dir, err, "the cell entry of run %s: %v", id, err)
		}
		return b.add(k, id, f.runMetrics)
	})
	if err == nil {
		err = b.finish()
	}
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = cols.flush()
	}
	if err != nil {
		return derivedHead{}, err
	}
	b.head.ChunkStarts = starts
	b.head.ColumnChunkRuns = columnChunkRuns
	for p, cells := range b.posts {
		key := derivedKey(gen, pinName(p))
		if err := wb.Set(key, sealValue(key, appendPosting(nil, cells))); err != nil {
			return derivedHead{}, err
		}
	}
	return b.head, nil
}

// scanCellEntries calls fn with the cell, ID and fields of every stored
// run, in cell order (the entries under cellRunPrefix: Badger's tree only,
// no value-log reads). An entry that does not decode is a CorruptError.
func (s *Store) scanCellEntries(ctx context.Context, fn func(k CellKey, id string, f *runFields) error) error {
	in := newInterner()
	return s.scanPrefix(ctx, []byte(cellRunPrefix), func(key, v []byte) error {
		k, rep, id, err := parseCellRunKey(key)
		if err != nil {
			return corrupt(s.dir, err, "the cell entry %q does not decode (%v)", key, err)
		}
		f, err := decodeCellEntry(v, rep, in)
		if err != nil {
			return corrupt(s.dir, err, "the cell entry of run %s does not decode (%v)", id, err)
		}
		return fn(k, id, &f)
	})
}

// scanRuns calls fn with every stored run, in ID order, with its key and
// encoded value (valid during the call only). A run that does not decode
// is a CorruptError.
func (s *Store) scanRuns(ctx context.Context, fn func(key, value []byte, r *Run) error) error {
	in := newInterner()
	return s.scanPrefix(ctx, []byte(runIDPrefix), func(key, v []byte) error {
		r, err := decodeRunWith(v, in)
		if err != nil {
			return corrupt(s.dir, err, "run %s does not decode (%v)", key, err)
		}
		return fn(key, v, &r)
	})
}

// scanPrefix calls fn with every key and value under prefix, in key
// order, releasing the mapped pages it read as it goes; a panic inside
// Badger (damaged blocks) is a CorruptError.
func (s *Store) scanPrefix(ctx context.Context, prefix []byte, fn func(key, value []byte) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicked(s.dir, "reading the runs", p)
		}
	}()
	n := 0
	err = s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if n++; n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if n%scanReleaseEvery == 0 && s.dir != "" {
					if err := s.releaseScanned(); err != nil {
						return err
					}
				}
			}
			item := it.Item()
			if err := item.Value(func(v []byte) error { return fn(item.Key(), v) }); err != nil {
				return err
			}
		}
		return nil
	})
	return storeReadError(s.dir, "reading the runs", err)
}

// releaseScanned gives back the mapped pages a scan read (it maps every
// table and value-log page it reads). The import process syncs first: its
// derived pass scans while it writes, and the pages its writes dirtied
// would stay (at 3M runs, 20-30 MB of its peak).
func (s *Store) releaseScanned() error {
	if s.mergeWith != nil {
		return s.releaseWritten()
	}
	forgetMappedPages(s.dir)
	return nil
}

// storeReadError keeps corruption and cancellation as they are and makes
// any other failure to read Badger a CorruptError.
func storeReadError(dir, what string, err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return corrupt(dir, err, "%s failed (%v)", what, err)
}

// setHead writes a generation's head in txn (the commit transaction).
func setHead(txn *badger.Txn, h derivedHead) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	key := derivedKey(h.Generation, "head")
	return txn.Set(key, sealValue(key, b))
}

// readHead reads a generation's head; found is false when there is none.
func readHead(txn *badger.Txn, gen uint64) (derivedHead, bool, error) {
	key := derivedKey(gen, "head")
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return derivedHead{}, false, nil
	}
	if err != nil {
		return derivedHead{}, false, err
	}
	var h derivedHead
	err = item.Value(func(v []byte) error {
		payload, err := openValue(key, v)
		if err != nil {
			return err
		}
		return json.Unmarshal(payload, &h)
	})
	if err != nil {
		return derivedHead{}, false, err
	}
	if h.Generation != gen || len(h.ChunkStarts) > h.Cells || h.Sessions == nil || (h.Cells > 0 && h.Pins == nil) {
		return derivedHead{}, false, fmt.Errorf("%s does not describe generation %d", key, gen)
	}
	return h, true, nil
}

// checkHead compares a head with the manifest it was committed with.
func checkHead(h derivedHead, m manifest) error {
	if fp := fingerprintOf(m.Sessions); h.Fingerprint != fp {
		return fmt.Errorf("the cell index's fingerprint %s is not the manifest's %s", h.Fingerprint, fp)
	}
	if h.Generation != m.Generation {
		return fmt.Errorf("the cell index is of import %d, the manifest of import %d", h.Generation, m.Generation)
	}
	for k, ss := range m.Sessions {
		if h.Sessions[k] != ss.Runs {
			return fmt.Errorf("the cell index holds %d runs of session %s, the manifest %d", h.Sessions[k], k, ss.Runs)
		}
	}
	if len(h.Sessions) != len(m.Sessions) {
		return fmt.Errorf("the cell index holds %d sessions, the manifest %d", len(h.Sessions), len(m.Sessions))
	}
	return nil
}

// coverageBuilder builds the coverage from cells given in cell order.
type coverageBuilder struct {
	out []SeriesCoverage
}

func (b *coverageBuilder) add(c *Cell) {
	n := len(b.out)
	if n == 0 || b.out[n-1].Session != c.Session || b.out[n-1].Engine != c.Engine ||
		b.out[n-1].Version != c.Version || b.out[n-1].Mode != c.Mode {
		b.out = append(b.out, SeriesCoverage{Session: c.Session, Engine: c.Engine, Version: c.Version, Mode: c.Mode})
		n++
	}
	sc := &b.out[n-1]
	sc.Cores = addSorted(sc.Cores, c.Cores, cmp.Compare[int])
	sc.Ratios = addSorted(sc.Ratios, c.Ratio, func(a, b string) int { return compareIn(ratioOrder, a, b) })
	sc.ValueBytes = addSorted(sc.ValueBytes, c.ValueBytes, cmp.Compare[int])
	sc.Pipelines = addSorted(sc.Pipelines, c.Pipeline, cmp.Compare[int])
	sc.Runs += c.Reps
	sc.Cells++
}

func addSorted[T comparable](list []T, v T, compare func(a, b T) int) []T {
	i, found := slices.BinarySearchFunc(list, v, compare)
	if found {
		return list
	}
	return slices.Insert(list, i, v)
}

// scanReleaseEvery is how many runs a scan reads between releases of the
// mapped pages it read. Paging out evicts them from the page cache too, so
// the next process reads them from the disk again; each release also reads
// /proc/self/maps. 65536 runs (about 13 MB of values) keeps the resident
// set bounded while a million-run scan releases 15 times, not 122.
const scanReleaseEvery = 1 << 16
