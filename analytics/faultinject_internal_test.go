package analytics

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// allFaults makes the storage tests try every case: every fault kind at
// every fault point (else one kind a point, in turn, an import's every
// other point and a repair's every sixth), the disk-fill test at five
// points of an import, the bit-rot test at six places of a table, and the
// power-loss test at all 17 points of an import.
var allFaults = flag.Bool("memdb.all-faults", false, "the fault-injection, disk-fill, bit-rot and power-loss tests try every case (slow)")

// faultKinds are the failures injected: what a failing disk, a full disk
// and a disk that fills mid-write return.
var faultKinds = []struct {
	name string
	err  error
}{
	{"EIO", &os.PathError{Op: "write", Path: "injected", Err: syscall.EIO}},
	{"ENOSPC", &os.PathError{Op: "write", Path: "injected", Err: syscall.ENOSPC}},
	{"short write", errShortWrite},
}

// faultOp is one operation under test: it runs on dir and says what a
// sound store must hold afterwards.
type faultOp struct {
	name string
	base func(t *testing.T) string // a closed data directory to copy
	run  func(t *testing.T, dir string) error
	// check verifies the data directory after run returned err (closed,
	// faults off); it returns the outcome's name.
	check func(t *testing.T, dir string, err error) string
}

// pointsOf runs op once without faults and lists the fault points it
// passes, in order.
func pointsOf(t *testing.T, op faultOp, base string) []string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	copyDir(t, base, dir)
	var points []string
	faultHook = func(p string) error { points = append(points, p); return nil }
	defer func() { faultHook = nil }()
	if err := op.run(t, dir); err != nil {
		t.Fatalf("%s without faults: %v", op.name, err)
	}
	return points
}

