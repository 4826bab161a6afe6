package analytics

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the CPU time this process has used, the garbage
// collector's included: unlike wall time, other processes on a busy
// machine do not inflate it.
func processCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// maxRSSKB is a finished process's peak resident set in KiB, never below
// this process's peak when it started the child: Go starts children with
// vfork, and exec keeps the peak of the memory the child shared until
// then (runProcess resets this process's peak first, so the floor is its
// resident set, some 20–40 MiB).
func maxRSSKB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
