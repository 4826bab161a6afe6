package analytics

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	badger "github.com/dgraph-io/badger/v4"
)

// snapshot is an immutable view of one committed state of the store. A
// snapshot opened from a store knows only the derived head at first (the
// fingerprint, counts and coverage); its cells and runs are read from
// Badger on first need, once, and then shared: ensureCells reads every
// cell record, ensureRuns every run. Queries that pin cell fields read
// only the posting lists and cell records they need (lazyCells). A
// snapshot built in memory (newSnapshot) has everything from the start.
type snapshot struct {
	fp    string
	nRuns int
	cov   []SeriesCoverage

	lazy *lazyCells // nil: built in memory

	cellsOnce  sync.Once
	cellsErr   error
	cells      []Cell // every cell, in cell order; RunIDs in ids when it is set (see fullCell)
	ids        []cellIDs
	cellsReady atomic.Bool // set once cells are read (cellsLoaded)
	runsReady  atomic.Bool // set once runs are read (runsLoaded)
	keys       map[CellKey]int
	index      cellIndex // how queries find cells and their runs

	runsOnce sync.Once
	runsErr  error
	runs     []Run // every run, cell after cell, each cell in repetition order

	byIDOnce sync.Once
	byID     []int32 // positions in runs, in ID order

	colsMu sync.Mutex
	cols   map[string]*runColumn // the columns loaded so far, by field (see columns)
}

// newSnapshot builds a snapshot of the runs in memory.
func newSnapshot(runs []Run) *snapshot {
	keys, groups := groupRuns(runs)
	ordered := make([]Run, 0, len(runs))
	for _, g := range groups {
		for _, i := range g {
			ordered = append(ordered, runs[i])
		}
	}
	_ = keys
	snap := &snapshot{}
	var cells []Cell
	b := newDerivedBuilder(0, func(c *Cell) error { cells = append(cells, *c); return nil })
	for i := range ordered {
		_ = b.addRun(&ordered[i]) // in cell order by construction
	}
	_ = b.finish()
	snap.fp, snap.nRuns, snap.cov = fingerprint(runs), len(runs), b.head.Coverage
	snap.setCells(cells)
	snap.setRuns(ordered)
	snap.cellsOnce.Do(func() {})
	snap.runsOnce.Do(func() {})
	return snap
}

// newLazySnapshot is a snapshot of a store's committed generation.
func newLazySnapshot(s *Store, h derivedHead, m manifest) *snapshot {
	return &snapshot{fp: h.Fingerprint, nRuns: h.Runs, cov: h.Coverage,
		lazy: &lazyCells{s: s, head: h, manifest: m, chunks: map[int]cellChunk{}}}
}

func (snap *snapshot) setCells(cells []Cell) {
	snap.cells = cells
	snap.keys = make(map[CellKey]int, len(cells))
	ix := cellIndex{start: make([]int, 0, len(cells)+1), cellEnvs: make([]runEnv, len(cells)), posts: map[pin][]int{}}
	n := 0
	for c := range cells {
		k := cells[c].CellKey
		snap.keys[k] = c
		ix.start = append(ix.start, n)
		n += cells[c].Reps
		ix.cellEnvs[c] = cellEnvOf(k)
		for _, p := range pinsOf(k) {
			ix.posts[p] = append(ix.posts[p], c)
		}
	}
	ix.start = append(ix.start, n)
	snap.index = ix
}

// setRuns installs the runs (in cell order) and their filter environments.
func (snap *snapshot) setRuns(runs []Run) {
	snap.runs = runs
	snap.index.envs = make([]runEnv, len(runs))
	for i := range runs {
		snap.index.envs[i] = newRunEnv(&runs[i])
	}
}

// ensureCells reads every cell record (once).
func (snap *snapshot) ensureCells() error {
	snap.cellsOnce.Do(func() {
		cells, ids, err := snap.lazy.allCells()
		if err != nil {
			snap.cellsErr = err
			return
		}
		snap.setCells(cells)
		snap.ids = ids
		snap.cellsReady.Store(true)
	})
	return snap.cellsErr
}

