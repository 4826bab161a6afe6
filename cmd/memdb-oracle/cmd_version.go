package main

import (
	"fmt"
	"runtime/debug"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// versionCmd prints the program version and what data it holds.
type versionCmd struct{}

// Run prints the version, the run and cell counts and the data fingerprint.
func (versionCmd) Run(a *app) error {
	st, err := a.readStore()
	if err != nil {
		return err
	}
	embedded, err := analytics.EmbeddedFingerprint()
	if err != nil {
		return err
	}
	counts := st.StoredRuns()
	fp := st.Fingerprint()
	note := "the embedded dataset"
	if fp != embedded {
		note = "differs from the embedded dataset's " + embedded
	}
	w := a.stdout
	fmt.Fprintf(w, "memdb-oracle %s\n", programVersion())
	fmt.Fprintf(w, "runs: %d (%s)\n", total(counts), perSession(counts))
	fmt.Fprintf(w, "cells: %d\n", len(st.Cells()))
	fmt.Fprintf(w, "fingerprint: %s (%s)\n", fp, note)
	_, err = fmt.Fprintf(w, "data: %s\n", a.cfg.DataDir)
	return err
}

// version is set at link time by release builds (the Dockerfile:
// -ldflags "-X main.version=v1.2.3"); empty otherwise.
var version string

// programVersion is the version set at link time, else the module version
// the binary was built from, with the VCS revision when the build recorded
// one.
func programVersion() string {
	if version != "" {
		return version
	}
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
