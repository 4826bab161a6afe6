package analytics

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The power-loss child: imports a file and, at the N-th fault point, kills
// itself. After every sync of Badger's files it copies them aside (to
// DIR.synced): the parent then puts that copy back, dropping every write
// Badger had not been asked to sync, while the store's own files (synced
// as they are written) stay as the kill left them.
const (
	powerDirEnv   = "MEMDB_ORACLE_POWER_DIR"
	powerPointEnv = "MEMDB_ORACLE_POWER_POINT"
)

// badgerFile reports whether a file of the data directory is Badger's.
func badgerFile(name string) bool {
	return name == "MANIFEST" || name == "KEYREGISTRY" || name == "LOCK" ||
		strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".vlog") || strings.HasSuffix(name, ".mem")
}

// copyBadgerFiles copies Badger's files of from into to (emptied first).
func copyBadgerFiles(t testing.TB, from, to string) {
	t.Helper()
	if err := os.RemoveAll(to); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !badgerFile(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPowerLossChildProcess(t *testing.T) {
	dir := os.Getenv(powerDirEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestAPowerLossAtAnyPointOfAnImportLosesNothingCommitted")
	}
	at, _ := strconv.Atoi(os.Getenv(powerPointEnv))
	calls, prev := 0, ""
	faultHook = func(point string) error {
		if prev == "badger.sync" { // the sync asked for last has returned
			copyBadgerFiles(t, dir, dir+".synced")
		}
		prev = point
		if calls == at {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		calls++
		return nil
	}
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "mine.csv", strings.NewReader(string(b)), 3); err != nil {
		t.Fatal(err)
	}
	faultHook = nil
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAPowerLossAtAnyPointOfAnImportLosesNothingCommitted(t *testing.T) {
	if os.Getenv(powerDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{Dir: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	const points = 17 // an import's fault points (see TestEveryWriteAndSyncCanFailWithoutLosingAnything)
	outcomes := map[string]int{}
	for i := range points {
		if !*allFaults && i%4 != 0 {
			continue
		}
		t.Run(fmt.Sprintf("power lost at point %d", i), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			copyBadgerFiles(t, dir, dir+".synced") // synced when the last process closed
			runChildUntilKilled(t, "TestPowerLossChildProcess", powerDirEnv+"="+dir, powerPointEnv+"="+strconv.Itoa(i))
			// Badger's files go back to their last synced state.
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if !e.IsDir() && badgerFile(e.Name()) {
					if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
						t.Fatal(err)
					}
				}
			}
			synced, _ := os.ReadDir(dir + ".synced")
			for _, e := range synced {
				b, err := os.ReadFile(filepath.Join(dir+".synced", e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatalf("open after the power loss: %v", err)
			}
			n := s.StoredRuns()[3]
			mirror, _, _ := readManifestFile(dir)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			counts, err := Check(t.Context(), dir)
			switch {
			case err != nil:
				t.Fatalf("doctor after the power loss: %v", err)
			case n != 0 && n != 350 || counts[3] != n:
				t.Errorf("session 3 holds %d runs (doctor: %d): neither none nor all", n, counts[3])
			case mirror.Sessions[sessionKey(3)].Runs > n:
				t.Errorf("the manifest file records %d runs of session 3 that Badger lost", mirror.Sessions[sessionKey(3)].Runs)
			}
			if n == 350 {
				outcomes["committed"]++
			} else {
				outcomes["rolled back"]++
			}
		})
	}
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%s: %d", k, outcomes[k])
	}
}