// ensureRuns reads every run (once), checking them against the cell
// records and the manifest's count and digest per session.
func (snap *snapshot) ensureRuns(ctx context.Context) error {
	if err := snap.ensureCells(); err != nil {
		return err
	}
	snap.runsOnce.Do(func() {
		runs, err := snap.lazy.allRuns(ctx, snap.fullCells(), snap.keys, snap.index.start)
		if err != nil {
			snap.runsErr = err
			return
		}
		snap.setRuns(runs)
		snap.runsReady.Store(true)
	})
	return snap.runsErr
}

// runsLoaded says whether every run is in memory (without waiting for a
// query loading them now).
func (snap *snapshot) runsLoaded() bool { return snap.lazy == nil || snap.runsReady.Load() }

// fullCell is cell c with its run IDs (decoded now if they were not).
func (snap *snapshot) fullCell(c int) Cell {
	v := snap.cells[c]
	if snap.ids != nil && v.RunIDs == nil {
		v.RunIDs = snap.ids[c].get()
	}
	return v
}

// fullCells is every cell with its run IDs (a copy of the list).
func (snap *snapshot) fullCells() []Cell {
	out := make([]Cell, len(snap.cells))
	for c := range out {
		out[c] = snap.fullCell(c)
	}
	return out
}

// cellsLoaded says whether the cells are read (without waiting for a
// query reading them now).
func (snap *snapshot) cellsLoaded() bool { return snap.lazy == nil || snap.cellsReady.Load() }

// idOrder is the positions of the loaded runs in ID order, sorted once.
func (snap *snapshot) idOrder() []int32 {
	snap.byIDOnce.Do(func() {
		snap.byID = make([]int32, len(snap.runs))
		for i := range snap.byID {
			snap.byID[i] = int32(i)
		}
		slices.SortFunc(snap.byID, func(a, b int32) int { return strings.Compare(snap.runs[a].ID, snap.runs[b].ID) })
	})
	return snap.byID
}

// runByID finds a loaded run by ID.
func (snap *snapshot) runByID(id string) (Run, bool) {
	snap.idOrder()
	i := sort.Search(len(snap.byID), func(i int) bool { return snap.runs[snap.byID[i]].ID >= id })
	if i < len(snap.byID) && snap.runs[snap.byID[i]].ID == id {
		return snap.runs[snap.byID[i]], true
	}
	return Run{}, false
}

// lazyCells reads one generation's derived data and runs from Badger.
type lazyCells struct {
	s        *Store
	head     derivedHead
	manifest manifest

	mu     sync.Mutex
	chunks map[int]cellChunk // chunks read by a pinned query, by number
	posts  map[pin][]int
}

// cellChunk is one chunk's cells, their run IDs left to ids: a pinned
// query needs the IDs of a few cells of the chunk holding them, and
// decoding every cell's was most of a selective query at a million runs.
type cellChunk struct {
	cells []Cell
	ids   []cellIDs
}

func (l *lazyCells) corrupt(err error, format string, a ...any) error {
	return corrupt(l.s.dir, err, format, a...)
}

// chunk returns one chunk of cell records, read once and kept.
func (l *lazyCells) chunk(i int) (cellChunk, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.chunks[i]; ok {
		return c, nil
	}
	cells, ids, err := l.lazyChunk(i)
	if err != nil {
		return cellChunk{}, err
	}
	c := cellChunk{cells, ids}
	l.chunks[i] = c
	return c, nil
}

// lazyChunk reads one chunk of cell records without decoding their run
// IDs (see cellIDs).
func (l *lazyCells) lazyChunk(i int) ([]Cell, []cellIDs, error) {
	key := derivedKey(l.head.Generation, cellChunkName(i))
	var (
		cells []Cell
		ids   []cellIDs
	)
	err := l.s.viewValue(key, func(v []byte) error {
		payload, err := openValue(key, v)
		if err == nil {
			cells, ids, err = decodeCellChunk(payload, true) // copies what it keeps
		}
		return err
	})
	if err != nil {
		return nil, nil, l.corrupt(err, "the cell index cannot be read (%v)", err)
	}
	if want := l.chunkLen(i); len(cells) != want {
		return nil, nil, l.corrupt(nil, "cell chunk %d holds %d cells, the index says %d", i, len(cells), want)
	}
	return cells, ids, nil
}

