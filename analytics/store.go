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
)

// Key prefixes inside the one Badger database.
const (
	runPrefix = "run/"
	kvPrefix  = "kv/"
)

// gcInterval is how often the value-log garbage collector runs.
const gcInterval = 5 * time.Minute

// Options configure Open.
type Options struct {
	Dir      string       // data directory; ignored when InMemory
	InMemory bool         // Badger in-memory mode, for tests
	Logger   *slog.Logger // nil: discard
}

// Store holds the runs in Badger and an in-memory index loaded once at Open;
// queries read the index only. It is safe for concurrent use.
type Store struct {
	db  *badger.DB
	log *slog.Logger

	importMu sync.Mutex // serializes imports

	mu   sync.RWMutex
	snap *snapshot // replaced, never mutated, after each import

	filters *filterCache // compiled filters by text; nil compiles each time

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	// beforeWrite, when set (tests only), is called before the i-th run of
	// an import is written inside the import transaction; an error aborts
	// the import.
	beforeWrite func(i int) error
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

// Open opens (creating if needed) the store and loads its runs into memory.
func Open(ctx context.Context, opts Options) (*Store, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bo := badger.DefaultOptions(opts.Dir).
		WithLogger(badgerLogger{log}).
		WithMemTableSize(16 << 20).
		WithBlockCacheSize(8 << 20).
		WithValueLogFileSize(64 << 20).
		WithNumVersionsToKeep(1)
	if opts.InMemory {
		bo = bo.WithDir("").WithValueDir("").WithInMemory(true)
	} else {
		if opts.Dir == "" {
			return nil, errors.New("open store: no data directory given")
		}
		if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	db, err := badger.Open(bo)
	if err != nil {
		// Badger reports a held directory lock only in its message (it does
		// not wrap the cause outside its debug mode), so the text is all
		// there is to recognise it by.
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("%w: %s is open in another memdb-oracle process (such as serve): ask that process over POST /api/ask, stop it, or use another --data directory", ErrInUse, opts.Dir)
		}
		return nil, fmt.Errorf("open store in %s: %w", opts.Dir, err)
	}
	s := &Store{db: db, log: log, stop: make(chan struct{}), filters: newFilterCache()}
	runs, err := s.loadRuns(ctx)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	s.snap = newSnapshot(runs)
	if !opts.InMemory {
		s.wg.Add(1)
		go s.gcLoop()
	}
	log.Debug("store opened", "dir", opts.Dir, "in_memory", opts.InMemory, "runs", len(runs))
	return s, nil
}

// loadRuns reads every stored run from Badger.
func (s *Store) loadRuns(ctx context.Context) ([]Run, error) {
	var runs []Run
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 100, Prefix: []byte(runPrefix)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			item := it.Item()
			var r Run
			if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &r) }); err != nil {
				return fmt.Errorf("run %s: %w", item.Key(), err)
			}
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("loading runs: %w", err)
	}
	return runs, nil
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
