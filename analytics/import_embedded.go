package analytics

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ImportDefault imports the embedded dataset (both sessions) for every
// session the store holds no runs of yet, as one import: one generation,
// committed whole or rolled back whole. Safe to call on every start; it
// returns one report per file it imported (none when nothing was missing).
//
// The import is made durable (synced, then the manifest's mirror file
// written) before it returns; in a one-shot process (Options.Small) at
// Close instead, whose flush of the memtable syncs it anyway: syncing
// here too would only delay the answer. A crash before then loses at most
// a tail of Badger's log, which the next open replays up to the tear: the
// marker written first rolls back an import whose commit is missing, so
// the store holds all of the dataset or none of it, and no mirror ahead
// of it.
//
// A one-shot process's first use goes further: once the files are read
// and checked, the store answers from their runs, held in memory, while
// the import is written and committed on another goroutine (see
// WaitImport); Close waits for it.
func (s *Store) ImportDefault(ctx context.Context) ([]ImportReport, error) {
	have := s.StoredRuns()
	var missing []DatasetFile
	for _, f := range DefaultDataset() {
		if have[f.Session] == 0 {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	reports, err := s.importEmbedded(ctx, missing)
	if err != nil {
		return reports, fmt.Errorf("importing the embedded dataset: %w", err)
	}
	if s.dir == "" || len(reports) == 0 {
		return reports, nil
	}
	if s.oneShot {
		if s.background == nil { // else the import sets it once committed
			s.mirrorAtClose.Store(true)
		}
		return reports, nil
	}
	if err := s.db.Sync(); err != nil {
		return reports, fmt.Errorf("importing the embedded dataset: committed, but syncing failed: %w", err)
	}
	if err := writeManifestFile(s.dir, s.committed()); err != nil {
		return reports, fmt.Errorf("importing the embedded dataset: committed, but writing %s failed (the next open rewrites it): %w", manifestFile, err)
	}
	return reports, nil
}

// importEmbedded imports embedded files in one generation. Each is read
// once: the first pass keeps its runs (a few hundred) for the second. No
// copy is kept, since the binary holds them. A one-shot process's first
// use reads them while the store opens (readEmbeddedAhead) and writes them
// in the background (see ImportDefault).
func (s *Store) importEmbedded(ctx context.Context, files []DatasetFile) ([]ImportReport, error) {
	if s.readOnly {
		return nil, fmt.Errorf("import %s: the store is open read-only", files[0].Name())
	}
	s.importMu.Lock()
	unlock := true
	defer func() {
		if unlock {
			s.importMu.Unlock()
		}
	}()
	var (
		reports []ImportReport
		parts   []importPart
		snap    *snapshot
		err     error
	)
	if ahead := s.takeAhead(files); ahead != nil {
		<-ahead.done
		reports, parts, snap, err = ahead.reports, ahead.parts, ahead.snap, ahead.err
	} else {
		reports, parts, err = s.readEmbedded(ctx, files, false)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if err := s.disk.check(int64(len(p.src.embedded)) * importDiskFactor); err != nil {
			return nil, fmt.Errorf("import %s: nothing written: %w", p.plan.name, err)
		}
	}
	if len(parts) == 0 {
		return reports, nil
	}
	if !s.oneShot || s.committed().totalRuns() > 0 {
		return reports, s.writeAndCommit(ctx, parts, ImportOptions{}, true)
	}
	if snap == nil {
		snap = snapshotOf(parts)
	}
	s.holdInMemory(snap)
	bg := &backgroundImport{done: make(chan struct{})}
	s.background, unlock = bg, false
	go func() {
		defer close(bg.done)
		defer s.importMu.Unlock()
		bg.err = s.writeAndCommit(context.WithoutCancel(ctx), parts, ImportOptions{}, true)
		s.mu.Lock()
		s.held = false // a later import's snapshot replaces this one
		s.mu.Unlock()
		if bg.err == nil && s.current().fp != fingerprintOf(s.committed().Sessions) {
			bg.err = fmt.Errorf("the runs held in memory (%s) are not the ones committed (%s)", s.current().fp, fingerprintOf(s.committed().Sessions))
		}
		if bg.err == nil && s.dir != "" {
			s.mirrorAtClose.Store(true)
		}
	}()
	return reports, nil
}

// readEmbedded reads and checks embedded files (the first pass), keeping
// their runs; emptyStore checks them as for a store holding no runs,
// without reading it.
func (s *Store) readEmbedded(ctx context.Context, files []DatasetFile, emptyStore bool) ([]ImportReport, []importPart, error) {
	reports := make([]ImportReport, len(files))
	var parts []importPart
	for i, f := range files {
		reports[i] = ImportReport{File: f.Name(), Session: f.Session, Skipped: map[string]int{}}
		b, err := f.Open()
		if err != nil {
			return nil, nil, fmt.Errorf("embedded dataset: %w", err)
		}
		plan := importPlan{name: f.Name(), session: f.Session, collect: true, emptyStore: emptyStore}
		reread := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		plan, err = s.checkPass(ctx, plan, bytes.NewReader(b), reread, ImportOptions{}, &reports[i])
		if err != nil {
			return nil, nil, err
		}
		if plan.fresh > 0 {
			parts = append(parts, importPart{src: embeddedSource(b), plan: plan, rep: &reports[i]})
		}
	}
	return reports, parts, nil
}

// embeddedAhead is the embedded dataset read, checked and held in memory
// while a new store opens, for its first use's import.
type embeddedAhead struct {
	done    chan struct{}
	reports []ImportReport
	parts   []importPart
	snap    *snapshot
	err     error // all set before done closes
}

// readEmbeddedAhead starts reading the embedded dataset on another
// goroutine, for a one-shot process opening a new store: its first use
// then finds the files read and their runs held in memory.
func (s *Store) readEmbeddedAhead(ctx context.Context) {
	a := &embeddedAhead{done: make(chan struct{})}
	s.ahead = a
	go func() {
		defer close(a.done)
		a.reports, a.parts, a.err = s.readEmbedded(ctx, DefaultDataset(), true)
		if a.err == nil && len(a.parts) > 0 {
			a.snap = snapshotOf(a.parts)
		}
	}()
}

// takeAhead hands over what readEmbeddedAhead read, when the import wants
// exactly those files into a store still empty; else nil.
func (s *Store) takeAhead(files []DatasetFile) *embeddedAhead {
	a := s.ahead
	s.ahead = nil
	all := DefaultDataset()
	if a == nil || s.committed().totalRuns() > 0 || len(files) != len(all) {
		return nil
	}
	for i := range files {
		if files[i].Name() != all[i].Name() || files[i].Session != all[i].Session {
			return nil
		}
	}
	return a
}

// backgroundImport is a first use's import going on while the process
// answers from its runs held in memory.
type backgroundImport struct {
	done chan struct{}
	err  error // set before done closes
}

// WaitImport waits for the import a one-shot process's first use writes in
// the background (see ImportDefault) and returns its error; nil at once
// when there is none. A failed import was rolled back: the store holds
// none of it, and the next open imports it again.
func (s *Store) WaitImport() error {
	bg := s.background
	if bg == nil {
		return nil
	}
	<-bg.done
	if bg.err != nil {
		return fmt.Errorf("importing the embedded dataset: %w", bg.err)
	}
	return nil
}

// snapshotOf is the runs of an import's parts, held in memory.
func snapshotOf(parts []importPart) *snapshot {
	var runs []Run
	for _, p := range parts {
		runs = append(runs, p.plan.runs...)
	}
	return newSnapshot(runs)
}

// holdInMemory makes snap, the runs about to be imported into an empty
// store, the store's snapshot: the process answers from them while they
// are written, reading nothing from Badger, which can then close while it
// does (CloseInBackground). That import leaves this snapshot in place when
// it commits (see writeAndCommit).
func (s *Store) holdInMemory(snap *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap, s.held = snap, true
}

// writeDeferredMirror writes the manifest's mirror file that ImportDefault
// left to Close, once Badger's Close has made the import durable.
func (s *Store) writeDeferredMirror() error {
	if !s.mirrorAtClose.Load() {
		return nil
	}
	if err := writeManifestFile(s.dir, s.committed()); err != nil {
		return fmt.Errorf("close store: writing %s failed (the next open rewrites it): %w", manifestFile, err)
	}
	return nil
}

// cellEntries hands fn every stored run's cell entry in key order (cell,
// repetition, ID), for the derived pass: while the runs held in memory
// are being imported into an empty store (see holdInMemory) from those
// runs — the entries just written, without reading them back — and
// otherwise from Badger.
func (s *Store) cellEntries(ctx context.Context, fn func(k CellKey, id string, f *runFields) error) error {
	s.mu.RLock()
	held, snap := s.held, s.snap
	s.mu.RUnlock()
	if !held {
		return s.scanCellEntries(ctx, fn)
	}
	for i := range snap.runs { // in cell order, each cell by repetition then ID (groupRuns)
		r := &snap.runs[i]
		f := fieldsOf(r)
		if err := fn(r.Key(), r.ID, &f); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// hasBadgerManifest says whether dir holds a Badger store already; without
// one, Badger creates an empty store there.
func hasBadgerManifest(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "MANIFEST"))
	return err == nil
}
