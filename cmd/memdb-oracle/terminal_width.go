package main

import (
	"os"

	cliadapter "github.com/memdb-oracle/memdb-oracle/adapters/cli"
)

// width is the width answers printed on stdout are laid out for: $COLUMNS,
// else the terminal's own width when stdout is one, else the default.
func (a *app) width() int {
	fd := ^uintptr(0) // no such descriptor: not a terminal
	if f, ok := a.stdout.(*os.File); ok {
		fd = f.Fd()
	}
	columns := ""
	if a.cfg.Getenv != nil {
		columns = a.cfg.Getenv("COLUMNS")
	}
	return cliadapter.Width(columns, fd)
}