func (l *lazyCells) chunkLen(i int) int {
	st := l.head.ChunkStarts
	if i+1 < len(st) {
		return st[i+1] - st[i]
	}
	return l.head.Cells - st[i]
}

// viewValue calls fn with one value, in place (valid during the call
// only); a missing key is an error. A panic inside Badger (damaged blocks)
// is a CorruptError.
func (s *Store) viewValue(key []byte, fn func(v []byte) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicked(s.dir, "reading the store", p)
		}
	}()
	return s.view(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("%s is missing", key)
		}
		if err != nil {
			return err
		}
		return item.Value(fn)
	})
}

// cellWith is cell c, with its run IDs only when withIDs: decoded, they
// stay with the chunk for the process's life.
func (l *lazyCells) cellWith(c int, withIDs bool) (Cell, error) {
	i := sort.SearchInts(l.head.ChunkStarts, c+1) - 1
	if i < 0 || c >= l.head.Cells {
		return Cell{}, l.corrupt(nil, "the cell index has no cell %d", c)
	}
	chunk, err := l.chunk(i)
	if err != nil {
		return Cell{}, err
	}
	j := c - l.head.ChunkStarts[i]
	cell := chunk.cells[j]
	if withIDs {
		cell.RunIDs = chunk.ids[j].get()
	}
	return cell, nil
}

// posting returns the cells holding a cell-field value, ascending.
func (l *lazyCells) posting(p pin) ([]int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.posts[p]; ok {
		return c, nil
	}
	name := pinName(p)
	want, listed := l.head.Pins[name]
	var cells []int
	var err error
	if listed { // a value no cell holds has no list
		key := derivedKey(l.head.Generation, name)
		var v []byte
		v, err = l.s.getValue(key)
		if err == nil && v == nil {
			err = fmt.Errorf("%s is missing", key)
		}
		if err == nil {
			var payload []byte
			if payload, err = openValue(key, v); err == nil {
				cells, err = decodePosting(payload, l.head.Cells)
			}
		}
		if err == nil && len(cells) != want {
			err = fmt.Errorf("%s lists %d cells, the head %d", key, len(cells), want)
		}
	}
	if err != nil {
		return nil, l.corrupt(err, "the cell index cannot be read (%v)", err)
	}
	if l.posts == nil {
		l.posts = map[pin][]int{}
	}
	l.posts[p] = cells
	return cells, nil
}

// allCells reads every cell record in cell order, each cell's run IDs
// left to ids (decoded on first need; those of a chunk a pinned query read
// already are that chunk's, decoded where it needed them).
func (l *lazyCells) allCells() (cells []Cell, ids []cellIDs, err error) {
	cells = make([]Cell, 0, l.head.Cells)
	ids = make([]cellIDs, 0, l.head.Cells)
	for i := range l.head.ChunkStarts {
		l.mu.Lock()
		c, ok := l.chunks[i]
		l.mu.Unlock()
		if !ok {
			if c.cells, c.ids, err = l.lazyChunk(i); err != nil {
				return nil, nil, err
			}
			cells = append(cells, c.cells...)
			ids = append(ids, c.ids...)
			continue
		}
		cells = append(cells, c.cells...)
		for k := range c.ids {
			// Only what a record holds, never changed: a pinned query may
			// be decoding the IDs of the kept chunk's cells now.
			ids = append(ids, cellIDs{raw: c.ids[k].raw, n: c.ids[k].n, total: c.ids[k].total, coded: c.ids[k].coded})
		}
	}
	l.mu.Lock()
	l.chunks = map[int]cellChunk{} // held by the snapshot from now on
	l.mu.Unlock()
	if len(cells) != l.head.Cells {
		return nil, nil, l.corrupt(nil, "the cell index holds %d cells, its head says %d", len(cells), l.head.Cells)
	}
	for i := 1; i < len(cells); i++ {
		if CompareCellKeys(cells[i-1].CellKey, cells[i].CellKey) >= 0 {
			return nil, nil, l.corrupt(nil, "the cell index is out of order at cell %d", i)
		}
	}
	return cells, ids, nil
}

