package analytics

import (
	"cmp"
	"context"
	"crypto/sha256"
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
//
// Every value carries a CRC-32C (sealValue). A generation's values other
// than the head are written before its commit, under the import's marker;
// a rolled-back import deletes them with its runs. Older generations are
// deleted after the commit that replaces them.

// Chunks of cell records: at most this many cells or about this many bytes.
const (
	chunkCells = 64
	chunkBytes = 256 << 10
)

// derivedHead summarises one generation's derived data.
type derivedHead struct {
	Format      int              `json:"format"`
	Generation  uint64           `json:"generation"`
	Fingerprint string           `json:"fingerprint"`
	Runs        int              `json:"runs"`
	Cells       int              `json:"cells"`
	ChunkStarts []int            `json:"chunk_starts"` // first cell of each chunk
	Sessions    map[string]int   `json:"sessions"`     // runs per session
	Pins        int              `json:"pins"`         // posting lists written
	Coverage    []SeriesCoverage `json:"coverage"`
}

// derivedBuilder computes the derived data from runs given in cell order
// (each cell's runs in repetition order), one cell in memory at a time.
type derivedBuilder struct {
	head  derivedHead
	fp    digest256
	cov   coverageBuilder
	posts map[pin][]int

	cur  []Run // the current cell's runs
	vals []float64
	enc  []byte

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
func (b *derivedBuilder) add(r *Run) error {
	if len(b.cur) > 0 {
		prev := &b.cur[len(b.cur)-1]
		if k := r.Key(); k != prev.Key() {
			if CompareCellKeys(prev.Key(), k) > 0 {
				return fmt.Errorf("runs out of cell order at %s", r.ID)
			}
			if err := b.flushCell(); err != nil {
				return err
			}
		}
	}
	b.cur = append(b.cur, *r)
	b.fp.add(measurementDigest(r, &b.enc))
	b.head.Runs++
	b.head.Sessions[sessionKey(r.Session)]++
	return nil
}

func (b *derivedBuilder) flushCell() error {
	if len(b.cur) == 0 {
		return nil
	}
	g := make([]int, len(b.cur))
	for i := range g {
		g[i] = i
	}
	c := cellOf(b.cur, b.cur[0].Key(), g, b.vals)
	n := b.head.Cells
	b.head.Cells++
	for _, p := range pinsOf(c.CellKey) {
		b.posts[p] = append(b.posts[p], n)
	}
	b.cov.add(&c)
	b.cur = b.cur[:0]
	return b.cell(&c)
}

// finish closes the last cell and completes the head.
func (b *derivedBuilder) finish() error {
	if err := b.flushCell(); err != nil {
		return err
	}
	b.head.Fingerprint = b.fp.String()[:16]
	b.head.Coverage = b.cov.out
	b.head.Pins = len(b.posts)
	return nil
}

// measurementDigest hashes what a run measured (not where it was read
// from); the fingerprint is the sum of these, so it does not depend on
// the order runs are read in.
func measurementDigest(r *Run, buf *[]byte) digest256 {
	m := *r
	m.SourceFile, m.SourceLine = "", 0
	*buf = encodeRun((*buf)[:0], &m)
	sum := sha256.Sum256(*buf)
	var d digest256
	for i := range d {
		d[i] = binary.LittleEndian.Uint64(sum[i*8:])
	}
	return d
}

// writeDerived computes generation gen's derived data from every stored
// run and writes it (all but the head) through wb; the caller commits the
// head. It reads the runs in cell order, holding one cell at a time.
func (s *Store) writeDerived(ctx context.Context, gen uint64, wb *badger.WriteBatch) (derivedHead, error) {
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
	err := s.scanRunRange(ctx, []byte(cellRunPrefix), func(_, _ []byte, r *Run) error { return b.add(r) })
	if err == nil {
		err = b.finish()
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return derivedHead{}, err
	}
	b.head.ChunkStarts = starts
	for p, cells := range b.posts {
		key := derivedKey(gen, pinName(p))
		if err := wb.Set(key, sealValue(key, appendPosting(nil, cells))); err != nil {
			return derivedHead{}, err
		}
	}
	return b.head, nil
}

// scanRunRange calls fn with every stored run under prefix (a part of
// cellRunPrefix), in cell order, with its key and encoded value (valid
// during the call only). A run that does not decode is a CorruptError.
func (s *Store) scanRunRange(ctx context.Context, prefix []byte, fn func(key, value []byte, r *Run) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicked(s.dir, "reading the runs", p)
		}
	}()
	n := 0
	err = s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if n++; n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			item := it.Item()
			err := item.Value(func(v []byte) error {
				r, err := decodeRun(v)
				if err != nil {
					return corrupt(s.dir, err, "run %s does not decode (%v)", item.Key(), err)
				}
				return fn(item.Key(), v, &r)
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return storeReadError(s.dir, "reading the runs", err)
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
	if h.Generation != gen || len(h.ChunkStarts) > h.Cells || h.Sessions == nil {
		return derivedHead{}, false, fmt.Errorf("%s does not describe generation %d", key, gen)
	}
	return h, true, nil
}

// checkHead compares a head with the manifest it was committed with.
func checkHead(h derivedHead, m manifest) error {
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
	if n == 0 || b.out[n-1].Session != c.Session || b.out[n-1].Engine != c.Engine || b.out[n-1].Mode != c.Mode {
		b.out = append(b.out, SeriesCoverage{Session: c.Session, Engine: c.Engine, Mode: c.Mode})
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
