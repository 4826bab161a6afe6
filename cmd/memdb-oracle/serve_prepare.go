package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// prepareDataDir is serve's first look at its data directory. When
// anything needs writing before serve can answer from it — a first use,
// a migration from an earlier release, the embedded dataset or the
// knowledge figures missing, what a process that did not close the store
// left (an import to roll back, Badger's log to replay and flush) — that is
// written by serve's writing process (see runWriter) before serve opens
// the store itself: a fault in Badger's memory-mapped writes on a disk
// that fills then ends that process, not serve. If it fails, serve opens
// what it can without writing (openDegraded) and says why on /healthz.
// Elsewhere (tests calling run) the store() that follows writes it.
func (a *app) prepareDataDir() error {
	if !processWide {
		return nil
	}
	due, err := a.writingDue()
	if err != nil || due == "" {
		return err
	}
	started := time.Now()
	_, err = a.runWriter(a.ctx, writeRequest{Prepare: due}, nil)
	if err == nil {
		a.log.Info("prepared the data directory in a process of its own", "dir", a.cfg.DataDir, "due", due,
			"took", time.Since(started).Round(time.Millisecond).String())
		return nil
	}
	if a.ctx.Err() != nil {
		return a.ctx.Err()
	}
	return a.openDegraded(due+" could not be written", due, err)
}

// writingDue says what a writing open of the data directory would write
// before serve could answer from it ("" for nothing), looking read-only.
// A store that cannot be read even so (damage, another process holding
// it) is that error: serve stops with it, as every command does.
func (a *app) writingDue() (string, error) {
	if !analytics.HasStore(a.cfg.DataDir) {
		if err := analytics.CheckDataDir(a.cfg.DataDir); err != nil {
			return "", storeError(err)
		}
		return "the first use of the data directory", nil
	}
	st, err := a.openStore(storeOpts{readOnly: true})
	if errors.Is(err, analytics.ErrNeedsRecovery) || errors.Is(err, analytics.ErrDiskFull) {
		// An import to roll back, or Badger's log of a process that did
		// not close the store (kill -9) to replay and flush into tables;
		// on a full tmpfs, reading that log can be a fault (ErrDiskFull).
		return "the recovery of what a process that did not close the store left", nil
	}
	if err != nil {
		return "", err
	}
	due := ""
	switch {
	case st.NeedsMigration():
		due = "the migration of the store to this release's format"
	case !readyToQuery(st):
		due = "the import of the embedded dataset"
	case !knowledge.HasSaved(a.ctx, st.KV(kvFigures), st):
		due = "saving the knowledge figures of its runs"
	}
	if err := a.dropStore(); err != nil {
		return "", storeError(err)
	}
	return due, nil
}

// openDegraded opens what serve can answer from after its writing process
// failed to prepare the data directory, or its own writing open failed
// (what failed, and due, what was to be written, fail of cause), writing
// nothing: the store as it was, read-only, when it can be read and holds
// runs, else the embedded dataset held in memory. Thread memory and
// counters are then kept in memory, imports are refused, and /healthz says
// why (a.degraded) until serve is started again.
func (a *app) openDegraded(failed, due string, cause error) error {
	if errors.Is(cause, analytics.ErrCorrupt) {
		return storeError(cause) // damage is never answered from: doctor
	}
	why := "the writing process failed"
	if errors.Is(cause, analytics.ErrDiskFull) || analytics.CheckFreeSpace(a.cfg.DataDir) != nil {
		why = "the disk is full"
	}
	from := "from the embedded dataset held in memory, without the runs imported here"
	if analytics.HasStore(a.cfg.DataDir) {
		st, err := a.openStore(storeOpts{readOnly: true})
		switch {
		case err == nil && len(st.StoredRuns()) > 0:
			from = "read-only from the store as it was"
		case err == nil:
			if err := a.dropStore(); err != nil {
				return storeError(err)
			}
		case !errors.Is(err, analytics.ErrNeedsRecovery) && !errors.Is(err, analytics.ErrDiskFull):
			return err
		}
	}
	a.log.Error("serve answers degraded: its data directory could not be prepared", "dir", a.cfg.DataDir,
		"due", due, "answering", from, "err", cause)
	if a.st == nil {
		if _, err := a.openStore(storeOpts{inMemory: true}); err != nil {
			return err
		}
	}
	a.degraded = degradedStore{
		msg:  fmt.Sprintf("%s (%s): answering %s; %s", failed, why, from, degradedTail),
		disk: why == "the disk is full",
	}
	return nil
}

// degradedTail ends every degradedStore message: what serve does meanwhile.
const degradedTail = "thread memory and counters are kept in memory, and imports are refused, until serve is started again"

// degradedStore is why serve answers without writing its data directory
// (see openDegraded): shown on /healthz as it is, and the error an import
// gets (disk full when that is the cause, so the API answers 507).
type degradedStore struct {
	msg  string
	disk bool
}

func (d degradedStore) Error() string { return d.msg }

func (d degradedStore) Unwrap() error {
	if d.disk {
		return analytics.ErrDiskFull
	}
	return nil
}
