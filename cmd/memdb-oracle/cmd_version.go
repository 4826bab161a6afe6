package main

import (
	"fmt"
	"runtime/debug"
	"strings"

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

// releaseVersion is set by a release build (-ldflags "-X
// main.releaseVersion=1.2.3": .goreleaser.yaml and the Dockerfile); empty
// otherwise.
var releaseVersion string

// programVersion is the release version, else the module version the
// binary was built from (go install …@v1.2.3), with the VCS revision when
// the build recorded one.
func programVersion() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		// A module version built from a VCS checkout already ends in the
		// revision (v0.0.0-20261201…-41d5895e1a2b): say it once.
		if s.Key == "vcs.revision" && len(s.Value) >= 12 && !strings.Contains(v, s.Value[:12]) {
			v += " " + s.Value[:12]
		}
	}
	return v
}
