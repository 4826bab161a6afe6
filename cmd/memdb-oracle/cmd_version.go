package main

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// versionCmd prints the program version and what data it holds.
type versionCmd struct{}

// Run prints the version, the run and cell counts and the data fingerprint.
func (versionCmd) Run(a *app) error {
	st, err := a.store()
	if err != nil {
		return err
	}
	embedded, err := analytics.EmbeddedFingerprint()
	if err != nil {
		return err
	}
	perSession := map[int]int{}
	for _, r := range st.Runs() {
		perSession[r.Session]++
	}
	sessions := make([]int, 0, len(perSession))
	for s := range perSession {
		sessions = append(sessions, s)
	}
	slices.Sort(sessions)
	parts := make([]string, len(sessions))
	for i, s := range sessions {
		parts[i] = fmt.Sprintf("session %d: %d", s, perSession[s])
	}
	fp := st.Fingerprint()
	note := "the embedded dataset"
	if fp != embedded {
		note = "differs from the embedded dataset's " + embedded
	}
	w := a.stdout
	fmt.Fprintf(w, "memdb-oracle %s\n", programVersion())
	fmt.Fprintf(w, "runs: %d (%s)\n", len(st.Runs()), strings.Join(parts, ", "))
	fmt.Fprintf(w, "cells: %d\n", len(st.Cells()))
	fmt.Fprintf(w, "fingerprint: %s (%s)\n", fp, note)
	_, err = fmt.Fprintf(w, "data: %s\n", a.cfg.DataDir)
	return err
}

// programVersion is the module version the binary was built from, with the
// VCS revision when the build recorded one.
func programVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
