package analytics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Key prefixes inside the one Badger database (store format 2; see
// storeFormat).
const (
	runIDPrefix     = "id/"      // id/{id} → encodeRun: the runs
	cellRunPrefix   = "cr/"      // cr/{cell key}{rep}{id} → encodeCellEntry: each run's cell entry, in cell order
	derivedPrefix   = "derived/" // derived/{generation}/…: see derived.go
	kvPrefix        = "kv/"
	legacyRunPrefix = "run/" // format 1: run/{id} → JSON; read only to migrate
)

// gcInterval is how often the value-log garbage collector runs.
const gcInterval = 5 * time.Minute

// Badger sizes suited to a small store: a small memtable keeps the sparse,
// memory-mapped files Badger writes through small, so the free-space floor
// that keeps those writes from faulting (SIGBUS on a full disk) stays small.
const (
	memTableSize     = 8 << 20
	valueLogFileSize = 16 << 20
)

// tableBlockSize is the uncompressed size of a table's blocks. Every open
// reads (and checksums) each table's whole index, one entry per block: at
// Badger's 4 KB a million runs make 8 MB of index in 125 tables, most of
// an open's time. 32 KB blocks make a quarter of that (the bloom filters
// are then most of it), and a point lookup (an import's check that a run
// is new, a run read by its ID) is still one block: the re-import of a
// million present runs takes no longer.
const tableBlockSize = 32 << 10

// Badger sizes for a process that holds a small store and exits after one
// answer (Options.Small): a fresh store maps its memtable log (twice the
// memtable) and value log and allocates the memtable's arena up front, and
// on the embedded dataset's first import that setup is a large share of
// the process. The first write to each new mapped file faults in the
// whole file around it (the disk's read-ahead window: 8 MB here), zeroing
// page cache, and deleting the log at Close frees it again: both cost in
// proportion to the log's size. The embedded import (between 256 and
// 512 KB of memtable) fits in one with room to spare; the largest single
// value (the knowledge figures, about 100 KB) is above the value
// threshold, so it goes to the value log and counts as a pointer against
// Badger's batch limit (15% of the memtable, which also bounds the
// threshold). 1 MB is the smallest value-log file Badger accepts.
const (
	smallMemTableSize     = 1 << 20
	smallValueThreshold   = 64 << 10
	smallValueLogFileSize = 1 << 20
)

// defaultMinFree is the free space a store needs before anything may grow
// it: the memory-mapped memtable log (twice the memtable), a table flush
// and a compaction's worth, with slack.
const defaultMinFree = 6*memTableSize + 16<<20

// openFloor is the free space a writing open needs before Badger writes
// anything (its lock file, the first pages of a new memtable log and
// value log).
const openFloor = 1 << 20

// Options configure Open.
type Options struct {
	Dir      string       // data directory; ignored when InMemory
	InMemory bool         // Badger in-memory mode, for tests
	Logger   *slog.Logger // nil: discard

	// ReadOnly opens without writing anything (Badger's read-only mode);
	// Import and KV writes fail. A store that needs recovery (an
	// interrupted import) gives ErrNeedsRecovery.
	ReadOnly bool
	// DeferLoad is kept for callers of earlier releases: runs are now
	// always read on first need, never at open.
	DeferLoad bool
	// MinFreeBytes is the free space below which writes are refused (KV
	// writes fall back to memory); 0 means the default floor.
	MinFreeBytes int64
	// ForImport tunes Badger for writing many runs (see forImport): for
	// the import command's process. Ignored InMemory.
	ForImport bool
	// Beside opens for writing a store that another process (serve, see
	// HandOff) reads meanwhile through a read-only handle of its own:
	// nothing that handle maps may be deleted (Badger truncates a file it
	// deletes, and a read of a mapped page past the end is a SIGBUS), so
	// this process merges no tables, collects no value log and leaves the
	// merge of what it wrote to a later open. For serve's writing process.
	Beside bool
	// MergeAtClose merges level 0 into the levels below as the store
	// closes: what a Beside process left unmerged. For the process serve
	// runs, with its own handle closed, after one that wrote Beside.
	MergeAtClose bool
	// Small sizes Badger's memtable and value log for a store of a few
	// thousand runs in a process that answers once (see smallMemTableSize),
	// and leaves making the embedded dataset's import durable to Close
	// (see ImportDefault). Sizes are not recorded, so later opens use the
	// ordinary ones. Ignored InMemory or with ForImport.
	Small bool
}

// Store holds the runs in Badger with their derived data (see derived.go).
// Open reads the manifest and the derived head only; cells and runs are
// read on first need and shared (see snapshot). It is safe for concurrent
// use.
type Store struct {
	db       *badger.DB
	log      *slog.Logger
	dir      string // "" in memory
	readOnly bool
	minFree  uint64

	importMu sync.Mutex // serializes imports, and hand-offs (see HandOff)

	// dbMu guards db itself, which a hand-off replaces: every read that
	// serve makes holds it for reading; HandOff and resume take it to swap
	// the handle (see handoff.go).
	dbMu       sync.RWMutex
	opts       Options        // as opened, for a hand-off to open the store again
	badgerOpts badger.Options // likewise, for the read-only handle of a hand-off
	aside      handOffState   // guarded by importMu
	dbErr      error          // why there is no handle to read (see reopenReadOnly); guarded by dbMu

	mu       sync.RWMutex
	snap     *snapshot // replaced, never mutated, after each import
	manifest manifest  // as last committed
	migrated string    // what open migrated, for the caller to say once; "" if nothing
	repaired []string  // what open finished, rolled back or set aside (see Repaired)
	legacy   bool      // a store of an earlier format opened read-only (see NeedsMigration)

	brokenMu  sync.Mutex
	broken    error       // damage found by a read that cannot return an error (Cells, Run …)
	asideErr  error       // why a hand-off could not open the store for writing again (see resume)
	scrubbed  error       // what the last Scrub found wrong with the kept copies
	lastScrub ScrubReport // the last Scrub's report

	disk diskGuard // free-space checks and the in-memory fallback of KV writes

	filters *filterCache // compiled filters by text; nil compiles each time

	mergeWith     *badger.Options   // Options.ForImport: the options compactAtClose merges with
	oneShot       bool              // Options.Small, on disk and writable
	beside        bool              // Options.Beside: nothing another process maps is deleted
	mirrorAtClose atomic.Bool       // the embedded import's mirror file waits for Close
	background    *backgroundImport // a first use's import, written while the process answers
	held          bool              // snap is runs held in memory; imports keep it (see holdInMemory)
	ahead         *embeddedAhead    // the embedded dataset, read while a new store opens

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	// beforeWrite, when set (tests only), is called before the i-th run of
	// an import is written; an error aborts the import.
	beforeWrite func(i int) error
	// atStage, when set (tests only), is called at each step of an
	// import's commit protocol: "marker", "flushed", "committed".
	atStage func(stage string)
}

// ErrInUse means the data directory is held by another process: Badger
// allows one at a time.
var ErrInUse = errors.New("data directory in use")

// Open opens (creating if needed) the store, finishes or rolls back an
// import a crash interrupted, migrates a store written by an earlier
// release (once, saying so: see Migrated), checks the manifest against its
// mirror file and the derived head against the manifest. It reads no runs:
// those are read, and checked against the manifest's count and digest per
// session, on first need. A damaged store gives a *CorruptError (errors.Is
// ErrCorrupt); nothing is answered from it.
func Open(ctx context.Context, opts Options) (*Store, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bo := badger.DefaultOptions(opts.Dir).
		WithLogger(badgerLogger{log}).
		WithMemTableSize(memTableSize).
		WithNumMemtables(2).
		WithBlockCacheSize(8 << 20).
		WithBlockSize(tableBlockSize).
		WithValueLogFileSize(valueLogFileSize).
		WithNumVersionsToKeep(1).
		WithNumCompactors(2).
		WithChecksumVerificationMode(options.OnBlockRead). // every block as it is read; tables: verifyTables

		WithVerifyValueChecksum(true).
		WithMetricsEnabled(false). // nothing reads Badger's expvar counters, and every read updated them
		WithReadOnly(opts.ReadOnly)
	if opts.ReadOnly {
		// What a query reads the snapshot keeps decoded, so a block is
		// rarely read twice (a selective query at 1M runs: 42 block reads,
		// 5 hits in 8 MB). Badger insists on a cache with compressed
		// tables: one block, which admits nothing larger.
		bo = bo.WithBlockCacheSize(tableBlockSize)
	}
	s := &Store{log: log, readOnly: opts.ReadOnly, stop: make(chan struct{}), manifest: emptyManifest(), filters: newFilterCache(), opts: opts}
	var aside setAsideRecord // tables set aside before Badger deletes them
	s.minFree = defaultMinFree
	if opts.MinFreeBytes > 0 {
		s.minFree = uint64(opts.MinFreeBytes)
	}
	if opts.InMemory {
		bo = bo.WithDir("").WithValueDir("").WithInMemory(true).WithReadOnly(false)
	} else {
		switch {
		case opts.ForImport:
			ordinary := bo
			s.mergeWith = &ordinary // for the final merge
			bo = forImportProcess(bo)
		case opts.Small:
			bo = bo.WithMemTableSize(smallMemTableSize).WithValueThreshold(smallValueThreshold).
				WithValueLogFileSize(smallValueLogFileSize)
			s.oneShot = !opts.ReadOnly
		}
		if opts.Beside {
			// No merge at all: level 0 takes every flush (an API import
			// is at most tens of megabytes), and the close merges nothing.
			bo = bo.WithNumCompactors(0).WithNumLevelZeroTablesStall(math.MaxInt32).WithCompactL0OnClose(false)
			s.mergeWith, s.beside = nil, true
		}
		if opts.MergeAtClose {
			bo = bo.WithCompactL0OnClose(true)
		}
		if opts.Dir == "" {
			return nil, errors.New("open store: no data directory given")
		}
		s.dir = opts.Dir
		if !opts.ReadOnly {
			if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
				return nil, fmt.Errorf("open store: %w", err)
			}
		}
		if free, ok := freeBytes(opts.Dir); ok && !opts.ReadOnly && free < openFloor {
			// Badger's open writes its lock file and the headers of new
			// logs through memory: on a full disk that is a SIGBUS.
			return nil, noSpace(opts.Dir, openFloor, errors.New("a writing open needs room for Badger's new logs"))
		}
		if swapPending(opts.Dir) && !opts.ReadOnly {
			s.repaired = append(s.repaired, "finished moving a repaired store into place (a repair was interrupted)")
		}
		if err := finishRepair(opts.Dir, opts.ReadOnly); err != nil {
			return nil, err
		}
		if err := checkBadgerFiles(opts.Dir); err != nil {
			return nil, err
		}
		if _, err := checkTables(opts.Dir, !opts.ReadOnly); err != nil {
			return nil, err
		}
		var err error
		if aside, err = prepareSetAside(opts.Dir, opts.ReadOnly); err != nil {
			return nil, err
		}
	}
	s.disk.init(s)
	if s.oneShot && !hasBadgerManifest(opts.Dir) {
		s.readEmbeddedAhead(ctx) // a first use imports it next
	}
	db, err := openBadger(bo)
	if err != nil {
		// Badger reports a held directory lock only in its message (it does
		// not wrap the cause outside its debug mode), so the text is all
		// there is to recognise it by.
		switch {
		case strings.Contains(err.Error(), "Cannot acquire directory lock"):
			return nil, fmt.Errorf("%w: %s is open in another memdb-oracle process (such as serve): ask that process over POST /api/ask, stop it, or use another --data directory", ErrInUse, opts.Dir)
		case opts.ReadOnly && (errors.Is(err, badger.ErrTruncateNeeded) || strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error())):
			return nil, fmt.Errorf("%w: %s was not closed cleanly", ErrNeedsRecovery, opts.Dir)
		case errors.Is(err, ErrCorrupt), errors.Is(err, ErrDiskFull):
			// A fault on a full disk (openBadger) is no damage, read-only
			// too: on tmpfs reading the hole of a log a failed open left
			// allocates a page.
			return nil, err
		case strings.Contains(err.Error(), "checksum"):
			return nil, corrupt(opts.Dir, err, "a table file fails its checksum (%v)", err)
		}
		return nil, openError(opts.Dir, err)
	}
	s.db, s.badgerOpts = db, bo
	s.disk.writable.Store(!s.readOnly)
	if s.dir != "" && !s.readOnly {
		_ = s.disk.check(0) // allocates Badger's mapped logs, or marks the store short of space
	}
	if err := s.checkSetAside(aside); err != nil {
		_ = s.db.Close()
		return nil, err
	}
	if err := s.prepare(ctx, opts, bo); err != nil {
		_ = s.db.Close()
		return nil, err
	}
	if !opts.InMemory && !opts.ReadOnly && !s.beside {
		s.wg.Add(1)
		go s.gcLoop()
	}
	log.Debug("store opened", "dir", opts.Dir, "in_memory", opts.InMemory, "read_only", opts.ReadOnly,
		"runs", s.manifest.totalRuns())
	return s, nil
}

