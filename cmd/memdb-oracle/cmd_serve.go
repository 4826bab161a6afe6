package main

import "errors"

// serveCmd is a placeholder until its owner builds it.
type serveCmd struct{}

// Run reports that the command is not built yet.
func (serveCmd) Run(*app) error { return errors.New("serve: not built yet") }
