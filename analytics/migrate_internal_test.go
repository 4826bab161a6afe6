package analytics

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// writeFormat1Store writes a data directory the way the previous release
// did (store format 1): each embedded run as JSON under run/{id}, no
// format key, a format-1 manifest (digests of the JSON values) in Badger
// and in the mirror file.
func writeFormat1Store(t *testing.T, dir string) {
	t.Helper()
	writeFormat1Runs(t, dir, embeddedRuns(t))
}

// writeFormat1Runs writes a format-1 store of runs, listing the embedded
// dataset's files as its imports.
func writeFormat1Runs(t testing.TB, dir string, runs []Run) {
	t.Helper()
	db, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	m := manifest{Format: 1, Generation: 2, Sessions: map[string]sessionSums{}}
	digests := map[string]*digest256{}
	wb := db.NewWriteBatch()
	for _, r := range runs {
		key := []byte(legacyRunPrefix + r.ID)
		val, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		k := sessionKey(r.Session)
		if digests[k] == nil {
			digests[k] = &digest256{}
		}
		digests[k].add(runDigest(key, val))
		m.Sessions[k] = sessionSums{Runs: m.Sessions[k].Runs + 1}
		if err := wb.Set(key, val); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	for k, d := range digests {
		m.Sessions[k] = sessionSums{Runs: m.Sessions[k].Runs, Digest: d.String()}
	}
	for i, f := range DefaultDataset() {
		m.Sources = append(m.Sources, importSource{Generation: uint64(i + 1), Name: f.Name(), Session: f.Session,
			Embedded: true, Added: m.Sessions[sessionKey(f.Session)].Runs})
	}
	if err := db.Update(func(txn *badger.Txn) error { return setJSON(txn, manifestKey, m) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := writeManifestFile(dir, m); err != nil {
		t.Fatal(err)
	}
}

// answers is what a store answers: every run, every cell, the coverage,
// and the results of filters of every shape.
type answers struct {
	Runs     []Run
	Cells    []Cell
	Coverage []SeriesCoverage
	Results  []Result
	Matches  [][]Run
}

func answersOf(t *testing.T, s *Store) answers {
	t.Helper()
	a := answers{Runs: s.Runs(), Cells: s.Cells(), Coverage: s.Coverage()}
	for _, f := range []string{`true`, selectiveFilter, `engine == "redis" && cores == 8`, `p99_ms < 1`,
		`engine == "valkey" && mode == "cluster" && ratio == "1:10" && rep == 2`} {
		res, err := s.Query(t.Context(), f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		runs, err := s.MatchRuns(t.Context(), f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		a.Results, a.Matches = append(a.Results, res), append(a.Matches, runs)
	}
	return a
}

func TestAStoreOfThePreviousFormatIsMigratedOnceAndAnswersAlike(t *testing.T) {
	want := answersOf(t, openDefault(t))
	dir := filepath.Join(t.TempDir(), "data")
	writeFormat1Store(t, dir)

	// Read-only (version, kb, plan): answered from format 1, nothing written.
	ro, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := answersOf(t, ro); !reflect.DeepEqual(got, want) {
		t.Error("a format-1 store opened read-only answers differently")
	}
	if ro.Migrated() != "" {
		t.Errorf("a read-only open migrated: %s", ro.Migrated())
	}
	ro.Close()

	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	msg := s.Migrated()
	if !strings.Contains(msg, "from store format 1") || !strings.Contains(msg, "478 runs") {
		t.Errorf("migration message = %q", msg)
	}
	if got := answersOf(t, s); !reflect.DeepEqual(got, want) {
		t.Error("the migrated store answers differently")
	}
	if n, _ := s.countKeys([]byte(legacyRunPrefix)); n != 0 {
		t.Errorf("%d format-1 runs left after the migration", n)
	}
	s.Close()

	s, err = Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated() != "" {
		t.Errorf("migrated a second time: %s", s.Migrated())
	}
	if got := answersOf(t, s); !reflect.DeepEqual(got, want) {
		t.Error("the migrated store answers differently when reopened")
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("doctor's check of the migrated store: %v", err)
	}
}

// TestMigrateChildProcess is the crash child of the migration test: it
// opens a format-1 store and kills itself at the named stage.
func TestMigrateChildProcess(t *testing.T) {
	dir, point := os.Getenv(crashDirEnv), os.Getenv(crashPointEnv)
	if dir == "" || !strings.HasPrefix(point, "migrate-") {
		t.Skip("runs only as the child process of TestAMigrationKilledAtAnyPointLeavesAUsableStore")
	}
	testStage = func(stage string) {
		if stage == point {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
}

func TestAMigrationKilledAtAnyPointLeavesAUsableStore(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := filepath.Join(t.TempDir(), "base")
	writeFormat1Store(t, base)
	killMigrationAt(t, base, []string{"migrate-marker", "migrate-runs", "migrate-committed"})
}

// killMigrationAt kills a process migrating a copy of the store in base at
// each of the stages (the last: after the commit), then checks that the
// store answers as the embedded dataset does, read-only before the next
// writing open and after it, and that only a migration the kill cut short
// runs again.
func killMigrationAt(t *testing.T, base string, points []string) {
	t.Helper()
	want := answersOf(t, openDefault(t))
	committed := points[len(points)-1]
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestMigrateChildProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashPointEnv+"="+point)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child did not die by SIGKILL: %v\n%s", err, out)
			}
			if point != committed {
				// Still the old store: a read-only open reads it in its old
				// format (unless Badger's log needs the truncation only a
				// writing open does, as after any kill).
				ro, err := Open(t.Context(), Options{Dir: dir, ReadOnly: true})
				switch {
				case errors.Is(err, ErrNeedsRecovery):
				case err != nil:
					t.Fatalf("read-only open after a kill at %s: %v", point, err)
				default:
					if got := answersOf(t, ro); !reflect.DeepEqual(got, want) {
						t.Errorf("after a kill at %s the old store answers differently", point)
					}
					ro.Close()
				}
			}
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatalf("reopen after a kill at %s: %v", point, err)
			}
			defer s.Close()
			if migrated := s.Migrated() != ""; migrated != (point != committed) {
				t.Errorf("after a kill at %s the next open migrated: %v", point, migrated)
			}
			if got := answersOf(t, s); !reflect.DeepEqual(got, want) {
				t.Errorf("after a kill at %s the store answers differently", point)
			}
			if err := s.Verify(t.Context()); err != nil {
				t.Errorf("doctor's check after a kill at %s: %v", point, err)
			}
		})
	}
}
