package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// serveWriterEnv marks the process serve writes an import in (see
// importAside): serve's own command line, run again with it set.
const serveWriterEnv = "MEMDB_SERVE_WRITER_PROCESS"

// writeRequest is what serve sends its writing process on stdin: this
// line of JSON, then Size bytes of the file. No Name means settling:
// opening the store with the ordinary options and closing it, which rolls
// back what a writing process that failed left and merges what one that
// succeeded left unmerged, migrates a store of an earlier release and
// imports the embedded dataset where it is missing.
type writeRequest struct {
	Name    string `json:"name,omitempty"`
	Session int    `json:"session,omitempty"`
	Size    int    `json:"size,omitempty"`
	// Prepare is what serve's start found due (see prepareDataDir): the
	// settling process also saves the knowledge figures, so that serve's
	// own open writes nothing.
	Prepare string `json:"prepare,omitempty"`
}

// writeReply is the writing process's answer on stdout, written once the
// import is committed or refused (before the store is closed).
type writeReply struct {
	Report analytics.ImportReport `json:"report"`
	// Problems: the file was refused with nothing written.
	Problems []analytics.RowProblem `json:"problems,omitempty"`
	Error    string                 `json:"error,omitempty"`
	DiskFull bool                   `json:"disk_full,omitempty"`
	Damaged  bool                   `json:"damaged,omitempty"`
	// Unrecorded: the runs are in, but the file is not kept for replicas.
	Unrecorded string `json:"unrecorded,omitempty"`
}

// writerError is an error the writing process reported, as it said it,
// with the kind serve answers by (disk full: 507; damage).
type writerError struct {
	msg  string
	kind error
}

func (e writerError) Error() string { return e.msg }
func (e writerError) Unwrap() error { return e.kind }

// writeImport imports rec's file into st and keeps it for the other
// replicas. serve (a whole program with a store on disk) writes it in a
// process of its own, so that a fault in Badger's memory-mapped writes on
// a disk that fills meanwhile ends that process, not serve: st answers
// from what it held all along and takes the new runs once the import is
// committed (analytics.Store.HandOff). Elsewhere it is written here.
// recordErr is a failure to keep the file once its runs are committed.
func (a *app) writeImport(ctx context.Context, st *analytics.Store, rec redisadapter.ImportRecord) (rep analytics.ImportReport, recordErr, err error) {
	if a.degraded != nil {
		return rep, nil, fmt.Errorf("import %s: nothing written: %w", rec.Name, a.degraded)
	}
	if processWide && a.serving {
		rep, recordErr, err = a.importAside(ctx, st, rec)
		if !errors.Is(err, analytics.ErrNoHandOff) {
			return rep, recordErr, err
		}
	}
	rep, err = st.Import(ctx, rec.Name, bytes.NewReader(rec.CSV), rec.Session)
	if err != nil {
		return rep, nil, err
	}
	return rep, keepImport(ctx, st, rec), nil
}

// importAside is writeImport in a writing process of its own.
func (a *app) importAside(ctx context.Context, st *analytics.Store, rec redisadapter.ImportRecord) (rep analytics.ImportReport, recordErr, err error) {
	req := writeRequest{Name: rec.Name, Session: rec.Session, Size: len(rec.CSV)}
	err = st.HandOff(ctx, func(ctx context.Context) error {
		reply, err := a.runWriter(ctx, req, rec.CSV)
		rep = reply.Report
		if reply.Unrecorded != "" {
			recordErr = errors.New(reply.Unrecorded)
		}
		return err
	}, func(ctx context.Context) error {
		_, err := a.runWriter(ctx, writeRequest{}, nil)
		return err
	})
	return rep, recordErr, err
}

