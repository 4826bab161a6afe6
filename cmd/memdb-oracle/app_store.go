package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/memdb-oracle/memdb-oracle/analytics"
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

type storeOpts struct {
	deferLoad, readOnly, inMemory, forImport bool
}

func (a *app) openStore(o storeOpts) (*analytics.Store, error) {
	if a.st != nil {
		return a.st, nil
	}
	_, statErr := os.Stat(a.cfg.DataDir)
	firstUse := errors.Is(statErr, os.ErrNotExist) && !o.inMemory && !o.readOnly
	st, err := analytics.Open(a.ctx, analytics.Options{
		Dir: a.cfg.DataDir, InMemory: o.inMemory, ReadOnly: o.readOnly, DeferLoad: o.deferLoad, ForImport: o.forImport, Logger: a.log,
	})
	if err != nil {
		return nil, storeError(err)
	}
	a.closers = append(a.closers, st.Close)
	if !o.readOnly {
		reports, err := st.ImportDefault(a.ctx)
		if err != nil {
			return nil, storeError(fmt.Errorf("preparing the data directory %s: %w", a.cfg.DataDir, err))
		}
		for _, r := range reports {
			a.log.Info("imported the embedded dataset", "file", r.File, "session", r.Session, "added", r.Added)
		}
		if firstUse && len(reports) > 0 {
			fmt.Fprintf(a.stderr, "first use: imported the embedded dataset into %s\n", a.cfg.DataDir)
		}
	}
	a.st = st
	return st, nil
}
