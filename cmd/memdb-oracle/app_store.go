package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// store opens the data directory's store once, loading its runs, imports
// the embedded dataset into it on first use (saying so on stderr), and
// returns the same store on later calls. The app closes it.
// Commands that only read (a.readOnly) get readStore() instead.
func (a *app) store() (*analytics.Store, error) {
	if a.readOnly {
		return a.readStore()
	}
	return a.openStore(storeOpts{})
}

// importStore is store() without loading the runs into memory: import
// needs only the manifest, so its memory does not grow with the store.
func (a *app) importStore() (*analytics.Store, error) {
	return a.openStore(storeOpts{deferLoad: true, forImport: true})
}

// readStore is the store for commands that only read (version, kb, plan):
// they never create or change the data directory. A directory without a
// store is read as the embedded dataset, held in memory; an existing one is opened
// read-only, or normally when an interrupted import must be rolled back
// first.
func (a *app) readStore() (*analytics.Store, error) {
	if a.st != nil {
		return a.st, nil
	}
	if !analytics.HasStore(a.cfg.DataDir) {
		if err := analytics.CheckDataDir(a.cfg.DataDir); err != nil {
			return nil, storeError(err)
		}
		return a.openStore(storeOpts{inMemory: true})
	}
	st, err := a.openStore(storeOpts{readOnly: true})
	if errors.Is(err, analytics.ErrNeedsRecovery) {
		return a.openStore(storeOpts{})
	}
	return st, err
}

// answerStore is the store for answering with nothing to remember (ask
// without a thread). An initialised data directory then needs nothing
// written — the embedded dataset is in and the knowledge figures of its
// runs are saved — so it is opened read-only: Badger allocates no
// memtable, creates no value-log file and flushes nothing at close.
// Anything else (a first use, figures to save, an import to roll back)
// gets store().
func (a *app) answerStore() (*analytics.Store, error) {
	return a.readOnlyUnless(a.nothingToWrite)
}

// queryStore is the store for a query over the runs (runs): an
// initialised data directory that holds every embedded session in the
// current store format is opened read-only (nothing to write, no memtable
// to allocate or flush); anything else gets store().
func (a *app) queryStore() (*analytics.Store, error) {
	return a.readOnlyUnless(readyToQuery)
}

// readOnlyUnless opens an initialised data directory read-only and keeps
// it when ready says nothing needs writing; anything else gets store().
func (a *app) readOnlyUnless(ready func(*analytics.Store) bool) (*analytics.Store, error) {
	if a.st != nil || !analytics.HasStore(a.cfg.DataDir) {
		return a.store()
	}
	st, err := a.openStore(storeOpts{readOnly: true})
	switch {
	case errors.Is(err, analytics.ErrNeedsRecovery):
		return a.store()
	case err != nil:
		return nil, err
	case ready(st):
		return st, nil
	}
	if err := a.dropStore(); err != nil {
		return nil, storeError(err)
	}
	return a.store()
}

// readyToQuery says whether st answers queries as it is: in the current
// store format, with every session of the embedded dataset in.
func readyToQuery(st *analytics.Store) bool {
	if st.NeedsMigration() {
		return false
	}
	have := st.StoredRuns()
	for _, f := range analytics.DefaultDataset() {
		if have[f.Session] == 0 {
			return false
		}
	}
	return true
}

// nothingToWrite says whether opening st for writing would write nothing:
// every session of the embedded dataset is in (ImportDefault imports
// none) and the knowledge figures of its runs are saved.
func (a *app) nothingToWrite(st *analytics.Store) bool {
	return readyToQuery(st) && knowledge.HasSaved(a.ctx, st.KV(kvFigures), st)
}

// dropStore closes the store opened last, so the next store() opens it
// anew (for writing).
func (a *app) dropStore() error {
	st := a.st
	a.st = nil
	a.closers = a.closers[:len(a.closers)-1]
	return st.Close()
}

type storeOpts struct {
	deferLoad, readOnly, inMemory, forImport bool
	// beside, mergeAtClose: serve's writing and settling processes (see
	// analytics.Options.Beside).
	beside, mergeAtClose bool
	// mustWrite: the open exists to write (serve's writing process), so a
	// full disk is its error, never a store opened read-only instead.
	mustWrite bool
}

func (a *app) openStore(o storeOpts) (*analytics.Store, error) {
	if a.st != nil {
		return a.st, nil
	}
	// A first use is of a directory that is not there yet; in serve's log,
	// of one that holds no store (a volume mounted for it, as in the
	// container image).
	_, statErr := os.Stat(a.cfg.DataDir)
	firstUse := !o.inMemory && !o.readOnly && (errors.Is(statErr, os.ErrNotExist) || a.serveLog && !analytics.HasStore(a.cfg.DataDir))
	st, err := analytics.Open(a.ctx, analytics.Options{
		Dir: a.cfg.DataDir, InMemory: o.inMemory, ReadOnly: o.readOnly, DeferLoad: o.deferLoad, ForImport: o.forImport, Small: a.smallStore, Logger: a.log,
		Beside: o.beside, MergeAtClose: o.mergeAtClose,
	})
	if errors.Is(err, analytics.ErrDiskFull) && !o.readOnly && !o.inMemory && !o.forImport && !o.mustWrite && analytics.HasStore(a.cfg.DataDir) {
		// A full disk still answers from what the store holds: read-only,
		// with thread memory and counters held in memory.
		if a.serveLog {
			a.log.Warn("answering read-only, and thread memory is kept in memory", "err", err)
		} else {
			fmt.Fprintf(a.stderr, "warning: %v; answering read-only, and thread memory is kept in memory until space is freed\n", err)
		}
		o.readOnly = true
		st, err = analytics.Open(a.ctx, analytics.Options{Dir: a.cfg.DataDir, ReadOnly: true, Logger: a.log})
	}
	if err != nil {
		return nil, storeError(err)
	}
	closeStore := st.Close
	if o.readOnly && processWide {
		closeStore = st.CloseAtExit // main exits right after the closers
	}
	a.closers = append(a.closers, closeStore)
	if msg := st.Migrated(); msg != "" && !a.serveLog { // serve's log has it from the store
		fmt.Fprintln(a.stderr, msg)
	}
	if !o.readOnly {
		reports, err := st.ImportDefault(a.ctx)
		if err != nil {
			return nil, storeError(fmt.Errorf("preparing the data directory %s: %w", a.cfg.DataDir, err))
		}
		for _, r := range reports {
			if !o.inMemory {
				a.log.Info("imported the embedded dataset", "file", r.File, "session", r.Session, "added", r.Added)
			}
		}
		switch {
		case !firstUse || len(reports) == 0:
		case a.serveLog:
			a.log.Info("first use: imported the embedded dataset into " + a.cfg.DataDir)
		default:
			fmt.Fprintf(a.stderr, "first use: imported the embedded dataset into %s\n", a.cfg.DataDir)
		}
	}
	a.st, a.stReadOnly = st, o.readOnly
	return st, nil
}

// storeSettled waits for what a first use of the data directory writes
// while the command answers (the embedded dataset's import, see
// analytics.Store.ImportDefault) and reports its failure: the command's
// output came from the dataset held in memory, but the directory is not
// initialised.
func (a *app) storeSettled() error {
	if a.st == nil {
		return nil
	}
	if err := a.st.WaitImport(); err != nil {
		return storeError(fmt.Errorf("preparing the data directory %s: %w", a.cfg.DataDir, err))
	}
	return nil
}