// runWriter runs serve's command line again as the writing process, hands
// it req and csv, and reads its reply. A process that died without one
// (a fault in a mapped file is exit 2 with the Go runtime's report on
// stderr) committed nothing: the import is all or nothing.
func (a *app) runWriter(ctx context.Context, req writeRequest, csv []byte) (writeReply, error) {
	what := "settling the store after an import"
	switch {
	case req.Name != "":
		what = "import " + req.Name
	case req.Prepare != "":
		what = "preparing the data directory (" + req.Prepare + ")"
	}
	exe, err := os.Executable()
	if err != nil {
		return writeReply{}, fmt.Errorf("%s: finding this program to write in a process of its own: %w", what, err)
	}
	head, err := json.Marshal(req)
	if err != nil {
		return writeReply{}, fmt.Errorf("%s: %w", what, err)
	}
	cmd := exec.CommandContext(ctx, exe, os.Args[1:]...)
	cmd.Args[0] = os.Args[0]
	cmd.Env = append(os.Environ(), serveWriterEnv+"=1")
	if a.logFormat != "" {
		cmd.Env = append(cmd.Env, "MEMDB_ORACLE_LOG_FORMAT="+a.logFormat)
	}
	cmd.Stdin = io.MultiReader(bytes.NewReader(append(head, '\n')), bytes.NewReader(csv))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, a.stderr // its log lines join serve's
	// A request given up on (or serve stopping) asks the writer to stop,
	// and it rolls back; a kill is left for one that does not.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Minute
	runErr := cmd.Run()
	var reply writeReply
	replied := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &reply) == nil
	switch {
	case replied && len(reply.Problems) > 0:
		return reply, &analytics.ImportError{File: req.Name, Problems: reply.Problems}
	case replied && reply.Error != "":
		var kind error
		switch {
		case reply.DiskFull:
			kind = analytics.ErrDiskFull
		case reply.Damaged:
			kind = analytics.ErrCorrupt
		}
		return reply, writerError{msg: reply.Error, kind: kind}
	case replied && (runErr == nil || req.Prepare == ""):
		if runErr != nil {
			// Committed before it stopped: what it had left to do (merging
			// its tables) the next open does.
			a.log.Warn("the writing process stopped after committing", "file", req.Name, "err", runErr)
		}
		return reply, nil
	}
	// Not closed (it stopped after replying, preparing serve's start),
	// its store holds what it wrote in Badger's log: whoever opens it for
	// writing next flushes that into tables, through memory maps, and that
	// must not be serve.
	after := "nothing was committed, and the store answers as before"
	if req.Prepare != "" {
		after = "the data directory is left for the next start to recover"
	}
	how := "failed"
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		how = "crashed (its last words are above)"
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			how = "was killed by " + ws.Signal().String()
		}
	} else if runErr != nil {
		how = "could not run: " + runErr.Error()
	}
	if derr := analytics.CheckFreeSpace(a.cfg.DataDir); derr != nil {
		return reply, fmt.Errorf("%s: the disk filled while the store was being written (the writing process %s): %w; %s", what, how, derr, after)
	}
	return reply, fmt.Errorf("%s: the writing process %s; %s", what, how, after)
}

// writeForServe is the writing process's side of runWriter: it opens the
// store for writing, imports the file it is given, keeps it for the other
// replicas, and replies (or settles: see writeRequest); the app closes the
// store after.
func (a *app) writeForServe() error {
	in := bufio.NewReader(a.stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading serve's request: %w", err)
	}
	var req writeRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return fmt.Errorf("reading serve's request: %w", err)
	}
	csv := make([]byte, req.Size)
	if _, err := io.ReadFull(in, csv); err != nil {
		return fmt.Errorf("reading the file serve sent: %w", err)
	}
	var reply writeReply
	// The import writes beside serve's read-only handle; the settling
	// process runs once serve closed it, and merges what imports left.
	o := storeOpts{deferLoad: true, forImport: true, beside: true}
	if req.Name == "" {
		o = storeOpts{deferLoad: true, mergeAtClose: true, mustWrite: true}
	}
	st, err := a.openStore(o)
	if err == nil && req.Prepare != "" {
		for _, r := range st.Repaired() {
			a.log.Warn("opening the store: "+r, "dir", a.cfg.DataDir)
		}
		_, err = a.knowledge() // computes the figures of its runs and saves them
	}
	if err == nil && req.Name != "" {
		reply.Report, err = st.Import(a.ctx, req.Name, bytes.NewReader(csv), req.Session)
		if ie, bad := errors.AsType[*analytics.ImportError](err); bad {
			reply.Problems, err = ie.Problems, nil
		} else if err == nil {
			rec := redisadapter.ImportRecord{ID: importID(req.Name, req.Session, csv), Name: req.Name, Session: req.Session, CSV: csv}
			if kerr := keepImport(a.ctx, st, rec); kerr != nil {
				reply.Unrecorded = kerr.Error()
			}
		}
	}
	if err != nil {
		reply.Error = err.Error()
		reply.DiskFull = errors.Is(err, analytics.ErrDiskFull)
		reply.Damaged = errors.Is(err, analytics.ErrCorrupt)
	}
	return json.NewEncoder(a.stdout).Encode(reply)
}
