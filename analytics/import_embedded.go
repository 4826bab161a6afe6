package analytics

import (
	"bytes"
	"context"
	"fmt"
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
		s.mirrorAtClose.Store(true)
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
// copy is kept, since the binary holds them.
func (s *Store) importEmbedded(ctx context.Context, files []DatasetFile) ([]ImportReport, error) {
	if s.readOnly {
		return nil, fmt.Errorf("import %s: the store is open read-only", files[0].Name())
	}
	s.importMu.Lock()
	defer s.importMu.Unlock()
	reports := make([]ImportReport, len(files))
	var parts []importPart
	for i, f := range files {
		reports[i] = ImportReport{File: f.Name(), Session: f.Session, Skipped: map[string]int{}}
		b, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("embedded dataset: %w", err)
		}
		if err := s.disk.check(int64(len(b)) * importDiskFactor); err != nil {
			return nil, fmt.Errorf("import %s: nothing written: %w", f.Name(), err)
		}
		plan := importPlan{name: f.Name(), session: f.Session, collect: true}
		plan, err = s.checkPass(ctx, plan, bytes.NewReader(b), ImportOptions{}, &reports[i])
		if err != nil {
			return nil, err
		}
		if plan.fresh > 0 {
			parts = append(parts, importPart{src: embeddedSource(b), plan: plan, rep: &reports[i]})
		}
	}
	if len(parts) == 0 {
		return reports, nil
	}
	wasEmpty := s.committed().totalRuns() == 0
	if err := s.writeAndCommit(ctx, parts, ImportOptions{}, true); err != nil {
		return nil, err
	}
	if s.oneShot && wasEmpty {
		s.holdInMemory(parts)
	}
	return reports, nil
}

// holdInMemory makes the snapshot of a first use's import the runs it has
// just written, held in memory: a one-shot process answers from them next,
// reading nothing back from Badger, which can then close while it does
// (CloseInBackground). The runs are the store's only when their
// fingerprint is the committed one; else the snapshot stays as it was.
func (s *Store) holdInMemory(parts []importPart) {
	var runs []Run
	for _, p := range parts {
		runs = append(runs, p.plan.runs...)
	}
	snap := newSnapshot(runs)
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap.fp != s.snap.fp || snap.nRuns != s.snap.nRuns {
		s.log.Warn("the imported runs are not the store's; answering from the store", "fingerprint", snap.fp, "store", s.snap.fp)
		return
	}
	s.snap = snap
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
