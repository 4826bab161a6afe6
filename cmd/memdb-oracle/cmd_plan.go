package main

import "errors"

// planCmd is a placeholder until its owner builds it.
type planCmd struct{}

// Run reports that the command is not built yet.
func (planCmd) Run(*app) error { return errors.New("plan: not built yet") }
