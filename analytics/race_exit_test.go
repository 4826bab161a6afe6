package analytics

import (
	"os"
	"testing"
)

// TestMain has the child processes the crash, fill and permission tests
// start from this binary exit as soon as they are done: a binary built
// with -race otherwise sleeps a second at exit (GORACE atexit_sleep_ms)
// for other goroutines' reports, a second per child on every run. Races
// are still detected and reported; this binary's own exit is unchanged.
func TestMain(m *testing.M) {
	os.Setenv("GORACE", "atexit_sleep_ms=0 "+os.Getenv("GORACE"))
	os.Exit(m.Run())
}
