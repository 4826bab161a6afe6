package analytics

import badger "github.com/dgraph-io/badger/v4"

// Badger's sizes for a process that writes many runs (the import
// command). Runs (about 200 bytes encoded) go to the value log, so
// compactions move keys, pointers and the runs' small cell entries
// (metricsSize bytes, under the threshold: they stay in the tree, where the
// derived pass reads them in cell order without touching the value log).
// What memory is left is Badger's: compactions build their output tables
// on the heap, several at a time, and the memtables; so both are small.
// Its value-log files are large instead: every later open maps each one
// (a million runs: 5 files of 64 MB rather than 23 of 16), and a file is
// only as resident as what was written to it.
const (
	importValueThreshold = 128
	importMemTableSize   = 4 << 20
	importTableSize      = 512 << 10
	importValueLogSize   = 64 << 20
)

// forImport tunes Badger for a process that writes many runs. Where a value
// lives is recorded per entry, and table sizes are not recorded at all, so
// a store written this way opens and reads with the ordinary options, and
// later writes follow those.
func forImport(bo badger.Options) badger.Options {
	bo = bo.WithValueThreshold(importValueThreshold).
		WithMemTableSize(importMemTableSize).
		WithBaseTableSize(importTableSize).
		WithValueLogFileSize(importValueLogSize)
	bo.TableSizeMultiplier = 1 // every level's tables are small
	return bo
}

// ImportMemoryLimit is the Go heap's soft limit (debug.SetMemoryLimit) for
// a process that imports: its heap is Badger's buffers and one row, and the
// limit keeps the garbage collector from letting it grow to twice that
// between cycles.
const ImportMemoryLimit = 128 << 20

// releaseEvery is how many written runs pass between syncs of the store's
// files and the release of their mapped pages (see releaseMappedPages).
const releaseEvery = progressEvery

// releaseWritten syncs what the import wrote so far, then gives its mapped
// pages back: Badger writes tables and the value log through mmap, and
// without this every page of a large import stays resident until Close.
func (s *Store) releaseWritten() error {
	if s.dir == "" {
		return nil
	}
	if err := s.db.Sync(); err != nil {
		return err
	}
	releaseMappedPages(s.dir)
	return nil
}

// bulkBatchBytes is how much a bulkBatch holds before it commits.
const bulkBatchBytes = 8 << 20

// maxPendingBatches bounds the write transactions a write batch keeps in
// flight (Badger's default is 16): each pending one holds its entries on
// the heap.
const maxPendingBatches = 2

// bulkBatch writes many entries (an import's runs, a generation's derived
// data) with bounded memory: it commits what it holds every bulkBatchBytes.
// Badger's WriteBatch alone commits by its transaction-size estimate, which
// counts a value bound for the value log as a pointer, so large values
// (the derived data's chunks) pile up on the heap until Flush. Entries
// committed early are not yet visible to queries: what they belong to is
// committed, or rolled back, under the import's marker.
type bulkBatch struct {
	db      *badger.DB
	wb      *badger.WriteBatch
	pending int
	disk    *diskGuard // a tripped guard stops the batch at its next entry
}

// batchWriter is where putRun and writeDerived put entries.
type batchWriter interface {
	Set(key, val []byte) error
}

func (s *Store) newBulkBatch() *bulkBatch {
	return &bulkBatch{db: s.db, wb: newWriteBatch(s.db), disk: &s.disk}
}

func newWriteBatch(db *badger.DB) *badger.WriteBatch {
	wb := db.NewWriteBatch()
	wb.SetMaxPendingTxns(maxPendingBatches)
	return wb
}

// Set adds one entry, committing what the batch holds once it is over
// bulkBatchBytes.
func (b *bulkBatch) Set(key, val []byte) error {
	if err := b.disk.stopped(); err != nil {
		return err // each entry more could make Badger create a file on the full disk
	}
	if err := b.wb.Set(key, val); err != nil {
		return err
	}
	if b.pending += len(key) + len(val); b.pending < bulkBatchBytes {
		return nil
	}
	if err := b.Flush(); err != nil {
		return err
	}
	b.wb, b.pending = newWriteBatch(b.db), 0
	return nil
}

// Flush commits what is left and waits for every commit.
func (b *bulkBatch) Flush() error {
	if err := fault("badger.batch"); err != nil {
		return err // the caller's Cancel drops what the batch holds
	}
	return b.wb.Flush()
}

// Cancel drops what was not committed yet.
func (b *bulkBatch) Cancel() { b.wb.Cancel() }
