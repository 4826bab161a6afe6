package analytics

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	badger "github.com/dgraph-io/badger/v4"
)

// keepNote is the import keep rule: only the AWS scale captures are
// measurements; laptop rehearsals, smoke tests and diagnostics are skipped.
var keepNote = regexp.MustCompile(`^(sat-)?scale-\d+c$`)

// Keep reports whether a parsed row is a measurement to store under the keep
// rule: its note matches ^(sat-)?scale-\d+c$ and it measured some throughput.
func Keep(r Run) bool { return keepNote.MatchString(r.Note) && r.OpsPerSec > 0 }

// ImportReport says what an import did.
type ImportReport struct {
	File           string         `json:"file"`
	Session        int            `json:"session"`
	Rows           int            `json:"rows"`            // data rows read
	Kept           int            `json:"kept"`            // rows passing the keep rule
	Added          int            `json:"added"`           // new runs written
	AlreadyPresent int            `json:"already_present"` // identical runs already stored (idempotent re-import)
	Skipped        map[string]int `json:"skipped"`         // note → rows skipped by the keep rule
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

// Import validates every row of one CSV, then writes all kept rows in one
// atomic step, or nothing. A validation failure is an *ImportError listing
// every bad line. Rows already stored with identical values are counted as
// AlreadyPresent, so re-importing a file changes nothing; a stored run with
// the same ID but different values is a problem on that line.
func (s *Store) Import(ctx context.Context, name string, r io.Reader, session int) (ImportReport, error) {
	rep := ImportReport{File: name, Session: session, Skipped: map[string]int{}}
	if session < 1 {
		return rep, fmt.Errorf("import %s: %w, got %d", name, ErrBadSession, session)
	}
	rows, probs := readCSV(r, session, name)
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("import %s: %w", name, err)
	}

	s.importMu.Lock()
	defer s.importMu.Unlock()
	snap := s.current()

	var fresh []Run
	firstLine := map[string]int{}
	for _, row := range rows {
		rep.Rows++
		if row.probs != nil {
			continue
		}
		run := row.run
		if !Keep(run) {
			rep.Skipped[run.Note]++
			continue
		}
		rep.Kept++
		if first, dup := firstLine[run.ID]; dup {
			probs = append(probs, RowProblem{Line: row.line, Column: "run_id",
				Reason: fmt.Sprintf("duplicate run ID %s (first on line %d)", run.ID, first)})
			continue
		}
		firstLine[run.ID] = row.line
		if i, ok := snap.byID[run.ID]; ok {
			if snap.runs[i].sameMeasurement(run) {
				rep.AlreadyPresent++
				continue
			}
			probs = append(probs, RowProblem{Line: row.line, Column: "run_id",
				Reason: fmt.Sprintf("run ID %s is already stored with different values", run.ID)})
			continue
		}
		fresh = append(fresh, run)
	}
	if len(probs) > 0 {
		return rep, &ImportError{File: name, Problems: probs}
	}
	if err := s.write(ctx, fresh); err != nil {
		return rep, fmt.Errorf("import %s: nothing written: %w", name, err)
	}
	rep.Added = len(fresh)
	if len(fresh) > 0 {
		runs := make([]Run, 0, len(snap.runs)+len(fresh))
		runs = append(append(runs, snap.runs...), fresh...)
		next := newSnapshot(runs)
		s.mu.Lock()
		s.snap = next
		s.mu.Unlock()
	}
	s.log.Info("imported runs", "file", name, "session", session, "rows", rep.Rows,
		"added", rep.Added, "already_present", rep.AlreadyPresent, "skipped", rep.SkippedRows())
	return rep, nil
}

// write stores the runs in one Badger transaction: all or nothing.
func (s *Store) write(ctx context.Context, runs []Run) error {
	if len(runs) == 0 {
		return nil
	}
	return s.db.Update(func(txn *badger.Txn) error {
		for i, r := range runs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.beforeWrite != nil {
				if err := s.beforeWrite(i); err != nil {
					return err
				}
			}
			b, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("encoding run %s: %w", r.ID, err)
			}
			if err := txn.Set([]byte(runPrefix+r.ID), b); err != nil {
				return fmt.Errorf("writing run %s: %w", r.ID, err)
			}
		}
		return nil
	})
}

// ImportDefault imports the embedded dataset (both sessions) for every
// session the store holds no runs of yet. Safe to call on every start; it
// returns one report per file it imported (none when nothing was missing).
func (s *Store) ImportDefault(ctx context.Context) ([]ImportReport, error) {
	have := map[int]bool{}
	for _, r := range s.current().runs {
		have[r.Session] = true
	}
	var reports []ImportReport
	for _, f := range DefaultDataset() {
		if have[f.Session] {
			continue
		}
		b, err := f.Open()
		if err != nil {
			return reports, fmt.Errorf("embedded dataset: %w", err)
		}
		rep, err := s.Import(ctx, f.Name(), bytes.NewReader(b), f.Session)
		if err != nil {
			return reports, fmt.Errorf("importing the embedded dataset: %w", err)
		}
		reports = append(reports, rep)
	}
	return reports, nil
}
