package analytics

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest/smalldisk"
)

const (
	windowDirEnv   = "MEMDB_ORACLE_WINDOW_DIR"
	windowFillEnv  = "MEMDB_ORACLE_WINDOW_FILL"  // the write before which the disk is filled; 0: never
	windowLeaveEnv = "MEMDB_ORACLE_WINDOW_LEAVE" // bytes that fill leaves free
)

// The child's thread-memory writes: incompressible values, so that the
// table a memtable flushes into is as large as the memtable (8 MiB), and
// enough of them for one rotation of the memtable and its flush.
const (
	windowWrites = 240
	windowValue  = 48 << 10
)

// TestMemtableWindowChild writes thread memory into a store, as serve
// does; before write number fill, between the guard's look at free space
// and Badger's write (where another process can fill the disk), it fills
// the disk leaving leave bytes. It prints WROTE i for each write
// acknowledged and ROTATED i when Badger has started a new memtable log.
func TestMemtableWindowChild(t *testing.T) {
	dir := os.Getenv(windowDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestAThreadWriteOnADiskFilledUnderItLosesNothing")
	}
	fill, _ := strconv.Atoi(os.Getenv(windowFillEnv))
	leave, _ := strconv.ParseInt(os.Getenv(windowLeaveEnv), 10, 64)
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	kv := s.KV("threads")
	value := make([]byte, windowValue)
	_, _ = rand.Read(value)
	i := 0
	faultHook = func(point string) error {
		if point == "badger.kv" && i == fill {
			fillLeaving(filepath.Join(filepath.Dir(dir), "filler"), leave)
		}
		return nil
	}
	defer func() { faultHook = nil }()
	logs := memLogs(dir)
	for i = 1; i <= windowWrites; i++ {
		if err := kv.Set(t.Context(), fmt.Sprintf("thread-%03d", i), value, 0); err != nil {
			fmt.Printf("ERROR %d %v\n", i, err)
			continue
		}
		fmt.Printf("WROTE %d\n", i)
		if now := memLogs(dir); !slices.Equal(now, logs) {
			fmt.Printf("ROTATED %d\n", i)
			logs = now
		}
	}
	if err := s.Close(); err != nil {
		fmt.Printf("ERROR close %v\n", err)
	}
}

func memLogs(dir string) []string {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.mem"))
	slices.Sort(logs)
	return logs
}

// fillLeaving writes path until its file system is full, then gives back
// leave bytes.
func fillLeaving(path string, leave int64) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	smalldisk.FillFile(f)
	if fi, err := f.Stat(); err == nil && leave > 0 {
		_ = f.Truncate(max(0, fi.Size()-leave))
	}
}

// TestAThreadWriteOnADiskFilledUnderItLosesNothing measures the window
// that docs/storage.md says remains in a process that writes thread
// memory (serve): another writer fills the disk between the guard's look
// at free space and the write that makes Badger rotate its memtable, whose
// flush writes a new table through a memory map on Badger's own
// goroutine. With at least a memtable's table free (12 MiB) that never
// crashes; with less, the flush faults and the process dies of SIGBUS,
// where nothing in it can turn the fault into an error. Either way no
// write that reached Badger is lost (the memtable log is replayed by the
// next open) and the store is sound; the writes after the fill are held in
// memory and end with the process, as the disk stays full.
func TestAThreadWriteOnADiskFilledUnderItLosesNothing(t *testing.T) {
	if os.Getenv(windowDirEnv) != "" {
		t.Skip("inside the child")
	}
	run := func(t *testing.T, fill int, leave int64) (out string, crashed bool) {
		disk := smalldisk.Mount(t, "256m")
		dir := filepath.Join(disk, "data")
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestMemtableWindowChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), windowDirEnv+"="+dir, windowFillEnv+"="+strconv.Itoa(fill), windowLeaveEnv+"="+strconv.FormatInt(leave, 10))
		b, err := cmd.CombinedOutput()
		out = string(b)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			crashed = strings.Contains(out, "unexpected fault address")
			if !crashed {
				t.Fatalf("the child failed otherwise: %v\n%.3000s", err, out)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		// Space back, the next open replays what the child wrote to
		// Badger: every write up to the fill (the later ones were held in
		// memory, with the disk full, and end with the process).
		_ = os.Remove(filepath.Join(disk, "filler"))
		acked := 0
		for line := range strings.SplitSeq(out, "\n") {
			if n, ok := strings.CutPrefix(line, "WROTE "); ok {
				acked, _ = strconv.Atoi(n)
			}
		}
		if fill > 0 {
			acked = min(acked, fill)
		}
		s, err := Open(t.Context(), Options{Dir: dir})
		if err != nil {
			t.Fatalf("open after the child (crashed %v): %v", crashed, err)
		}
		defer s.Close()
		if err := s.Verify(t.Context()); err != nil {
			t.Errorf("verify after the child (crashed %v): %v", crashed, err)
		}
		kv := s.KV("threads")
		for i := 1; i <= acked; i++ {
			if _, ok, err := kv.Get(t.Context(), fmt.Sprintf("thread-%03d", i)); !ok || err != nil {
				t.Errorf("acknowledged write %d of %d lost (crashed %v): %v", i, acked, crashed, err)
				break
			}
		}
		return out, crashed
	}
	out, crashed := run(t, 0, 0)
	rot := 0
	for line := range strings.SplitSeq(out, "\n") {
		if n, ok := strings.CutPrefix(line, "ROTATED "); ok && rot == 0 {
			rot, _ = strconv.Atoi(n)
		}
	}
	if crashed || rot < 2 {
		t.Fatalf("with space to spare: crashed %v, rotation at write %d\n%.3000s", crashed, rot, out)
	}
	// The rotation is seen after the write that made it; the flush it
	// starts is still copying during the next write.
	tests := []struct {
		name  string
		fill  int
		leave int64
		safe  bool // the guard's floor covers it: no crash allowed
	}{
		{"full to the last byte before the write that rotates", rot - 1, 0, false},
		{"12 MiB left before the write that rotates", rot - 1, 12 << 20, true},
	}
	if *allFaults {
		tests = append(tests, []struct {
			name  string
			fill  int
			leave int64
			safe  bool
		}{
			{"full to the last byte during the flush", rot, 0, false},
			{"4 MiB left before the write that rotates", rot - 1, 4 << 20, false},
			{"4 MiB left during the flush", rot, 4 << 20, false},
			{"12 MiB left during the flush", rot, 12 << 20, true},
			{"24 MiB left before the write that rotates", rot - 1, 24 << 20, true},
		}...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, crashed := run(t, tt.fill, tt.leave)
			switch {
			case crashed && tt.safe:
				t.Errorf("the process died with %d MiB left:\n%.3000s", tt.leave>>20, out)
			case crashed:
				t.Logf("the flush faulted and the process died of SIGBUS (the window that remains); nothing acknowledged was lost")
			default:
				t.Logf("no crash")
			}
		})
	}
}
