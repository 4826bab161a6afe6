package main

import "errors"

// runsCmd is a placeholder until its owner builds it.
type runsCmd struct{}

// Run reports that the command is not built yet.
func (runsCmd) Run(*app) error { return errors.New("runs: not built yet") }