// openBadger opens Badger, turning a panic on damaged files into an error.
// A writing open writes the first page of a new memtable log and value
// log through memory, in this goroutine: on a disk another writer filled
// meanwhile that is a fault, which SetPanicOnFault makes a panic here, so
// a full disk is ErrDiskFull rather than a crash of the process (serve
// opens its store again after every import: see resume). Badger's own
// deferred clean-up releases the directory lock as the panic unwinds.
func openBadger(bo badger.Options) (db *badger.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			_, fault := p.(interface{ Addr() uintptr })
			if free, ok := freeBytes(bo.Dir); fault && ok && free < defaultMinFree {
				db, err = nil, noSpace(bo.Dir, 0, errors.New("the disk filled as Badger wrote the first page of a new file through memory"))
				return
			}
			db, err = nil, panicked(bo.Dir, "opening the Badger files", p)
		}
	}()
	return badger.Open(bo)
}

// prepare runs after Badger opened: recovery of an interrupted import or
// migration, the manifest check, migration of an earlier release's store,
// and the derived head of the committed generation.
func (s *Store) prepare(ctx context.Context, opts Options, bo badger.Options) error {
	if err := s.recoverPending(ctx); err != nil {
		return err
	}
	format, err := s.storedFormat()
	if err != nil {
		return err
	}
	if format == 1 {
		if err := s.checkManifest(ctx, legacyRunPrefix); err != nil {
			return err
		}
		if s.readOnly {
			return s.openLegacy(ctx)
		}
		if err := s.checkMigrationSpace(); err != nil {
			return err
		}
		if err := s.migrate(ctx); err != nil {
			return err
		}
	} else if err := s.checkManifest(ctx, cellRunPrefix); err != nil {
		return err
	} else if format == 2 && s.readOnly {
		s.legacy = true // read without columns until a writing open migrates it
	} else if format == 2 {
		if err := s.checkMigrationSpace(); err != nil {
			return err
		}
		if err := s.withImportOptions(opts, bo, func() error { return s.migrateColumns(ctx) }); err != nil {
			return err
		}
	}
	if !s.readOnly {
		if err := s.finishMigration(ctx); err != nil {
			return err
		}
		if err := s.dropStaleGenerations(ctx, s.manifest.Generation); err != nil {
			return err
		}
		if err := s.setAsideStrayCopies(ctx); err != nil {
			return err
		}
	}
	return s.openGeneration()
}

