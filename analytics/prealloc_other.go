//go:build !linux

package analytics

// preallocateMapped does nothing where fallocate is not available: writes
// are guarded by the free-space floor alone.
func preallocateMapped(string) error { return nil }
