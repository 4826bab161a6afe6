//go:build !linux

package analytics

import (
	"os"
	"time"
)

// processCPU is not available here: callers fall back to wall time.
func processCPU() (time.Duration, bool) { return 0, false }

// maxRSSKB is not available here: 0.
func maxRSSKB(*os.ProcessState) int64 { return 0 }