func TestEveryWriteAndSyncCanFailWithoutLosingAnything(t *testing.T) {
	mine, _ := DefaultDataset()[0].Open()
	embeddedOnly := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "data")
		s, err := Open(t.Context(), Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportDefault(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	session3 := func(t *testing.T, dir string) int {
		counts, err := Check(t.Context(), dir)
		if err != nil {
			s, oerr := Open(t.Context(), Options{Dir: dir}) // rolls back an interrupted import
			if oerr == nil {
				s.Close()
				counts, err = Check(t.Context(), dir)
			}
		}
		if err != nil {
			t.Fatalf("the store is not sound afterwards: %v", err)
		}
		return counts[3]
	}
	ops := []faultOp{
		{
			name: "import",
			base: embeddedOnly,
			run: func(t *testing.T, dir string) error {
				s, err := Open(t.Context(), Options{Dir: dir})
				if err != nil {
					return err
				}
				_, ierr := s.Import(t.Context(), "mine.csv", strings.NewReader(string(mine)), 3)
				// The same process goes on: a second import builds on
				// whatever the first left.
				faultHook = nil
				_, jerr := s.Import(t.Context(), "again.csv", strings.NewReader(string(mine)), 4)
				return errors.Join(ierr, jerr, s.Close())
			},
			check: func(t *testing.T, dir string, err error) string {
				n := session3(t, dir)
				switch {
				case n != 0 && n != 350:
					t.Errorf("session 3 holds %d runs: neither none nor all 350", n)
				case err == nil && n != 350:
					t.Errorf("the import succeeded but session 3 holds %d runs", n)
				case err != nil && strings.Contains(err.Error(), "nothing written") && n != 0:
					t.Errorf("the import said nothing was written, but session 3 holds %d runs", n)
				}
				if counts, _ := Check(t.Context(), dir); counts[4] != 350 {
					t.Errorf("the next import in the same process left session 4 with %d runs", counts[4])
				}
				if n == 350 {
					return "committed"
				}
				return "rolled back"
			},
		},
		{
			name: "repair",
			base: func(t *testing.T) string {
				dir := storeWithImport(t)
				table := largestTable(t, dir)
				if fi, err := os.Stat(table); err != nil || os.Truncate(table, fi.Size()/2) != nil {
					t.Fatal("truncating a table:", err)
				}
				return dir
			},
			run: func(t *testing.T, dir string) error {
				_, err := Repair(t.Context(), dir, nil)
				return err
			},
			check: func(t *testing.T, dir string, err error) string {
				if _, cerr := Check(t.Context(), dir); cerr != nil {
					if err == nil {
						t.Errorf("repair succeeded but the store is not sound: %v", cerr)
					}
					// A failed repair loses nothing: run again, it restores all.
					rep, rerr := Repair(t.Context(), dir, nil)
					if rerr != nil || len(rep.Restored) != 1 || rep.Restored[0].Added != 350 {
						t.Fatalf("repairing again after a failed repair: %+v, %v", rep, rerr)
					}
				}
				if n := session3(t, dir); n != 350 {
					t.Errorf("after the repair session 3 holds %d runs, want 350", n)
				}
				if err != nil {
					return "failed, repaired on the next try"
				}
				return "repaired"
			},
		},
		{
			name: "thread write",
			base: embeddedOnly,
			run: func(t *testing.T, dir string) error {
				s, err := Open(t.Context(), Options{Dir: dir})
				if err != nil {
					return err
				}
				return errors.Join(s.KV("threads").Set(t.Context(), "t1", []byte("plan"), 0), s.Close())
			},
			check: func(t *testing.T, dir string, err error) string {
				session3(t, dir)
				s, oerr := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
				if oerr != nil {
					t.Fatal(oerr)
				}
				defer s.Close()
				v, found, gerr := s.KV("threads").Get(t.Context(), "t1")
				switch {
				case gerr != nil:
					t.Errorf("reading the thread back: %v", gerr)
				case err == nil && (!found || string(v) != "plan"):
					t.Errorf("the write succeeded but reads back %q, %v", v, found)
				case found && string(v) != "plan":
					t.Errorf("the thread reads back %q", v)
				}
				if found {
					return "written"
				}
				return "refused, not written"
			},
		},
	}
	total, lost := 0, 0
	outcomes := map[string]int{}
	for _, op := range ops {
		base := op.base(t)
		points := pointsOf(t, op, base)
		t.Logf("%s: %d fault points (%s)", op.name, len(points), summarizePoints(points))
		for i, point := range points {
			for k, kind := range faultKinds {
				switch {
				case kind.err == errShortWrite && !strings.HasSuffix(point, ".write"):
					continue
				case !*allFaults && (k != i%len(faultKinds) && !(kind.err == errShortWrite && i%len(faultKinds) == 2)):
					continue
				case !*allFaults && op.name == "repair" && i%6 != 0, !*allFaults && op.name == "import" && i%2 != 0:
					continue
				}
				name := fmt.Sprintf("%s/%s at point %d (%s)", op.name, kind.name, i, point)
				t.Run(name, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "data")
					copyDir(t, base, dir)
					calls := 0
					faultHook = func(string) error {
						calls++
						if calls == i+1 {
							return kind.err
						}
						return nil
					}
					err := op.run(t, dir)
					faultHook = nil
					if calls <= i {
						t.Skipf("the run passed only %d points", calls)
					}
					outcome := op.check(t, dir, err)
					total++
					outcomes[op.name+": "+outcome]++
					if t.Failed() {
						lost++
					}
				})
			}
		}
	}
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %s: %d", k, outcomes[k])
	}
	t.Logf("%d faults injected, %d lost or inconsistent; outcomes:%s", total, lost, b.String())
}

// summarizePoints counts the points by name.
func summarizePoints(points []string) string {
	n := map[string]int{}
	for _, p := range points {
		n[p]++
	}
	names := make([]string, 0, len(n))
	for p := range n {
		names = append(names, p)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, p := range names {
		parts[i] = fmt.Sprintf("%s×%d", p, n[p])
	}
	return strings.Join(parts, ", ")
}
