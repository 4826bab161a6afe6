//go:build !unix

package cli

// terminalWidth cannot ask the terminal here; $COLUMNS or the default
// decides.
func terminalWidth(uintptr) (int, bool) { return 0, false }
