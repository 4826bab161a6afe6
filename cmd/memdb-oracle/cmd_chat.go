package main

import "errors"

// chatCmd is a placeholder until its owner builds it.
type chatCmd struct{}

// Run reports that the command is not built yet.
func (chatCmd) Run(*app) error { return errors.New("chat: not built yet") }
