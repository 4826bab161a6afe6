package main

import (
	"os"
	"path/filepath"
	"runtime"
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
	// firstCollectionHeap is where a process that answers once from a
	// larger store collects for the first time: a selective query
	// allocates a few MB (where one collection, all threads stopped, costs
	// as much as the query), a full scan of a million runs hundreds (where
	// the collector must run as usual, and does from then on).
	firstCollectionHeap = 64 << 20
)

// processWide is set by main: the collector's settings belong to the whole
// process, so commands run in-process (tests) leave them alone.
var processWide bool

// collectLittle turns the garbage collector off up to oneShotHeapLimit for
// a command that answers once and exits, when the data directory's store
// is small (or not created yet); over a larger store, whose runs alone may
// exceed that, it only delays the first collection (collectFrom).
func (a *app) collectLittle() {
	if storeBytes(a.cfg.DataDir, oneShotStoreBytes) >= oneShotStoreBytes {
		if processWide {
			collectFrom(firstCollectionHeap)
		}
		return
	}
	a.smallStore = true
	if !processWide {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotHeapLimit)
}

// collectFrom turns the collector off until the heap first reaches heap,
// then gives it back the settings it had (GOGC, GOMEMLIMIT): the first
// collection, forced by the memory limit, finalizes a sentinel whose
// finalizer restores them.
func collectFrom(heap int64) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1) // reads it
	debug.SetMemoryLimit(min(limit, heap))
	sentinel := new([16]byte) // 16 bytes: not batched by the tiny allocator, so it is finalized alone
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// storeBytes is the size of the Badger table and value-log files in dir,
// counted up to atLeast; 0 for a directory without any.
func storeBytes(dir string, atLeast int64) int64 {
	var n int64
	for _, pattern := range []string{"*.vlog", "*.sst"} {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil {
				n += fi.Size()
			}
			if n >= atLeast {
				return n
			}
		}
	}
	return n
}
