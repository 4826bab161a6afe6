package main

import "errors"

// importCmd is a placeholder until its owner builds it.
type importCmd struct{}

// Run reports that the command is not built yet.
func (importCmd) Run(*app) error { return errors.New("import: not built yet") }
