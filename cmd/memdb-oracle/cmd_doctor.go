package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// doctorCmd checks the data directory's store and, with --repair, rebuilds
// a damaged one.
type doctorCmd struct {
	Repair bool `name:"repair" xor:"doctor-mode" help:"Rebuild a damaged store: the embedded dataset, plus every imported file whose kept copy still matches; the damaged files are moved aside, not deleted."`
	Scrub  bool `name:"scrub" xor:"doctor-mode" help:"Only scrub, as serve does every 6 hours: read every block of every table and every kept copy of an imported file against its checksum, and list what fails. Exit 0 when nothing does, 3 when something does (the hint says what to run)."`
}

// Run verifies the store (tables, manifest, every run) and says what is
// wrong; with --repair it rebuilds the store when it is damaged; with
// --scrub it only reads every file against its checksum.
func (c doctorCmd) Run(a *app) error {
	dir := a.cfg.DataDir
	if c.Scrub {
		return scrub(a, dir)
	}
	d, err := analytics.Diagnose(a.ctx, dir)
	for _, r := range d.Repaired {
		fmt.Fprintf(a.stdout, "Opening the store %s.\n", r)
	}
	switch {
	case err == nil && d.Runs == nil:
		_, err := fmt.Fprintf(a.stdout, "%s holds no store yet; the first ask, runs or chat creates it.\n", dir)
		return err
	case err == nil:
		fmt.Fprintf(a.stdout, "The store in %s is sound: %d runs (%s), every table and run verified against its manifest; %s and %s verified.\n",
			dir, total(d.Runs), perSession(d.Runs), plural(d.KVValues, "bot-state value", "bot-state values"), plural(d.Copies, "kept copy of an imported file", "kept copies of imported files"))
		for _, w := range d.Warnings {
			fmt.Fprintf(a.stdout, "Warning: %s.\n", w)
		}
		for _, q := range d.SetAside {
			fmt.Fprintf(a.stdout, "Set aside, never deleted: %s (what an open or a repair moved out of the store; remove it once you have looked).\n", q)
		}
		return nil
	case !errors.Is(err, analytics.ErrCorrupt):
		return err
	}
	fmt.Fprintf(a.stdout, "Problem: %v\n", err)
	if !c.Repair {
		fmt.Fprintln(a.stdout, "Nothing is answered from this store until it is repaired. `memdb-oracle doctor --repair` rebuilds it from the embedded dataset and the copies of imported files kept in the data directory; the damaged files are moved aside.")
		return fmt.Errorf("the store needs repair (details above): %w", analytics.ErrCorrupt)
	}
	rep, rerr := analytics.Repair(a.ctx, dir, a.log)
	if rerr != nil {
		return fmt.Errorf("repair failed: %w", rerr)
	}
	w := a.stdout
	for _, r := range rep.Embedded {
		fmt.Fprintf(w, "Rebuilt session %d from the embedded %s: %d runs.\n", r.Session, r.File, r.Added)
	}
	for _, r := range rep.Restored {
		fmt.Fprintf(w, "Restored %s as session %d from its kept copy: %d runs.\n", r.File, r.Session, r.Added)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "Note: %s.\n", n)
	}
	for _, l := range rep.Lost {
		fmt.Fprintf(w, "Not restored: %s\n", l)
	}
	_, err = fmt.Fprintf(w, "The damaged files are in %s.\n", rep.Damaged)
	return err
}

// scrub runs the scheduled scrub now and prints what it read and found.
func scrub(a *app, dir string) error {
	rep, err := analytics.ScrubDir(a.ctx, dir)
	w := a.stdout
	switch {
	case err == nil && rep.Finished.IsZero():
		_, err := fmt.Fprintf(w, "%s holds no store yet; the first ask, runs or chat creates it.\n", dir)
		return err
	case err != nil && !errors.Is(err, analytics.ErrCorrupt) && !errors.Is(err, analytics.ErrCopyDamaged):
		return err
	}
	fmt.Fprintf(w, "Scrubbed %s in %s: read every block of %s and %s against their checksums.\n",
		dir, rep.Took.Round(time.Millisecond), plural(rep.Tables, "table", "tables"), plural(rep.Copies, "kept copy of an imported file", "kept copies of imported files"))
	if len(rep.Damaged) == 0 {
		_, err := fmt.Fprintln(w, "Nothing failed its checksum.")
		return err
	}
	for _, d := range rep.Damaged {
		fmt.Fprintf(w, "Damaged: %s\n", d)
	}
	if errors.Is(err, analytics.ErrCorrupt) {
		fmt.Fprintln(w, "Nothing is answered from this store until it is repaired: run `memdb-oracle doctor --repair` (it rebuilds from the embedded dataset and the kept copies; the damaged files are moved aside).")
		return fmt.Errorf("the scrub found damage (details above): %w", err)
	}
	fmt.Fprintln(w, "The store answers as before, but `doctor --repair` could not restore the imports whose copies are damaged: import those files again to keep good copies.")
	return fmt.Errorf("the scrub found damaged copies (details above): %w", analytics.ErrCopyDamaged)
}
