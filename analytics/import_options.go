package analytics

import badger "github.com/dgraph-io/badger/v4"

// importValueThreshold is the value size from which an import-tuned store
// keeps values in the value log instead of the LSM tree: every run. The
// tree then holds only keys and value pointers, so compactions move a few
// dozen bytes per run instead of the whole run: an import of a million
// runs spends most of its CPU, and its heap peak, in compaction's table
// builders otherwise (measured: 26 s CPU and 390 MB peak RSS with the runs
// in the tree, 11 s and 140 MB in the value log).
const importValueThreshold = 64

// forImport tunes Badger for a process that writes many runs: the values
// go to the value log (see importValueThreshold). Where a value lives is
// recorded per entry, so a store written this way opens and reads with the
// ordinary options, and later writes follow those.
func forImport(bo badger.Options) badger.Options {
	return bo.WithValueThreshold(importValueThreshold)
}

// releaseEvery is how many written runs pass between syncs of the store's
// files and the release of their mapped pages (see releaseMappedPages).
const releaseEvery = 4 * progressEvery

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
