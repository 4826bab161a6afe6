package main

import "errors"

// versionCmd is a placeholder until its owner builds it.
type versionCmd struct{}

// Run reports that the command is not built yet.
func (versionCmd) Run(*app) error { return errors.New("version: not built yet") }
