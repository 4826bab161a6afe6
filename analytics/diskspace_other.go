//go:build !unix

package analytics

// freeBytes cannot tell free space on this platform; writes are not
// checked in advance.
func freeBytes(string) (uint64, bool) { return 0, false }
