package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// importCmd adds runs from a capture CSV, all or nothing.
type importCmd struct {
	Session int    `name:"session" default:"1" help:"Benchmark session the file belongs to (1: Dragonfly/Redis/Valkey, 2: KeyDB/Garnet)."`
	File    string `arg:"" name:"file" type:"existingfile" help:"CSV file with the capture header." placeholder:"FILE.csv"`
}

// Run validates the whole file, writes its kept rows, and prints the report.
// On invalid rows it prints every problem and writes nothing.
func (c importCmd) Run(a *app) error {
	if c.Session < 1 {
		return usageError{fmt.Errorf("--session must be 1 or more, got %d", c.Session)}
	}
	st, err := a.store()
	if err != nil {
		return err
	}
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	name := filepath.Base(c.File)
	rep, err := st.Import(a.ctx, name, f, c.Session)
	var ie *analytics.ImportError
	if errors.As(err, &ie) {
		for _, p := range ie.Problems {
			fmt.Fprintln(a.stderr, p)
		}
		return fmt.Errorf("import %s: %s found; nothing was written", name, plural(len(ie.Problems), "problem", "problems"))
	}
	if err != nil {
		return err
	}
	w := a.stdout
	fmt.Fprintf(w, "Imported %s as session %d: %d rows read, %d kept, %d added, %d already present.\n",
		rep.File, rep.Session, rep.Rows, rep.Kept, rep.Added, rep.AlreadyPresent)
	if n := rep.SkippedRows(); n > 0 {
		fmt.Fprintf(w, "Skipped %d rows by the keep rule (note ^(sat-)?scale-\\d+c$ and ops_per_sec > 0):\n", n)
		notes := make([]string, 0, len(rep.Skipped))
		for note := range rep.Skipped {
			notes = append(notes, note)
		}
		slices.Sort(notes)
		for _, note := range notes {
			label := note
			if label == "" {
				label = "(blank note)"
			}
			fmt.Fprintf(w, "  %-24s %d\n", label, rep.Skipped[note])
		}
	}
	_, err = fmt.Fprintf(w, "The store now holds %d runs in %d cells (fingerprint %s).\n",
		len(st.Runs()), len(st.Cells()), st.Fingerprint())
	return err
}