// openGeneration reads the committed generation's derived head and checks
// it against the manifest.
func (s *Store) openGeneration() error {
	var (
		h     derivedHead
		found bool
	)
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		h, found, err = readHead(txn, s.manifest.Generation)
		return err
	})
	if err != nil {
		return corrupt(s.dir, err, "the cell index cannot be read (%v)", err)
	}
	if !found {
		if s.manifest.totalRuns() > 0 {
			return corrupt(s.dir, nil, "the cell index of import %d is missing", s.manifest.Generation)
		}
		s.setSnapshot(newSnapshot(nil))
		return nil
	}
	if err := checkHead(h, s.manifest); err != nil {
		return corrupt(s.dir, err, "%v", err)
	}
	s.setSnapshot(newLazySnapshot(s, h, s.manifest))
	return nil
}

// Load reads every stored run now and checks them against the manifest
// (count and digest per session) and the cell index; queries would do
// the same on first need.
func (s *Store) Load(ctx context.Context) error {
	return s.current().ensureRuns(ctx)
}

// NeedsMigration says whether the store was written by an earlier release
// and opened read-only, so it is read in its old format (every run read
// at open) until a writing open migrates it.
func (s *Store) NeedsMigration() bool { return s.legacy }

// Repaired says what Open finished, rolled back or set aside before the
// store could be used (an interrupted import or repair, files moved into
// damaged-TIME/), for doctor to report.
func (s *Store) Repaired() []string { return slices.Clone(s.repaired) }

