package analytics

// TEMPORARY CONTRACT FILE: the analytics helper replaces these bodies with
// the real implementation (store.go, csv.go, filter.go, aggregate.go,
// coverage.go, kv.go) and deletes this file.

import (
	"context"
	"io"
	"log/slog"
	"time"
)

// Options configure Open.
type Options struct {
	Dir      string       // data directory; ignored when InMemory
	InMemory bool         // Badger in-memory mode, for tests
	Logger   *slog.Logger // nil: discard
}

// Store holds the runs in Badger and an in-memory index loaded once.
type Store struct{}

// Open opens (creating if needed) the store and loads its runs into memory.
func Open(ctx context.Context, opts Options) (*Store, error) { panic("unimplemented") }

// Close stops the value-log GC loop and closes Badger.
func (s *Store) Close() error { panic("unimplemented") }

// ImportReport says what an import did.
type ImportReport struct {
	File           string         `json:"file"`
	Session        int            `json:"session"`
	Rows           int            `json:"rows"`            // data rows read
	Kept           int            `json:"kept"`            // rows passing the keep rule
	Added          int            `json:"added"`           // new runs written
	AlreadyPresent int            `json:"already_present"` // identical runs already stored (idempotent re-import)
	Skipped        map[string]int `json:"skipped"`         // note → rows skipped by the keep rule
}

// ImportDefault imports the embedded dataset (both sessions) when the store
// holds no runs yet. Safe to call on every start.
func (s *Store) ImportDefault(ctx context.Context) ([]ImportReport, error) { panic("unimplemented") }

// Import validates every row of one CSV, then writes all kept rows in one
// atomic step, or nothing. A validation failure is an *ImportError listing
// every bad line.
func (s *Store) Import(ctx context.Context, name string, r io.Reader, session int) (ImportReport, error) {
	panic("unimplemented")
}

// Runs returns every stored run in ID order (a copy).
func (s *Store) Runs() []Run { panic("unimplemented") }

// Query compiles the filter through the one gate (CompileFilter), selects
// matching runs and aggregates them into cells (median across reps).
func (s *Store) Query(ctx context.Context, filter string) (Result, error) { panic("unimplemented") }

// Coverage lists, per (session, engine, mode), the knob values measured.
func (s *Store) Coverage() []SeriesCoverage { panic("unimplemented") }

// Exists reports whether the exact combination was measured.
func (s *Store) Exists(k CellKey) bool { panic("unimplemented") }

// Nearest returns up to n measured cells closest to k, preferring cells
// that differ in one knob, each naming the knobs that differ.
func (s *Store) Nearest(k CellKey, n int) []Neighbor { panic("unimplemented") }

// Fingerprint is a stable hash of every stored run (changes when runs are added).
func (s *Store) Fingerprint() string { panic("unimplemented") }

// KV returns a small persistent key-value space for bot state (thread
// memory, rate-limit counters, event de-duplication, digest markers),
// stored in the same Badger database under its own prefix.
func (s *Store) KV(namespace string) *KV { panic("unimplemented") }

// KV is a namespaced key-value space in the store's Badger database.
type KV struct{}

// Get returns the value and whether it exists (and has not expired).
func (kv *KV) Get(ctx context.Context, key string) ([]byte, bool, error) { panic("unimplemented") }

// Set writes the value; ttl 0 means no expiry.
func (kv *KV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	panic("unimplemented")
}

// SetIfAbsent writes the value only if the key does not exist, atomically,
// and reports whether it wrote.
func (kv *KV) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	panic("unimplemented")
}

// Delete removes the key.
func (kv *KV) Delete(ctx context.Context, key string) error { panic("unimplemented") }

// Keys lists the keys with the given prefix, sorted.
func (kv *KV) Keys(ctx context.Context, prefix string) ([]string, error) { panic("unimplemented") }

// Filter is a compiled, checked filter.
type Filter struct{}

// CompileFilter checks and compiles a filter in the DESIGN §2 vocabulary.
// Errors are *FilterError values with a position and a user-facing message.
func CompileFilter(filter string) (*Filter, error) { panic("unimplemented") }

// Match reports whether the run passes the filter.
func (f *Filter) Match(r *Run) (bool, error) { panic("unimplemented") }

// FilterError is a user-facing filter error pointing at the offending token.
type FilterError struct {
	Filter string // the filter as given
	Pos    int    // byte offset of the offending token, -1 when none
	Msg    string // e.g. `unknown field "core" (did you mean "cores"?)`
}

func (e *FilterError) Error() string { return e.Msg }

// RowProblem is one bad field of one CSV line.
type RowProblem struct {
	Line   int    `json:"line"`
	Column string `json:"column"`
	Reason string `json:"reason"`
}

// ImportError lists every problem found in a file; nothing was written.
type ImportError struct {
	File     string
	Problems []RowProblem
}

func (e *ImportError) Error() string { return "import " + e.File + ": invalid" }
