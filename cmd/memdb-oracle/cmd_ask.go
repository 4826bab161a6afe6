package main

import "errors"

// askCmd is a placeholder until its owner builds it.
type askCmd struct{}

// Run reports that the command is not built yet.
func (askCmd) Run(*app) error { return errors.New("ask: not built yet") }
