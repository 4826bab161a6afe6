package main

import (
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// store opens the data directory's store once, imports the embedded dataset
// into it on first use, and returns the same store on later calls. The app
// closes it.
func (a *app) store() (*analytics.Store, error) {
	if a.st != nil {
		return a.st, nil
	}
	st, err := analytics.Open(a.ctx, analytics.Options{Dir: a.cfg.DataDir, Logger: a.log})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, st.Close)
	reports, err := st.ImportDefault(a.ctx)
	if err != nil {
		return nil, fmt.Errorf("preparing the data directory %s: %w", a.cfg.DataDir, err)
	}
	for _, r := range reports {
		a.log.Info("imported the embedded dataset", "file", r.File, "session", r.Session, "added", r.Added)
	}
	a.st = st
	return st, nil
}
