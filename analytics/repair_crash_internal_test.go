package analytics

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// The repair child: when the parent test re-executes this test binary with
// these variables set, TestRepairChildProcess repairs the directory and
// kills itself with SIGKILL at the named step of the swap, or ("build")
// while the new store is still being built aside.
const (
	repairDirEnv   = "MEMDB_ORACLE_REPAIR_DIR"
	repairPointEnv = "MEMDB_ORACLE_REPAIR_POINT"
)

func TestRepairChildProcess(t *testing.T) {
	dir, point := os.Getenv(repairDirEnv), os.Getenv(repairPointEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestARepairKilledAtAnyPointLeavesTheDamagedStoreOrTheRepairedOne")
	}
	die := func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	swapTestHook = func(step string) {
		if step == point {
			die()
		}
	}
	testStage = func(stage string) {
		if point == "build" && stage == "committed" {
			die()
		}
	}
	if _, err := Repair(t.Context(), dir, nil); err != nil {
		t.Fatal(err)
	}
}

func TestARepairKilledAtAnyPointLeavesTheDamagedStoreOrTheRepairedOne(t *testing.T) {
	if os.Getenv(repairDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := storeWithImport(t)
	table := largestTable(t, base)
	if fi, err := os.Stat(table); err != nil || os.Truncate(table, fi.Size()/2) != nil { // the store is damaged
		t.Fatal("truncating a table:", err)
	}
	for _, point := range []string{"build", "marker", "old:0", "old:3", "moved", "new:0", "new:2", "done"} {
		t.Run(point, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			runChildUntilKilled(t, "TestRepairChildProcess", repairDirEnv+"="+dir, repairPointEnv+"="+point)
			if !HasStore(dir) {
				t.Fatalf("after a kill at %s the directory no longer reads as a store", point)
			}
			// Killed while building aside: the damaged store is as it was,
			// and is still refused; a new repair starts over.
			if point == "build" {
				if _, err := Open(t.Context(), Options{Dir: dir}); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open after a kill while building: %v, want the damaged store refused", err)
				}
				if _, err := Repair(t.Context(), dir, nil); err != nil {
					t.Fatalf("repair again: %v", err)
				}
			}
			// Killed during the swap: a read-only open refuses, and the
			// next open finishes the swap.
			if _, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true}); point != "build" && point != "done" && !errors.Is(err, ErrNeedsRecovery) {
				t.Errorf("read-only open after a kill at %s: %v, want ErrNeedsRecovery", point, err)
			}
			counts, err := Check(t.Context(), dir)
			if err != nil || counts[1] != 350 || counts[2] != 128 || counts[3] != 350 {
				t.Fatalf("after a kill at %s: %v, %v; want the repaired store", point, counts, err)
			}
			if swapPending(dir) {
				t.Errorf("the swap marker is still there")
			}
			if _, err := os.Stat(filepath.Join(dir, repairDir)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the build directory is still there: %v", err)
			}
			damaged, _ := filepath.Glob(filepath.Join(dir, damagedPrefix+"*", "*.sst"))
			if len(damaged) == 0 {
				t.Errorf("the damaged store's tables were not kept aside")
			}
		})
	}
}

// runChildUntilKilled runs one test of this binary as a child process with
// the extra environment, and fails unless the child died by SIGKILL (the
// crash tests' children kill themselves at the point they are given).
func runChildUntilKilled(t *testing.T, test string, env ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v\n%s", err, out)
	}
}
