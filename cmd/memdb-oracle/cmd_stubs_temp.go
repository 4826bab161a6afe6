package main

import "errors"

// TEMPORARY: each helper moves its command into cmd_<name>.go and deletes it here.

var errNotBuilt = errors.New("not built yet")

type askCmd struct{}

func (askCmd) Run(*app) error { return errNotBuilt }

type chatCmd struct{}

func (chatCmd) Run(*app) error { return errNotBuilt }

type runsCmd struct{}

func (runsCmd) Run(*app) error { return errNotBuilt }

type importCmd struct{}

func (importCmd) Run(*app) error { return errNotBuilt }

type planCmd struct{}

func (planCmd) Run(*app) error { return errNotBuilt }

type kbCmd struct{}

func (kbCmd) Run(*app) error { return errNotBuilt }

type digestCmd struct{}

func (digestCmd) Run(*app) error { return errNotBuilt }

type serveCmd struct{}

func (serveCmd) Run(*app) error { return errNotBuilt }

type versionCmd struct{}

func (versionCmd) Run(*app) error { return errNotBuilt }
