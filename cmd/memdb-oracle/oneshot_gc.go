package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
)

// Below oneShotStoreBytes of store files, answering once allocates a few
// tens of MB in all and exits: collecting garbage on the way is a quarter
// of the process's CPU and frees nothing anyone needs.
const (
	oneShotStoreBytes = 16 << 20
	// oneShotHeapLimit brings the collector back should the heap grow
	// beyond what such a store can account for.
	oneShotHeapLimit = 256 << 20
)

// processWide is set by main: the collector's settings belong to the whole
// process, so commands run in-process (tests) leave them alone.
var processWide bool

// collectLittle turns the garbage collector off up to oneShotHeapLimit for
// a command that answers once and exits, when the data directory's store
// is small (or not created yet); a larger store keeps the default, since
// its runs alone may exceed the limit.
func (a *app) collectLittle() {
	if storeBytes(a.cfg.DataDir) >= oneShotStoreBytes {
		return
	}
	a.smallStore = true
	if !processWide {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotHeapLimit)
}

// storeBytes is the size of the Badger table and value-log files in dir;
// 0 for a directory without any.
func storeBytes(dir string) int64 {
	var n int64
	for _, pattern := range []string{"*.sst", "*.vlog"} {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil {
				n += fi.Size()
			}
		}
	}
	return n
}
