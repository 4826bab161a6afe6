package analytics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	badger "github.com/dgraph-io/badger/v4"
)

// keepNote is the import keep rule: only the AWS scale captures are
// measurements; laptop rehearsals, smoke tests and diagnostics are skipped.
// Compiled on first use: a process that never needs it does not pay for it at start.
var keepNote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(sat-)?scale-\d+c$`) })

// Keep reports whether a parsed row is a measurement to store under the keep
// rule: its note matches ^(sat-)?scale-\d+c$ and it measured some throughput.
func Keep(r Run) bool { return keepNote().MatchString(r.Note) && r.OpsPerSec > 0 }

// ImportReport says what an import did.
type ImportReport struct {
	File           string         `json:"file"`
	Session        int            `json:"session"`
	Rows           int            `json:"rows"`            // data rows read
	Kept           int            `json:"kept"`            // rows passing the keep rule
	Added          int            `json:"added"`           // new runs written
	AlreadyPresent int            `json:"already_present"` // identical runs already stored (idempotent re-import)
	Skipped        map[string]int `json:"skipped"`         // note → rows skipped by the keep rule
	// Implausible lists the implausible rows an import that allowed them
	// took (the first maxProblems; ImplausibleRows counts them all).
	Implausible     []RowProblem `json:"implausible,omitempty"`
	ImplausibleRows int          `json:"implausible_rows,omitempty"`
}

// SkippedRows is the total number of rows the keep rule skipped.
func (r ImportReport) SkippedRows() int {
	n := 0
	for _, c := range r.Skipped {
		n += c
	}
	return n
}

// RowProblem is one bad field of one CSV line. Column is empty when the
// problem concerns the whole line.
type RowProblem struct {
	Line   int    `json:"line"`
	Column string `json:"column"`
	Reason string `json:"reason"`
}

// String formats the problem as "line N, column C: reason".
func (p RowProblem) String() string {
	if p.Column == "" {
		return fmt.Sprintf("line %d: %s", p.Line, p.Reason)
	}
	return fmt.Sprintf("line %d, column %s: %s", p.Line, p.Column, p.Reason)
}

// ImportError lists every problem found in a file; nothing was written.
type ImportError struct {
	File     string
	Problems []RowProblem
}

func (e *ImportError) Error() string {
	if len(e.Problems) == 0 {
		return "import " + e.File + ": invalid"
	}
	more := ""
	if n := len(e.Problems) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more problems)", n)
	}
	return fmt.Sprintf("import %s: nothing written: %s%s", e.File, e.Problems[0], more)
}

// ErrBadSession is returned for a session number below 1.
var ErrBadSession = errors.New("session must be a positive number")

// ImportProgress is how far an import has got, reported while it runs.
type ImportProgress struct {
	Phase     string // "checking" (first pass: validation), "writing" (second pass), "indexing" (the derived data and the commit; no row counts)
	Rows      int    // rows done in this phase
	TotalRows int    // rows the phase will handle; 0 while unknown (first pass)
	Bytes     int64  // bytes read in this phase
}

// ImportOptions tune one import.
type ImportOptions struct {
	// Progress, when set, is called every few thousand rows.
	Progress func(ImportProgress)
	// Size is the file's size in bytes when known (for progress), else 0.
	Size int64
	// AllowImplausible imports rows that break a plausibility rule
	// (see implausible), counting them in the report and the manifest,
	// instead of refusing the file.
	AllowImplausible bool
	// Unchanged, when set, is called once the whole input has been read,
	// with the number of bytes read, before anything is written: an error
	// (the file changed while it was read, say) refuses the import.
	Unchanged func(read int64) error
}

// progressEvery is how many rows pass between progress reports.
const progressEvery = 8192

// diskCheckEvery is how many rows an import writes between checks of free
// space (a statfs and a fallocate of the open logs: microseconds).
const diskCheckEvery = 256

// importDiskFactor is the free space an import needs, as a multiple of the
// file's size: the kept copy (1x) and the store's share (measured at 1M
// synthetic rows: 2.5x with the runs in the value log, as a store open
// for anything but the import command writes them; the import command's
// tables, 0.65x, and as much again while its final merge writes them
// anew), with room for compactions.
const importDiskFactor = 4

// Import validates every row of one CSV, then writes all kept rows, all or
// nothing, and commits them with the manifest. See ImportWith.
func (s *Store) Import(ctx context.Context, name string, r io.Reader, session int) (ImportReport, error) {
	return s.ImportWith(ctx, name, r, session, ImportOptions{})
}

// ImportWith streams one CSV twice, holding one row at a time: the first
// pass validates every row (a failure is an *ImportError listing every bad
// line, and nothing is written) while copying the file into the data
// directory; the second pass writes the new runs from that copy in batches
// after a pending-import marker, and one small transaction commits them
// with the manifest. A crash before the commit leaves the marker, and the
// next Open rolls the partial import back; so the store holds the old runs
// or the new ones, never a mix. Rows already stored with identical values
// are counted as AlreadyPresent, so re-importing a file changes nothing; a
// stored run with the same ID but different values is a problem on that
// line. Memory does not grow with the file beyond about 8 bytes per row (the
// duplicate check).
func (s *Store) ImportWith(ctx context.Context, name string, r io.Reader, session int, opts ImportOptions) (ImportReport, error) {
	rep, err := s.importWith(ctx, name, r, session, opts)
	if err != nil && !errors.Is(err, ErrDiskFull) && isNoSpace(err) {
		// A disk that filled under a write (the kept copy, Badger's
		// files) is a full disk, said with the space needed, whatever
		// wrote.
		err = noSpace(s.dir, s.minFree+uint64(max(opts.Size, 0))*importDiskFactor, err)
	}
	return rep, err
}

func (s *Store) importWith(ctx context.Context, name string, r io.Reader, session int, opts ImportOptions) (ImportReport, error) {
	rep := ImportReport{File: name, Session: session, Skipped: map[string]int{}}
	if session < 1 {
		return rep, fmt.Errorf("import %s: %w, got %d", name, ErrBadSession, session)
	}
	if s.readOnly {
		return rep, fmt.Errorf("import %s: the store is open read-only", name)
	}
	s.importMu.Lock()
	defer s.importMu.Unlock()
	if err := s.disk.check(opts.Size * importDiskFactor); err != nil {
		return rep, fmt.Errorf("import %s: nothing written: %w", name, err)
	}

	src, err := s.newSourceCopy(name)
	if err != nil {
		return rep, fmt.Errorf("import %s: %w", name, err)
	}
	defer src.discard()

	started := time.Now()
	counted := &countingReader{r: r}
	plan, err := s.checkPass(ctx, importPlan{name: name, session: session}, io.TeeReader(counted, src), src.open, opts, &rep)
	var bad *ImportError
	if opts.Unchanged != nil && (err == nil || errors.As(err, &bad)) {
		// A file that changed is said first: its problems may be the change.
		if cerr := opts.Unchanged(counted.n); cerr != nil {
			return rep, fmt.Errorf("import %s: nothing written: %w", name, cerr)
		}
	}
	if err != nil {
		return rep, err
	}
	s.log.Debug("import checked", "file", name, "rows", rep.Rows, "fresh", plan.fresh, "took", time.Since(started))
	if plan.fresh == 0 {
		s.log.Info("imported runs", "file", name, "session", session, "rows", rep.Rows,
			"added", 0, "already_present", rep.AlreadyPresent, "skipped", rep.SkippedRows())
		return rep, nil
	}
	return rep, s.writeAndCommit(ctx, []importPart{{src: src, plan: plan, rep: &rep}}, opts, false)
}

// importPlan is what the first pass learned.
type importPlan struct {
	name    string
	session int
	fresh   int      // runs to write
	isFresh []uint64 // bit i: data row i (0-based) is a run to write
	// collect keeps the runs to write in runs, so the second pass writes
	// them without reading the file again (a small file: the embedded
	// dataset).
	collect bool
	runs    []Run
	// emptyStore: the rows are checked as for a store holding no runs,
	// without reading it (a first use reads its files while the store
	// opens; see readEmbeddedAhead).
	emptyStore bool
}

// add marks data row `row` (1-based) a run to write.
func (p *importPlan) add(row int, r *Run) {
	p.fresh++
	p.markFresh(row - 1)
	if p.collect {
		p.runs = append(p.runs, *r)
	}
}

func (p *importPlan) markFresh(row int) {
	for len(p.isFresh) <= row/64 {
		p.isFresh = append(p.isFresh, 0)
	}
	p.isFresh[row/64] |= 1 << (row % 64)
}

func (p *importPlan) isFreshRow(row int) bool {
	return row/64 < len(p.isFresh) && p.isFresh[row/64]&(1<<(row%64)) != 0
}

// checkPass is the first pass: every row validated, duplicates and
// conflicts found, nothing written. It holds a hash of each run ID (see
// runIDSet); when a hash repeats, it checks the rows again from reread
// (the input from its start), comparing the IDs with that hash, so the
// report and the problems are those of an exact check.
func (s *Store) checkPass(ctx context.Context, plan importPlan, r io.Reader, reread func() (io.ReadCloser, error),
	opts ImportOptions, rep *ImportReport) (importPlan, error) {
	ids := newRunIDSet()
	checked, err := s.checkRows(ctx, plan, r, opts, rep, ids, nil)
	if err != nil && !errors.As(err, new(*ImportError)) {
		return checked, err
	}
	repeated := ids.repeated()
	if repeated == nil {
		return checked, err
	}
	rd, err := reread()
	if err != nil {
		return checked, fmt.Errorf("import %s: nothing written: %w", plan.name, err)
	}
	defer rd.Close()
	*rep = ImportReport{File: rep.File, Session: rep.Session, Skipped: map[string]int{}}
	return s.checkRows(ctx, plan, rd, opts, rep, ids, repeated)
}

// checkRows reads and checks every row for checkPass: it adds each kept
// run's ID to ids, or, given the hashes that repeated, compares the IDs
// with those hashes and reports the duplicates.
func (s *Store) checkRows(ctx context.Context, plan importPlan, r io.Reader, opts ImportOptions, rep *ImportReport,
	ids *runIDSet, repeated map[uint64]bool) (importPlan, error) {
	name, session := plan.name, plan.session
	counted := &countingReader{r: r}
	firstLine := map[string]int32{} // a run ID whose hash repeated → its first line
	// A run's ID starts with its session (MakeID), so a session the store
	// holds no runs of cannot hold any row's ID: no lookups needed.
	sessionStored := !plan.emptyStore && s.committed().Sessions[sessionKey(session)].Runs > 0
	// The store as it was, read here only: an open read transaction keeps
	// Badger's record of every later commit (for conflict checks) alive, so
	// it must not outlive this pass.
	var before *badger.Txn
	if sessionStored {
		before = s.db.NewTransaction(false)
		defer before.Discard()
	}
	var extra []RowProblem
	probs, err := scanCSV(counted, session, name, func(row csvRow) error {
		rep.Rows++
		if rep.Rows%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if opts.Progress != nil {
				opts.Progress(ImportProgress{Phase: "checking", Rows: rep.Rows, Bytes: counted.n})
			}
			if rep.Rows%releaseEvery == 0 && s.dir != "" {
				releaseMappedPages(s.dir) // the lookups below read the stored tables
			}
		}
		if row.probs != nil {
			return nil
		}
		if row.odd != nil {
			if !opts.AllowImplausible {
				extra = append(extra, row.odd...)
				return nil
			}
			rep.ImplausibleRows++
			if len(rep.Implausible) < maxProblems {
				rep.Implausible = append(rep.Implausible, row.odd...)
			}
		}
		run := row.run
		if !Keep(run) {
			rep.Skipped[run.Note]++
			return nil
		}
		rep.Kept++
		if repeated == nil {
			ids.add(run.ID)
		} else if repeated[ids.hash(run.ID)] {
			if first, dup := firstLine[run.ID]; dup {
				extra = append(extra, RowProblem{Line: row.line, Column: "run_id",
					Reason: fmt.Sprintf("duplicate run ID %s (first on line %d)", run.ID, first)})
				return nil
			}
			firstLine[run.ID] = int32(row.line)
		}
		if !sessionStored {
			plan.add(rep.Rows, &run)
			return nil
		}
		stored, found, err := getRun(before, run.ID)
		if err != nil {
			return err
		}
		if found {
			if stored.sameMeasurement(run) {
				rep.AlreadyPresent++
				return nil
			}
			extra = append(extra, RowProblem{Line: row.line, Column: "run_id",
				Reason: fmt.Sprintf("run ID %s is already stored with different values", run.ID)})
			return nil
		}
		plan.add(rep.Rows, &run)
		return nil
	})
	if err != nil {
		return plan, fmt.Errorf("import %s: nothing written: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return plan, fmt.Errorf("import %s: nothing written: %w", name, err)
	}
	probs = append(probs, extra...)
	if len(probs) > 0 {
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
		if len(probs) > maxProblems {
			probs = probs[:maxProblems]
		}
		return plan, &ImportError{File: name, Problems: probs}
	}
	return plan, nil
}

// importPart is one file of an import: the first pass's plan and report,
// and the copy its second pass reads the rows from (unless the plan
// collected them).
type importPart struct {
	src  *sourceCopy
	plan importPlan
	rep  *ImportReport
}

// writeAndCommit is the second pass: the marker, the runs of every part
// in batches, then one commit of them all (one generation).
func (s *Store) writeAndCommit(ctx context.Context, parts []importPart, opts ImportOptions, embedded bool) error {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.plan.name
	}
	name := strings.Join(names, ", ")
	fail := func(err error) error { return fmt.Errorf("import %s: nothing written: %w", name, err) }
	started := time.Now()
	for _, p := range parts {
		if err := p.src.finish(); err != nil {
			return fail(err)
		}
		if err := p.src.writeSidecar(p.plan.name, p.plan.session); err != nil {
			return fail(err)
		}
	}
	next := s.committed()
	pend := pendingImport{Generation: next.Generation + 1, Name: name, Session: parts[0].plan.session, Copy: parts[0].src.rel}
	if err := errors.Join(fault("badger.marker"), s.db.Update(func(txn *badger.Txn) error { return setJSON(txn, pendingKey, pend) })); err != nil {
		return fail(err)
	}
	// The marker must be durable before anything it rolls back is: a kept
	// source copy, or runs written. Badger's log is written and replayed in
	// order, so a run that survives a crash implies the marker before it
	// did; the embedded dataset keeps no copy, so only a file's import
	// syncs here.
	if !embedded {
		if err := s.syncIfOnDisk(); err != nil {
			return fail(err)
		}
	}
	s.stage("marker")
	committed := false
	defer func() {
		if !committed {
			s.abandon(context.WithoutCancel(ctx))
		}
	}()
	wb := s.newBulkBatch()
	defer wb.Cancel()
	written := 0
	sums := make([]digest256, len(parts))
	for i, p := range parts {
		if err := p.src.keep(); err != nil {
			return fail(err)
		}
		put := func(r *Run) error {
			if s.beforeWrite != nil {
				if err := s.beforeWrite(written); err != nil {
					return err
				}
			}
			if err := s.putRun(wb, r, func(key, val []byte) { sums[i].add(runDigest(key, val)) }); err != nil {
				return err
			}
			written++
			return nil
		}
		before := written
		if err := s.writePart(ctx, p, opts, put); err != nil {
			return fail(err)
		}
		if n := written - before; n != p.plan.fresh {
			return fail(fmt.Errorf("the file changed while importing: %d new runs on the second pass, %d on the first", n, p.plan.fresh))
		}
	}
	s.log.Debug("import rows handed to Badger", "file", name, "took", time.Since(started))
	if err := wb.Flush(); err != nil {
		return fail(err)
	}
	s.log.Debug("import rows written", "file", name, "runs", written, "took", time.Since(started))
	s.stage("flushed")
	if opts.Progress != nil {
		opts.Progress(ImportProgress{Phase: "indexing"})
	}

	// The commit: manifest, derived head, format and marker in one
	// transaction, after the derived data of the new generation.
	next.Generation = pend.Generation
	next.Format = storeFormat
	for i, p := range parts {
		k := sessionKey(p.plan.session)
		ss := next.Sessions[k]
		d, err := parseDigest(ss.Digest)
		if err != nil {
			return fail(corrupt(s.dir, err, "the manifest of session %d: %v", p.plan.session, err))
		}
		d.add(sums[i])
		next.Sessions[k] = sessionSums{Runs: ss.Runs + p.plan.fresh, Digest: d.String()}
		next.Sources = append(next.Sources, importSource{Generation: pend.Generation, Name: p.plan.name, Session: p.plan.session,
			Embedded: embedded, Copy: p.src.rel, SHA256: p.src.sha256(), Added: p.plan.fresh, Implausible: p.rep.ImplausibleRows})
	}
	head, err := s.derivedOfImport(ctx, next)
	if err != nil {
		return fail(err)
	}
	s.stage("derived")
	if err := s.commitGeneration(next, head, pendingKey); err != nil {
		return fail(err)
	}
	committed = true
	for _, p := range parts {
		p.src.kept = true
	}
	s.stage("committed")
	// The store's view follows the commit before anything else can fail:
	// a later import must build on this generation, not the one before.
	s.mu.Lock()
	s.manifest = next
	if !s.held {
		s.snap = newLazySnapshot(s, head, next)
	}
	s.mu.Unlock()
	// The embedded dataset's imports sync once, in ImportDefault after the
	// last (see the marker above for why an unsynced commit stays whole).
	if !embedded {
		if err := s.syncIfOnDisk(); err != nil {
			return fmt.Errorf("import %s: committed, but syncing failed: %w", name, err)
		}
	}
	// The embedded dataset's imports leave the mirror to ImportDefault,
	// which writes it once after the last, synced: a mirror behind the
	// store is caught up by the next open, so a crash in between loses
	// nothing, and it is never ahead of what Badger holds durably.
	if s.dir != "" && !embedded {
		if err := writeManifestFile(s.dir, next); err != nil {
			return fmt.Errorf("import %s: committed, but writing %s failed (the next open rewrites it): %w", name, manifestFile, err)
		}
	}
	if err := s.dropStaleGenerations(context.WithoutCancel(ctx), next.Generation-1); err != nil {
		s.log.Warn("the old cell index stays until the next open", "err", err)
	}
	for _, p := range parts {
		p.rep.Added = p.plan.fresh
		s.log.Info("imported runs", "file", p.plan.name, "session", p.plan.session, "rows", p.rep.Rows,
			"added", p.rep.Added, "already_present", p.rep.AlreadyPresent, "skipped", p.rep.SkippedRows())
	}
	return nil
}

// writePart hands put the runs of one part: those its first pass
// collected, or else each fresh row of its source copy, read again.
func (s *Store) writePart(ctx context.Context, p importPart, opts ImportOptions, put func(*Run) error) error {
	if p.plan.collect {
		for i := range p.plan.runs {
			if err := put(&p.plan.runs[i]); err != nil {
				return err
			}
		}
		return ctx.Err()
	}
	rd, err := p.src.open()
	if err != nil {
		return err
	}
	defer rd.Close()
	rows := 0
	counted := &countingReader{r: rd}
	_, err = scanCSV(counted, p.plan.session, p.plan.name, func(row csvRow) error {
		rows++
		if rows%diskCheckEvery == 0 {
			// Often enough that the writes Badger has in hand when the
			// disk fills stay well within the floor.
			if err := s.disk.check(0); err != nil {
				return err
			}
		}
		if rows%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if rows%releaseEvery == 0 {
				if err := s.releaseWritten(); err != nil {
					return err
				}
			}
			if opts.Progress != nil {
				opts.Progress(ImportProgress{Phase: "writing", Rows: rows, TotalRows: p.rep.Rows, Bytes: counted.n})
			}
		}
		if !p.plan.isFreshRow(rows - 1) {
			return nil
		}
		return put(&row.run)
	})
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// derivedOfImport is writeGeneration, in the import command's process
// (which merges at close) under derivedMemoryLimit: the derived pass
// reads the unmerged flushes through a table iterator each, beside the
// memtables its writes flush, and under the import's limit the collector
// ran some 280 times in a million runs' pass.
func (s *Store) derivedOfImport(ctx context.Context, m manifest) (derivedHead, error) {
	if s.mergeWith != nil {
		// The runs' last pages and heap go back first: at 3M runs the
		// pass began with 50 MB of them on top of its own (the peak).
		if err := s.releaseWritten(); err != nil {
			return derivedHead{}, err
		}
		debug.FreeOSMemory()
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(derivedMemoryLimit))
	}
	return s.writeGeneration(ctx, m)
}

func (s *Store) stage(name string) {
	if s.atStage != nil {
		s.atStage(name)
	}
	if testStage != nil {
		testStage(name)
	}
}

// testStage, when set (crash tests only), is called at each stage of every
// store, those Open goes through (a migration) included.
var testStage func(stage string)

// abandon rolls back a failed import at once, as the next open would.
func (s *Store) abandon(ctx context.Context) {
	if s.disk.tripped.Load() {
		// Its deletes could make Badger create files on the full disk.
		s.log.Warn("the import stopped on a full disk; it is rolled back once space is freed, or by the next open")
		return
	}
	if err := s.recoverPending(ctx); err != nil {
		s.log.Warn("rolling back a failed import; the next open retries", "err", err)
	}
}

func (s *Store) syncIfOnDisk() error {
	if s.dir == "" {
		return nil
	}
	if err := fault("badger.sync"); err != nil {
		return err
	}
	return s.db.Sync()
}

func (s *Store) committed() manifest {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.manifest.clone()
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
