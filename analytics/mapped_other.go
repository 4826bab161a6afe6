//go:build !linux

package analytics

// releaseMappedPages is a no-op where the kernel offers no way to reclaim a
// mapping's pages on request.
func releaseMappedPages(string) {}

// forgetMappedPages is a no-op where the kernel offers no way to drop a
// mapping's pages on request.
func forgetMappedPages(string) {}
