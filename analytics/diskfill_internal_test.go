package analytics

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The disk-fill child: imports a file into a store on a small tmpfs and,
// before the N-th run is written, fills that file system (as another
// process writing a log would) until less than the store's floor is left,
// or, with -memdb.fill-to-the-last-byte, until nothing is. It prints the outcome;
// a crash (SIGBUS from a write through a memory-mapped file) shows in its
// exit status. With the point "query" it only opens the store and answers.
const (
	fillDirEnv   = "MEMDB_ORACLE_FILL_DIR"
	fillFileEnv  = "MEMDB_ORACLE_FILL_FILE"
	fillPointEnv = "MEMDB_ORACLE_FILL_POINT"
)

// fillFloor is the free-space floor of the stores these tests open.
const fillFloor = 8 << 20

func TestDiskFillChildProcess(t *testing.T) {
	dir := os.Getenv(fillDirEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestADiskFilledAtAnyPointOfAnImportNeverCrashes")
	}
	point := os.Getenv(fillPointEnv)
	outcome := func(err error) {
		switch {
		case err == nil:
			fmt.Println("ok")
		case errors.Is(err, ErrDiskFull):
			fmt.Println("disk full")
		case errors.Is(err, ErrNeedsRecovery):
			fmt.Println("needs recovery")
		default:
			fmt.Println("other:", strings.ReplaceAll(err.Error(), "\n", " "))
		}
	}
	if point == "query" {
		s, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
		if err == nil {
			_, err = s.Query(t.Context(), fullScanFilter)
			s.Close()
		}
		outcome(err)
		return
	}
	at, _ := strconv.Atoi(point)
	s, err := Open(t.Context(), Options{Dir: dir, ForImport: true, MinFreeBytes: fillFloor})
	if err != nil {
		outcome(err)
		return
	}
	s.beforeWrite = func(i int) error {
		if i == at {
			leave := int64(fillFloor / 2)
			if *fillToTheLastByte {
				leave = 0
			}
			fillDisk(t, filepath.Dir(dir), leave)
		}
		return nil
	}
	f, err := os.Open(os.Getenv(fillFileEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = s.Import(t.Context(), "synthetic.csv", f, 3)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	outcome(err)
}

// fillToTheLastByte makes the disk-fill test leave no byte free: Badger
// then faults (SIGBUS) in any write into a file it creates after the fill
// (a new memtable log, a flushed table), which no check outside Badger can
// prevent; see docs/storage.md.
var fillToTheLastByte = flag.Bool("memdb.fill-to-the-last-byte", false, "the disk-fill test fills the disk completely")

// fillDisk writes a file in dir until its file system has at most leave
// bytes free.
func fillDisk(t *testing.T, dir string, leave int64) {
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		return // already full
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for _, n := range []int{1 << 20, 64 << 10, 4 << 10, 512, 1} {
		for {
			free, ok := freeBytes(dir)
			if !ok || int64(free) <= leave || int64(free)-int64(n) < leave && n > 1 {
				break
			}
			if _, err := f.Write(buf[:n]); err != nil {
				break
			}
		}
	}
}

func TestADiskFilledAtAnyPointOfAnImportNeverCrashes(t *testing.T) {
	if os.Getenv(fillDirEnv) != "" {
		t.Skip("inside the child")
	}
	disk := mountSmallDisk(t, "320m")
	base := storeWithImport(t)
	csv := syntheticFile(t, t.TempDir(), 10000)
	points := []int{0, 6000} // the first write, and after memtables were flushed
	if *allFaults {
		points = []int{0, 1000, 3000, 6000, 9999}
	}
	for _, point := range points {
		t.Run(fmt.Sprintf("filled before run %d", point), func(t *testing.T) {
			dir := filepath.Join(disk, "data")
			t.Cleanup(func() {
				os.RemoveAll(dir)
				os.Remove(filepath.Join(disk, "filler"))
			})
			copyDir(t, base, dir)
			got := fillChild(t, dir, csv, strconv.Itoa(point))
			if got != "disk full" && got != "ok" {
				t.Errorf("import on a disk filled before run %d: %q, want disk full", point, got)
			}
			// Still full: a query neither crashes nor answers from a partial import.
			if q := fillChild(t, dir, csv, "query"); q != "ok" && q != "needs recovery" && q != "disk full" {
				t.Errorf("a query on the full disk: %q", q)
			}
			if err := os.Remove(filepath.Join(disk, "filler")); err != nil && got != "ok" {
				t.Fatalf("the disk was not filled: %v", err)
			}
			counts, err := Check(t.Context(), dir)
			if err != nil {
				s, oerr := Open(t.Context(), Options{Dir: dir}) // an interrupted import rolls back
				if oerr != nil {
					t.Fatalf("after space returned: Check %v, open %v", err, oerr)
				}
				s.Close()
				counts, err = Check(t.Context(), dir)
			}
			if err != nil {
				t.Fatalf("after space returned: %v", err)
			}
			if n := counts[3]; n != 350 && n != 350+10000 {
				t.Errorf("session 3 holds %d runs: neither the old store (350) nor the new (10350)", n)
			}
		})
	}
}

// fillChild runs the disk-fill child and returns its outcome line; a crash
// fails the test.
func fillChild(t *testing.T, dir, csv, point string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestDiskFillChildProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), fillDirEnv+"="+dir, fillFileEnv+"="+csv, fillPointEnv+"="+point)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws := ee.Sys().(syscall.WaitStatus); ws.Signaled() {
			t.Fatalf("the child was killed by %v:\n%.3000s", ws.Signal(), out)
		}
	}
	if strings.Contains(string(out), "fatal error") || strings.Contains(string(out), "panic:") {
		t.Fatalf("the child crashed (%v):\n%.3000s", err, out)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}
