package analytics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Key prefixes inside the one Badger database.
const (
	runPrefix = "run/"
	kvPrefix  = "kv/"
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

// defaultMinFree is the free space a store needs before anything may grow
// it: the memory-mapped memtable log (twice the memtable), a table flush
// and a compaction's worth, with slack.
const defaultMinFree = 6*memTableSize + 16<<20

// Options configure Open.
type Options struct {
	Dir      string       // data directory; ignored when InMemory
	InMemory bool         // Badger in-memory mode, for tests
	Logger   *slog.Logger // nil: discard

	// ReadOnly opens without writing anything (Badger's read-only mode);
	// Import and KV writes fail. A store that needs recovery (an
	// interrupted import) gives ErrNeedsRecovery.
	ReadOnly bool
	// DeferLoad skips loading the runs into memory at open: for commands
	// that only import. Queries on such a store see no runs until Load.
	DeferLoad bool
	// MinFreeBytes is the free space below which writes are refused (KV
	// writes fall back to memory); 0 means the default floor.
	MinFreeBytes int64
	// ForImport tunes Badger for writing many runs (see forImport): for
	// the import command's process. Ignored InMemory.
	ForImport bool
}

// Store holds the runs in Badger and an in-memory index loaded once at Open;
// queries read the index only. It is safe for concurrent use.
type Store struct {
	db       *badger.DB
	log      *slog.Logger
	dir      string // "" in memory
	readOnly bool
	minFree  uint64

	importMu sync.Mutex // serializes imports

	mu       sync.RWMutex
	snap     *snapshot // replaced, never mutated, after each import
	loaded   bool      // snap holds the stored runs (false with DeferLoad until Load)
	manifest manifest  // as last committed

	disk diskGuard // free-space checks and the in-memory fallback of KV writes

	filters *filterCache // compiled filters by text; nil compiles each time

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

// snapshot is an immutable view of the stored runs.
type snapshot struct {
	runs  []Run          // sorted by ID
	byID  map[string]int // ID → index in runs
	cells []Cell         // every cell, in cell order
	keys  map[CellKey]int
	cov   []SeriesCoverage // built once per snapshot; Coverage hands out copies
	fp    string
	index cellIndex // how queries find cells and their runs
}

// ErrInUse means the data directory is held by another process: Badger
// allows one at a time.
var ErrInUse = errors.New("data directory in use")

// Open opens (creating if needed) the store, finishes or rolls back an
// import a crash interrupted, checks the store against its manifest and
// loads its runs into memory. A damaged store gives a *CorruptError
// (errors.Is ErrCorrupt); nothing is answered from it.
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
		WithValueLogFileSize(valueLogFileSize).
		WithNumVersionsToKeep(1).
		WithNumCompactors(2).
		WithChecksumVerificationMode(options.OnBlockRead). // tables: verifyTables, before Badger opens

		WithVerifyValueChecksum(true).
		WithReadOnly(opts.ReadOnly)
	s := &Store{log: log, readOnly: opts.ReadOnly, stop: make(chan struct{}), manifest: emptyManifest(), filters: newFilterCache()}
	s.minFree = defaultMinFree
	if opts.MinFreeBytes > 0 {
		s.minFree = uint64(opts.MinFreeBytes)
	}
	if opts.InMemory {
		bo = bo.WithDir("").WithValueDir("").WithInMemory(true).WithReadOnly(false)
	} else {
		if opts.ForImport {
			bo = forImport(bo)
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
		if err := checkBadgerFiles(opts.Dir); err != nil {
			return nil, err
		}
		if err := verifyTables(opts.Dir); err != nil {
			return nil, err
		}
	}
	s.disk.init(s)
	db, err := openBadger(bo)
	if err != nil {
		// Badger reports a held directory lock only in its message (it does
		// not wrap the cause outside its debug mode), so the text is all
		// there is to recognise it by.
		switch {
		case strings.Contains(err.Error(), "Cannot acquire directory lock"):
			return nil, fmt.Errorf("%w: %s is open in another memdb-oracle process (such as serve): ask that process over POST /api/ask, stop it, or use another --data directory", ErrInUse, opts.Dir)
		case opts.ReadOnly && errors.Is(err, badger.ErrTruncateNeeded):
			return nil, fmt.Errorf("%w: %s was not closed cleanly", ErrNeedsRecovery, opts.Dir)
		case errors.Is(err, ErrCorrupt):
			return nil, err
		case strings.Contains(err.Error(), "checksum"):
			return nil, corrupt(opts.Dir, err, "a table file fails its checksum (%v)", err)
		}
		return nil, fmt.Errorf("open store in %s: %w", opts.Dir, err)
	}
	s.db = db
	if err := s.prepare(ctx, opts); err != nil {
		_ = db.Close()
		return nil, err
	}
	if !opts.InMemory && !opts.ReadOnly {
		s.wg.Add(1)
		go s.gcLoop()
	}
	log.Debug("store opened", "dir", opts.Dir, "in_memory", opts.InMemory, "read_only", opts.ReadOnly,
		"runs", s.manifest.totalRuns(), "loaded", s.loaded)
	return s, nil
}

// openBadger opens Badger, turning a panic on damaged files into an error.
func openBadger(bo badger.Options) (db *badger.DB, err error) {
	defer func() {
		if p := recover(); p != nil {
			db, err = nil, panicked(bo.Dir, "opening the Badger files", p)
		}
	}()
	return badger.Open(bo)
}

// prepare runs after Badger opened: recovery of an interrupted import, the
// manifest check, and (unless deferred) loading the runs.
func (s *Store) prepare(ctx context.Context, opts Options) error {
	if err := s.recoverPending(ctx); err != nil {
		return err
	}
	if err := s.checkManifest(ctx); err != nil {
		return err
	}
	s.snap = newSnapshot(nil)
	if opts.DeferLoad {
		return nil
	}
	return s.Load(ctx)
}

// Load reads every stored run, verifies them against the manifest and
// makes them what queries see. Open calls it unless Options.DeferLoad.
func (s *Store) Load(ctx context.Context) error {
	s.mu.RLock()
	m := s.manifest
	s.mu.RUnlock()
	runs, sums, err := s.readRuns(ctx)
	if err != nil {
		return err
	}
	if err := verify(s.dir, m, sums); err != nil {
		return err
	}
	next := newSnapshot(runs)
	s.mu.Lock()
	s.snap, s.loaded = next, true
	s.mu.Unlock()
	return nil
}

// loadRuns reads every stored run from Badger.
func (s *Store) loadRuns(ctx context.Context) ([]Run, error) {
	runs, _, err := s.readRuns(ctx)
	return runs, err
}

// readRuns reads every stored run and sums them per session the way the
// manifest does. A panic inside Badger (damaged blocks) is a CorruptError.
func (s *Store) readRuns(ctx context.Context) (runs []Run, sums map[string]sessionSums, err error) {
	defer func() {
		if p := recover(); p != nil {
			runs, sums, err = nil, nil, panicked(s.dir, "reading the runs", p)
		}
	}()
	digests := map[string]*digest256{}
	counts := map[string]int{}
	err = s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 100, Prefix: []byte(runPrefix)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			item := it.Item()
			var r Run
			err := item.Value(func(v []byte) error {
				if err := json.Unmarshal(v, &r); err != nil {
					return corrupt(s.dir, err, "run %s does not decode (%v)", item.Key(), err)
				}
				k := sessionKey(r.Session)
				if digests[k] == nil {
					digests[k] = &digest256{}
				}
				digests[k].add(runDigest(item.Key(), v))
				counts[k]++
				return nil
			})
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrCorrupt) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("loading runs: %w", err)
		}
		return nil, nil, corrupt(s.dir, err, "reading the runs failed (%v)", err)
	}
	sums = make(map[string]sessionSums, len(counts))
	for k, n := range counts {
		sums[k] = sessionSums{Runs: n, Digest: digests[k].String()}
	}
	return runs, sums, nil
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
			for s.db.RunValueLogGC(0.5) == nil {
				select {
				case <-s.stop:
					return
				default:
				}
			}
		}
	}
}