// Migrated says what Open migrated ("" when nothing), for a command to
// tell its user once.
func (s *Store) Migrated() string { return s.migrated }

// Err is the damage a read found where it could not return an error
// (Cells, Nearest, Run …): nil while the store is sound. Once set, every
// query fails with it.
func (s *Store) Err() error {
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	return s.broken
}

// CheckStore is nil while no read or scrub has found the store or its kept
// copies damaged, else what was found (serve's /healthz asks).
func (s *Store) CheckStore(context.Context) error {
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	return errors.Join(s.broken, s.scrubbed, s.asideErr)
}

// fail records damage that a read of snap found where it cannot return
// an error. A snapshot an import has since replaced is not the store's
// state any more (its cell index may be gone), so its failures are not
// kept.
func (s *Store) fail(snap *snapshot, err error) {
	if s.current() != snap {
		s.log.Warn("a read of a replaced snapshot failed", "err", err)
		return
	}
	s.brokenMu.Lock()
	defer s.brokenMu.Unlock()
	if s.broken == nil {
		s.broken = err
		s.log.Error("the store is damaged; queries fail until doctor --repair", "err", err)
	}
}

// getValue reads a copy of one value; nil, nil when the key is absent. A
// panic inside Badger (damaged blocks) is a CorruptError.
func (s *Store) getValue(key []byte) (v []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, panicked(s.dir, "reading the store", p)
		}
	}()
	err = s.view(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		v, err = item.ValueCopy(nil)
		return err
	})
	return v, err
}

