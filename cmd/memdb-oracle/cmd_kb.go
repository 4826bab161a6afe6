package main

import "errors"

// kbCmd is a placeholder until its owner builds it.
type kbCmd struct{}

// Run reports that the command is not built yet.
func (kbCmd) Run(*app) error { return errors.New("kb: not built yet") }
