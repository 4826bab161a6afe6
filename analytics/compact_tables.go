package analytics

import (
	"path/filepath"
	"runtime/debug"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// compactBelowTables is how many table files a store may have after an
// import before Close compacts them: below it, opening costs about the
// same either way and the compaction would only add to a small import.
const compactBelowTables = 16

// compactTables rewrites the tables of a store an import process wrote
// into one level of ordinary-sized tables. The import's small tables (see
// forImport) leave a large import with over a hundred table files spread
// over several levels, and every later process opens (and checks) each
// one: at a million runs about 125 files against 26 once compacted. It
// runs after Close, when the import is committed: compaction moves the
// same keys and values into new files and Badger's manifest switches to
// them atomically, so a process killed during it leaves the committed
// store, merely not compacted. Failing is not an error for the caller (the
// store is whole either way); it is logged.
func (s *Store) compactTables() {
	tables, err := filepath.Glob(filepath.Join(s.dir, "*.sst"))
	if err != nil || len(tables) < compactBelowTables {
		return
	}
	started := time.Now()
	// The import process's heap limit (the caller restored its own by now):
	// compaction builds its output tables on the heap.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ImportMemoryLimit))
	db, err := badger.Open(badgerOptions(s.dir, s.log))
	if err != nil {
		s.log.Warn("compacting the imported tables: the store stays as written", "err", err)
		return
	}
	err = db.Flatten(1) // one worker: a second finds no tables left and logs a warning
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.log.Warn("compacting the imported tables: the store stays as written", "err", err)
		return
	}
	s.log.Debug("compacted the imported tables", "tables_before", len(tables), "took", time.Since(started))
}