// verify compares what is stored with what the manifest says must be.
func verify(dir string, m manifest, stored map[string]sessionSums) error {
	keys := make([]string, 0, len(m.Sessions)+len(stored))
	for k := range m.Sessions {
		keys = append(keys, k)
	}
	for k := range stored {
		if _, ok := m.Sessions[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		want, got := m.Sessions[k], stored[k]
		switch {
		case want.Runs != got.Runs:
			return corrupt(dir, nil, "session %s holds %d runs but its manifest says %d", k, got.Runs, want.Runs)
		case want.Digest != got.Digest:
			return corrupt(dir, nil, "the runs of session %s differ from what was imported (digest %.12s, manifest %.12s)", k, got.Digest, want.Digest)
		}
	}
	return nil
}

// gcLoop runs Badger's value-log garbage collection until Close.
func (s *Store) gcLoop() {
	defer s.wg.Done()
	t := time.NewTicker(gcInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if s.disk.low.Load() {
				continue // the collector writes a new value-log file
			}
			s.collectValueLog()
		}
	}
}

// collectValueLog runs Badger's value-log garbage collection until it
// finds nothing to collect or Close; not while the store is handed off.
func (s *Store) collectValueLog() {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	if s.disk.handedOff.Load() {
		return
	}
	for s.db.RunValueLogGC(0.5) == nil {
		select {
		case <-s.stop:
			return
		default:
		}
	}
}