// cellRuns reads the runs of one cell by their IDs, in repetition order,
// and checks them against its record.
func (l *lazyCells) cellRuns(ctx context.Context, c *Cell) ([]Run, error) {
	runs := make([]Run, 0, c.Reps)
	err := l.s.view(func(txn *badger.Txn) error {
		for _, id := range c.RunIDs {
			r, found, err := getRun(txn, id)
			if err != nil {
				return err
			}
			if !found {
				return l.corrupt(nil, "run %s of cell %s is missing", id, describeKey(c.CellKey))
			}
			runs = append(runs, r)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, storeReadError(l.s.dir, "reading the runs of a cell", err)
	}
	if err := checkCellRuns(c, runs); err != nil {
		return nil, l.corrupt(nil, "%v", err)
	}
	return runs, nil
}

func checkCellRuns(c *Cell, runs []Run) error {
	if len(runs) != len(c.RunIDs) {
		return fmt.Errorf("cell %s holds %d runs but the cell index says %d", describeKey(c.CellKey), len(runs), len(c.RunIDs))
	}
	for i := range runs {
		if runs[i].ID != c.RunIDs[i] || runs[i].Key() != c.CellKey {
			return fmt.Errorf("cell %s: run %s is not the run the cell index names (%s)", describeKey(c.CellKey), runs[i].ID, c.RunIDs[i])
		}
	}
	return nil
}

func describeKey(k CellKey) string {
	return fmt.Sprintf("s%d/%s/%s/%dc/%s/%dB/p%d", k.Session, k.Engine, k.Mode, k.Cores, k.Ratio, k.ValueBytes, k.Pipeline)
}

// allRuns reads every run (in ID order, the order they are stored in),
// checks the runs of each session against the manifest's count and
// digest, and lays them out in cell order, checking each cell's runs
// against its record.
func (l *lazyCells) allRuns(ctx context.Context, cells []Cell, keys map[CellKey]int, start []int) ([]Run, error) {
	runs := make([]Run, start[len(start)-1])
	// Runs come in ID order; each cell's record lists them in repetition
	// order. slot[c][k] is where the k-th of cell c's runs to come goes.
	slot := make([][]int32, len(cells))
	for c := range cells {
		ids := cells[c].RunIDs
		order := make([]int32, len(ids))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
		slot[c] = order
	}
	fill := make([]int32, len(cells))
	// Per session, by number: a million runs come from a handful of
	// sessions, so no key string per run.
	type tally struct {
		d digest256
		n int
	}
	tallies := map[int]*tally{}
	var last *tally
	lastSession := 0
	n := 0
	lastKey, lastCell := CellKey{}, -1 // the repetitions of a run ID come together
	err := l.s.scanRuns(ctx, func(key, v []byte, r *Run) error {
		if last == nil || r.Session != lastSession {
			if last = tallies[r.Session]; last == nil {
				last = &tally{}
				tallies[r.Session] = last
			}
			lastSession = r.Session
		}
		last.d.add(runDigest(key, v))
		last.n++
		n++
		k2 := r.Key()
		c, ok := lastCell, lastCell >= 0 && k2 == lastKey
		if !ok {
			if c, ok = keys[k2]; ok {
				lastKey, lastCell = k2, c
			}
		}
		if !ok || int(fill[c]) >= cells[c].Reps {
			return l.corrupt(nil, "run %s belongs to no cell of the cell index", r.ID)
		}
		runs[start[c]+int(slot[c][fill[c]])] = *r
		fill[c]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	sums := make(map[string]sessionSums, len(tallies))
	for session, t := range tallies {
		sums[sessionKey(session)] = sessionSums{Runs: t.n, Digest: t.d.String()}
	}
	if err := verify(l.s.dir, l.manifest, sums); err != nil {
		return nil, err
	}
	if n != len(runs) {
		return nil, l.corrupt(nil, "the store holds %d runs, the cell index %d", n, len(runs))
	}
	for c := range cells {
		if err := checkCellRuns(&cells[c], runs[start[c]:start[c+1]]); err != nil {
			return nil, l.corrupt(nil, "%v", err)
		}
	}
	return runs, nil
}
