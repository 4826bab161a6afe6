package analytics

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// The crash child: when the parent test re-executes this test binary with
// these variables set, TestImportChildProcess imports the embedded
// session-1 file as session 3 into the directory and kills itself with
// SIGKILL at the named point of the import.
const (
	crashDirEnv   = "MEMDB_ORACLE_CRASH_DIR"
	crashPointEnv = "MEMDB_ORACLE_CRASH_POINT" // a stage name, or "run:N"
)

func TestImportChildProcess(t *testing.T) {
	dir, point := os.Getenv(crashDirEnv), os.Getenv(crashPointEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestAnImportKilledAtAnyPointLeavesTheOldStoreOrTheNew")
	}
	s, err := Open(t.Context(), Options{Dir: dir, DeferLoad: true, ForImport: true})
	if err != nil {
		t.Fatal(err)
	}
	die := func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	s.atStage = func(stage string) {
		if stage == point {
			die()
		}
	}
	s.beforeWrite = func(i int) error {
		if point == "run:"+strconv.Itoa(i) {
			die()
		}
		return nil
	}
	b, _ := DefaultDataset()[0].Open()
	if _, err := s.Import(t.Context(), "again.csv", bytes.NewReader(b), 3); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
}

func TestAnImportKilledAtAnyPointLeavesTheOldStoreOrTheNew(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("inside the child")
	}
	base := t.TempDir()
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
	// A few points sampled across the protocol, deterministically: after
	// the marker, at the first, a middle and the last run, after the
	// batches are flushed, after the derived data (cell index) is written,
	// and just after the commit.
	for _, tc := range []struct {
		point string
		runs  int // what the store must hold afterwards
	}{
		{"marker", 478}, {"run:0", 478}, {"run:175", 478}, {"run:349", 478},
		{"flushed", 478}, {"derived", 478}, {"committed", 828},
	} {
		t.Run(tc.point, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			copyDir(t, base, dir)
			runChildUntilKilled(t, "TestImportChildProcess", crashDirEnv+"="+dir, crashPointEnv+"="+tc.point)
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatalf("reopen after the kill: %v", err)
			}
			defer s.Close()
			if err := s.Verify(t.Context()); err != nil {
				t.Errorf("after a kill at %s: %v", tc.point, err)
			}
			if got := len(s.Runs()); got != tc.runs {
				t.Errorf("after a kill at %s the store holds %d runs, want %d", tc.point, got, tc.runs)
			}
			if copies, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*.csv")); len(copies) != (tc.runs-478)/350 {
				t.Errorf("source copies after a kill at %s: %v", tc.point, copies)
			}
			b, _ := DefaultDataset()[0].Open()
			rep, err := s.Import(t.Context(), "again.csv", bytes.NewReader(b), 3)
			if err != nil || len(s.Runs()) != 828 || rep.Added+rep.AlreadyPresent != 350 {
				t.Errorf("import after recovery: %+v, %v; runs %d", rep, err, len(s.Runs()))
			}
		})
	}
}

// copyDir copies a flat directory tree (a data directory).
func copyDir(tb testing.TB, from, to string) {
	tb.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