// Close stops the value-log GC loop and closes Badger. Calling it again
// returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.wg.Wait()
		importErr := s.WaitImport() // before Badger closes under it
		s.importMu.Lock()           // and a hand-off (see HandOff)
		defer s.importMu.Unlock()
		defer func() { s.closeErr = errors.Join(importErr, s.closeErr) }()
		if s.dbErr != nil {
			return // closed when a hand-off could not open it again
		}
		// What was held in memory while space was short, if there is room
		// now; on a disk still short it ends with the process.
		s.writeBackHeld(context.Background())
		if err := s.db.Close(); err != nil {
			s.closeErr = fmt.Errorf("close store: %w", err)
			return
		}
		if err := s.writeDeferredMirror(); err != nil {
			s.closeErr = err
		}
		if s.mergeWith != nil && !s.readOnly {
			// What queries loaded (the knowledge figures of the import read
			// columns) is no use now, and the merge wants the memory.
			s.mu.Lock()
			s.snap = newLazySnapshot(s, derivedHead{}, emptyManifest())
			s.mu.Unlock()
			if err := s.compactAtClose(*s.mergeWith); err != nil {
				s.log.Warn("the store's tables stay unmerged until a later open", "err", err)
			}
		}
		if s.dir != "" && !s.readOnly && !s.HandedOff() {
			// Remember the tables this process wrote, so the opens after it
			// do not read them again; one found damaged is reported by the
			// next open. The table the close flushed is too new to remember
			// (racyChange) and read-only opens never record: an import waits
			// the few milliseconds out, or every later process reads that
			// table again; a one-shot first use, answering, does not.
			if !s.oneShot {
				waitUntilRememberable(s.dir)
			}
			if _, err := checkTables(s.dir, true); err != nil {
				s.log.Warn("a table written by this process fails its check", "err", err)
			}
		}
	})
	return s.closeErr
}

// CloseAtExit is Close for a process that exits right after. A read-only
// store is left open: the operating system releases its files when the
// process ends, all at once, where Badger's Close unmaps each table file
// in turn, each unmapping interrupting the process's other threads (on a
// store of a hundred tables, 5% of a one-query process). Nothing of a
// read-only store needs writing. Any other store is closed as
// by Close.
func (s *Store) CloseAtExit() error {
	if s.readOnly && s.dir != "" {
		return nil
	}
	return s.Close()
}

func (s *Store) setSnapshot(snap *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap = snap
}

func (s *Store) current() *snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap
}

// Runs returns every stored run in ID order (a copy). It reads every run
// on first use; damage found then is kept (see Err) and nothing returned.
func (s *Store) Runs() []Run {
	snap := s.current()
	if err := snap.ensureRuns(context.Background()); err != nil {
		s.fail(snap, err)
		return nil
	}
	out := make([]Run, len(snap.runs))
	for i, r := range snap.runs {
		out[i] = r.clone()
	}
	slices.SortFunc(out, func(a, b Run) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Run returns the stored run with the given ID: from memory when the runs
// are loaded, else read from Badger by its ID.
func (s *Store) Run(id string) (Run, bool) {
	snap := s.current()
	if snap.lazy == nil || snap.runs != nil {
		r, ok := snap.runByID(id)
		return r.clone(), ok
	}
	r, ok, err := s.readRun(id)
	if err != nil {
		s.fail(snap, err)
		return Run{}, false
	}
	return r, ok
}

// readRun reads one committed run by ID from Badger.
func (s *Store) readRun(id string) (Run, bool, error) {
	var (
		r     Run
		found bool
	)
	err := s.view(func(txn *badger.Txn) error {
		var err error
		r, found, err = getRun(txn, id)
		return err
	})
	if err != nil {
		return Run{}, false, storeReadError(s.dir, "reading run "+id, err)
	}
	return r, found, nil
}

// Cells returns every measured cell in cell order (a copy). It reads
// every cell record on first use; damage found then is kept (see Err).
func (s *Store) Cells() []Cell {
	snap := s.current()
	if err := snap.ensureCells(); err != nil {
		s.fail(snap, err)
		return nil
	}
	out := snap.fullCells()
	for i := range out {
		out[i] = out[i].clone()
	}
	return out
}

// Fingerprint is a stable hash of every stored run's measured values
// (changes when runs are added), from the derived head.
func (s *Store) Fingerprint() string { return s.current().fp }

// badgerLogger sends Badger's log lines to slog; Badger's info chatter goes
// to debug.
type badgerLogger struct{ log *slog.Logger }

func (l badgerLogger) Errorf(f string, a ...any) {
	l.log.Error("badger: " + trimNL(fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Warningf(f string, a ...any) {
	l.log.Warn("badger: " + trimNL(fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Infof(f string, a ...any) {
	l.log.Debug("badger: " + trimNL(fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Debugf(f string, a ...any) {
	l.log.Debug("badger: " + trimNL(fmt.Sprintf(f, a...)))
}

func trimNL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
