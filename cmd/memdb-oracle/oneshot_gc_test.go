package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcOff is how the runtime reports GOGC=off.
const gcOff = ^uint64(0)

// gcSettings reads GOGC and GOMEMLIMIT without setting them.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// waitRestored collects until collectFrom's finalizer has put GOGC and
// GOMEMLIMIT back to percent and limit.
func waitRestored(t *testing.T, percent, limit uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, l := gcSettings()
		if p == percent && l == limit {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first collection: GOGC %d, limit %d; want %d, %d back", p, l, percent, limit)
		}
		runtime.GC() // the finalizer runs after a collection finds the sentinel unreachable
		time.Sleep(time.Millisecond)
	}
}

func TestTheCollectorComesBackWithItsSettingsAfterTheFirstCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	collectFrom(1 << 30)
	if percent, limit := gcSettings(); percent != gcOff || limit != 1<<30 {
		t.Fatalf("before the first collection: GOGC %d, limit %d; want off, 1 GiB", percent, limit)
	}
	waitRestored(t, 150, 1<<40)
}

func TestALowerMemoryLimitIsKept(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(32 << 20))
	collectFrom(1 << 30)
	_, limit := gcSettings()
	waitRestored(t, 100, 32<<20)
	if limit != 32<<20 {
		t.Fatalf("limit %d while collecting late, want the 32 MiB set before", limit)
	}
}