// Close stops the value-log GC loop and closes Badger. Calling it again
// returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.wg.Wait()
		if err := s.db.Close(); err != nil {
			s.closeErr = fmt.Errorf("close store: %w", err)
		}
	})
	return s.closeErr
}

func (s *Store) current() *snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap
}

// Runs returns every stored run in ID order (a copy).
func (s *Store) Runs() []Run {
	snap := s.current()
	out := make([]Run, len(snap.runs))
	for i, r := range snap.runs {
		out[i] = r.clone()
	}
	return out
}

// Run returns the stored run with the given ID.
func (s *Store) Run(id string) (Run, bool) {
	snap := s.current()
	i, ok := snap.byID[id]
	if !ok {
		return Run{}, false
	}
	return snap.runs[i].clone(), true
}

// Cells returns every measured cell in cell order (a copy).
func (s *Store) Cells() []Cell {
	snap := s.current()
	out := make([]Cell, len(snap.cells))
	for i, c := range snap.cells {
		out[i] = c.clone()
	}
	return out
}

// Fingerprint is a stable hash of every stored run (changes when runs are added).
func (s *Store) Fingerprint() string { return s.current().fp }

func newSnapshot(runs []Run) *snapshot {
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	snap := &snapshot{
		runs: runs,
		byID: make(map[string]int, len(runs)),
	}
	for i := range runs {
		snap.byID[runs[i].ID] = i
	}
	keys, groups := groupRuns(runs)
	snap.cells = make([]Cell, len(keys))
	vals := make([]float64, 0, 16)
	for c, k := range keys {
		snap.cells[c] = cellOf(runs, k, groups[c], vals)
	}
	snap.index = newCellIndex(runs, keys, groups)
	snap.keys = make(map[CellKey]int, len(snap.cells))
	for i, c := range snap.cells {
		snap.keys[c.CellKey] = i
	}
	snap.cov = coverage(snap)
	snap.fp = fingerprint(runs)
	return snap
}

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
