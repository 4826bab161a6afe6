package main

import "errors"

// digestCmd is a placeholder until its owner builds it.
type digestCmd struct{}

// Run reports that the command is not built yet.
func (digestCmd) Run(*app) error { return errors.New("digest: not built yet") }
