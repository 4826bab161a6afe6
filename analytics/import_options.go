package analytics

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

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

// An import process (Options.ForImport) leaves the tables its memtables
// flush in level 0, unmerged, and merges them once, as its store closes
// (compactAtClose): a run's keys arrive in file order, which is no order of
// the keys, so every flush overlaps every table below it, and merging as
// it went rewrote the whole lower level at each flush (a quarter of a
// million-run import's CPU, and 116 tables of 512 KB left behind). Up to
// importLevel0Tables flushes (a million runs make about 60 of 8 MB, three
// million 185) wait for the close; beyond that, a merge into the level
// below runs while the import goes on, as Badger's do, and builds its
// tables beside the import's heap (at 96, 3M runs peaked at 528 MB).
const (
	importProcessMemTableSize = 8 << 20
	importLevel0Tables        = 256
	// importProcessValueThreshold keeps every value (a run, a column
	// chunk) in the tables, compressed with them, not in the value log:
	// with no merge while the import runs, a value is written twice (its
	// flush, the final merge) either way, and a million runs take 105 MB
	// of tables instead of 55 MB of tables and 335 MB of value log.
	// Badger allows no more than 15% of the memtable.
	importProcessValueThreshold = importProcessMemTableSize * 12 / 100
	// finalTableSize is the size of the tables the close's merge writes:
	// every open reads each table's index and bloom filter, so fewer is
	// better (a million runs: 26 tables), but the merge builds up to nine
	// at once on the heap, each holding its blocks uncompressed (8 MB
	// tables took the import process to 240 MB of RSS at 1M runs, 4 MB to
	// 170; at 3M runs 4 MB tables peaked at 180-196 MiB in the merge, 3 MB
	// at 160-166 MiB, with 104 tables instead of 78).
	finalTableSize = 3 << 20
	// mergeReleaseEvery is how often the final merge gives back the
	// mapped pages it read and wrote (see releaseMappedPages).
	mergeReleaseEvery = 100 * time.Millisecond
)

// forImportProcess is forImport for the import command's process: level 0
// holds the flushes until compactAtClose merges them.
func forImportProcess(bo badger.Options) badger.Options {
	bo = forImport(bo).WithMemTableSize(importProcessMemTableSize).
		WithNumLevelZeroTables(importLevel0Tables).
		WithNumLevelZeroTablesStall(2 * importLevel0Tables).
		WithBaseTableSize(finalTableSize).
		WithValueThreshold(importProcessValueThreshold).
		// The process's writes are the import's batches and its one
		// commit, under its lock: nothing for Badger to check them
		// against, and the check hashed every key into a map.
		WithDetectConflicts(false)
	return bo
}

// compactAtClose is the import process's final merge, after Badger closed:
// it opens Badger again with the ordinary options (which merge level 0 at
// once), flattens the tree into one level of finalTableSize tables and
// closes. A disk without room for a second copy of the tables skips it
// (the store is sound either way; the next writing open merges as
// Badger does). An error here is reported but loses nothing: Badger
// replaces tables only once their merge is written.
func (s *Store) compactAtClose(bo badger.Options) error {
	tables, _ := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	if len(tables) <= 1 {
		return nil
	}
	var size int64
	for _, t := range tables {
		if fi, err := os.Stat(t); err == nil {
			size += fi.Size()
		}
	}
	if free, ok := freeBytes(s.dir); ok && free < s.minFree+uint64(size) {
		s.log.Info("the store's tables stay unmerged: too little free space for the merge", "tables", len(tables), "free", free)
		return nil
	}
	// The merge builds several tables at once on the heap, more than the
	// import's limit (ImportMemoryLimit): under it, the collector ran back
	// to back (some 800 cycles in a million runs' merge).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(mergeMemoryLimit))
	debug.FreeOSMemory() // what the import's Badger held, before the merge's own
	started := time.Now()
	mo := bo.WithBaseTableSize(finalTableSize)
	mo.TableSizeMultiplier = 1 // a deeper level's larger tables would hold the merge's heap to more
	db, err := openBadger(mo)
	if err != nil {
		return fmt.Errorf("merging the store's tables: %w", err)
	}
	// Merging reads every table through memory and writes the new ones
	// the same way: their pages would stay resident until the close.
	stop := make(chan struct{})
	released := make(chan struct{})
	go func() {
		defer close(released)
		t := time.NewTicker(mergeReleaseEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				releaseMappedPages(s.dir)
			}
		}
	}()
	err = db.Flatten(1)
	close(stop)
	<-released
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("merging the store's tables: %w", err)
	}
	after, _ := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	s.log.Debug("import tables merged", "tables_before", len(tables), "tables", len(after), "took", time.Since(started))
	return nil
}

// mergeMemoryLimit is the heap's soft limit while compactAtClose merges:
// its table builders hold up to about 250 MB of heap, much of it
// allocated but never written (so not resident). Single runs of a
// million-run import: 128 MB took 35 CPU-s and 159 MB of RSS, 192 MB 29 s
// and 176 MB, 384 MB 29 s and 264 MB. The builders' blocks, once read,
// are garbage until a cycle (Badger frees nothing without jemalloc), so
// the limit bounds the merge's RSS: at 3M runs and 3 MB tables, 192 MB
// let one merge reach 213 MiB, 160 MB held two to 178.
const mergeMemoryLimit = 160 << 20

// derivedMemoryLimit is the heap's soft limit while the import process
// writes its derived data (derivedOfImport). Single runs of a million-run
// import: 128 MB took 27-28 CPU-s and 167-171 MB of RSS, 160 MB 21-26 s
// and 183-191 MB, 192 MB 24 s and 201 MB. At 3M runs, with the duplicate
// check's 8 bytes a row (runIDSet) the import had CPU to spare: 144 MB.
const derivedMemoryLimit = 144 << 20

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

// bulkBatchBytes is how much a bulkBatch holds before it commits: with
// maxPendingBatches in flight, three of them are on the heap as the
// derived pass begins beside the runs' last flushes (at 3M runs, 8 MB
// batches made that moment the peak, 186-193 MiB; 4 MB, 179).
const bulkBatchBytes = 4 << 20

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
