//go:build !linux

package analytics

// preallocateMapped does nothing where fallocate is not available: writes
// are guarded by the free-space floor alone.
func preallocateMapped(string) error { return nil }

// mappedLogBytes is 0 where nothing is preallocated.
func mappedLogBytes(string) uint64 { return 0 }
