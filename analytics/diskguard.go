package analytics

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// diskGuard checks free space before anything grows the store, and holds
// the KV writes made while space is short in memory instead (bot state is
// not worth a crash: Badger writes through memory-mapped files, and a
// full disk under them is a SIGBUS, not an error).
type diskGuard struct {
	s       *Store
	low     atomic.Bool // the last check found too little space
	tripped atomic.Bool // WatchDisk found the disk below the floor: no writes until it is free again
	// handedOff: another process writes the store (see HandOff); KV
	// writes are held in memory until it is handed back.
	handedOff atomic.Bool
	writable  atomic.Bool // db is a writing Badger handle

	mu     sync.Mutex
	mem    map[string]memEntry // KV writes held in memory while low or handed off
	seq    uint64              // numbers the held writes (see writeBack)
	since  time.Time           // when space first ran short
	logged bool
}

// memEntry is a KV value held in memory; deleted marks a deletion that
// could not be written.
type memEntry struct {
	value   []byte
	expires time.Time // zero: never
	deleted bool
	seq     uint64
}

func (g *diskGuard) init(s *Store) {
	g.s = s
	g.mem = map[string]memEntry{}
	if s.dir != "" && !s.readOnly {
		_ = g.check(0) // sets low, logs once
	}
}

// check reports ErrDiskFull when the data directory's file system has less
// than the floor plus extra bytes free. Unknown free space passes.
func (g *diskGuard) check(extra int64) error {
	if g.s.dir == "" {
		return nil
	}
	free, ok := freeBytes(g.s.dir)
	if !ok {
		return nil
	}
	if g.tripped.Load() {
		g.markLow(free)
		return g.trippedError(free)
	}
	need := g.s.minFree + uint64(max(extra, 0))
	if free >= need && g.writable.Load() {
		// Free space as counted may still be short of the holes in Badger's
		// mapped logs (see preallocateMapped).
		if err := preallocateMapped(g.s.dir); err != nil {
			g.markLow(free)
			return noSpace(g.s.dir, need+mappedLogBytes(g.s.dir), err)
		}
	}
	if free >= need {
		if g.tripped.Load() {
			return g.trippedError(free) // tripped while this check ran
		}
		if g.low.Swap(false) {
			g.s.log.Info("disk space available again; state is written to the store", "dir", g.s.dir, "free_bytes", free)
		}
		return nil
	}
	g.markLow(free)
	return fmt.Errorf("%w in %s: %s free, %s needed", ErrDiskFull, g.s.dir, mib(free), mib(need))
}

func (g *diskGuard) markLow(free uint64) {
	if g.low.Swap(true) {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.since.IsZero() {
		g.since = time.Now()
	}
	if !g.logged {
		g.logged = true
		g.s.log.Warn("disk nearly full: answering from memory; thread memory and counters are kept in memory until space is freed",
			"dir", g.s.dir, "free_bytes", free, "floor_bytes", g.s.minFree)
	}
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// Degraded reports whether the store is short of disk space (so bot state
// is held in memory) and why; serve shows it on /healthz and /metrics.
func (s *Store) Degraded() (bool, string) {
	if !s.disk.low.Load() {
		return false, ""
	}
	return true, fmt.Sprintf("disk nearly full in %s: thread memory and counters are kept in memory", s.dir)
}

func expiry(ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return time.Now().Add(ttl)
}

// held returns the in-memory state of a KV key, if it has one.
func (g *diskGuard) held(key string) (memEntry, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.mem[key]
	if ok && !e.expires.IsZero() && time.Now().After(e.expires) {
		delete(g.mem, key)
		return memEntry{deleted: true}, true
	}
	return e, ok
}

// hold keeps a KV write in memory when space is short (or a read-only
// store cannot take it) and reports whether it did; otherwise the caller
// writes to Badger.
func (g *diskGuard) hold(key string, e memEntry) bool {
	if !g.s.readOnly && !g.handedOff.Load() && g.check(0) == nil {
		g.mu.Lock()
		_, had := g.mem[key]
		g.mu.Unlock()
		if !had {
			return false
		}
		// Space is back, but memory holds a newer state of this key:
		// keep it there so reads stay consistent.
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	e.seq = g.seq
	g.mem[key] = e
	return true
}

// holdIfAbsent is SetIfAbsent in memory; held is false when the write
// should go to Badger instead.
func (g *diskGuard) holdIfAbsent(ctx context.Context, kv *KV, userKey, key string, e memEntry) (wrote, held bool) {
	g.mu.Lock()
	_, inMem := g.mem[key]
	g.mu.Unlock()
	if !inMem && !g.s.readOnly && !g.handedOff.Load() && g.check(0) == nil {
		return false, false
	}
	if _, present, err := kv.get(ctx, userKey); err == nil && present {
		return false, true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	e.seq = g.seq
	g.mem[key] = e
	return true, true
}

// mergeKeys applies the in-memory KV state to keys listed from Badger.
func (g *diskGuard) mergeKeys(keys []string, nsPrefix, prefix string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.mem) == 0 {
		return keys
	}
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	now := time.Now()
	for full, e := range g.mem {
		k, ok := strings.CutPrefix(full, nsPrefix)
		if !ok || !strings.HasPrefix(k, prefix) {
			continue
		}
		live := !e.deleted && (e.expires.IsZero() || now.Before(e.expires))
		set[k] = live
	}
	out := keys[:0]
	for k, live := range set {
		if live {
			out = append(out, k)
		}
	}
	return out
}

// CheckDisk checks free space now: nil when writes may grow the store,
// an ErrDiskFull error while it is short (serve's /healthz asks).
func (s *Store) CheckDisk(context.Context) error {
	if s.readOnly {
		return nil
	}
	return s.disk.check(0)
}

// CheckFreeSpace reports ErrDiskFull, with the space free and needed, when
// the file system holding dir has less free than a writing store needs
// (the default floor); nil otherwise, or when free space cannot be told.
// The import command asks it when its writing process died, to tell a
// disk filled under Badger's memory-mapped writes from any other crash.
func CheckFreeSpace(dir string) error {
	free, ok := freeBytes(dir)
	if !ok || free >= defaultMinFree {
		return nil
	}
	return fmt.Errorf("%w in %s: %s free, %s needed", ErrDiskFull, dir, mib(free), mib(defaultMinFree))
}
