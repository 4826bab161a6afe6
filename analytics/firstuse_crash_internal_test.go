package analytics

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestFirstUseChildProcess imports the embedded dataset into an empty
// directory, as a first use does (Badger sized Small, one sync at the end),
// and kills itself at the n-th occurrence of the named stage ("stage:n") or
// before its n-th run ("run:n", counted across both files).
func TestFirstUseChildProcess(t *testing.T) {
	dir, point := os.Getenv(crashDirEnv), os.Getenv(crashPointEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestAFirstUseKilledAtAnyPointRecovers")
	}
	s, err := Open(t.Context(), Options{Dir: dir, Small: true})
	if err != nil {
		t.Fatal(err)
	}
	die := func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	seen := map[string]int{}
	s.atStage = func(stage string) {
		seen[stage]++
		if point == stage+":"+strconv.Itoa(seen[stage]) {
			die()
		}
	}
	s.beforeWrite = func(i int) error {
		if point == "run:"+strconv.Itoa(i) {
			die()
		}
		return nil
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitImport(); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(point, "end") {
		die()
	}
	_ = s.Close()
}

// A first use killed anywhere in its import leaves a store that opens
// holding none of the embedded dataset or all of it (both sessions are one
// generation), verifies, and holds all of it once ImportDefault ran again
// (what the next command does).
func TestAFirstUseKilledAtAnyPointRecovers(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("inside the child")
	}
	points := []string{"marker:1", "run:100", "run:400", "flushed:1", "derived:1", "committed:1", "end"}
	if testing.Short() {
		points = []string{"run:400", "committed:1", "end"}
	}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			runChildUntilKilled(t, "TestFirstUseChildProcess", crashDirEnv+"="+dir, crashPointEnv+"="+point)
			s, err := Open(t.Context(), Options{Dir: dir})
			if err != nil {
				t.Fatalf("reopen after a kill at %s: %v", point, err)
			}
			defer s.Close()
			if got := len(s.Runs()); got != 0 && got != 478 {
				t.Errorf("after a kill at %s the store holds %d runs, want none or all 478", point, got)
			}
			if _, err := s.ImportDefault(t.Context()); err != nil {
				t.Fatalf("first use again after a kill at %s: %v", point, err)
			}
			if err := s.Verify(t.Context()); err != nil {
				t.Errorf("after a kill at %s: %v", point, err)
			}
			if got := len(s.Runs()); got != 478 {
				t.Errorf("after a kill at %s and the next first use the store holds %d runs, want 478", point, got)
			}
		})
	}
}

// A one-shot process's first use leaves the mirror file to Close (whose
// flush makes the import durable); any other writes it at once.
func TestTheEmbeddedImportsMirrorWaitsForAOneShotProcesssClose(t *testing.T) {
	for _, small := range []bool{true, false} {
		t.Run("small="+strconv.FormatBool(small), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			s, err := Open(t.Context(), Options{Dir: dir, Small: small})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ImportDefault(t.Context()); err != nil {
				t.Fatal(err)
			}
			_, mirrored, err := readManifestFile(dir)
			if err != nil || mirrored == small {
				t.Errorf("before Close: mirror written %v (%v), want %v", mirrored, err, !small)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			m, mirrored, err := readManifestFile(dir)
			if err != nil || !mirrored || m.totalRuns() != 478 {
				t.Errorf("after Close: mirror written %v with %d runs (%v), want 478", mirrored, m.totalRuns(), err)
			}
		})
	}
}

// A one-shot first use answers from the runs it imported, held in memory,
// so its store can close while it answers: the answers are the same, and
// the store is whole once Close returns.
func TestAOneShotFirstUseAnswersFromMemoryWhileItsStoreCloses(t *testing.T) {
	ctx := t.Context()
	s, dir := firstUse(t)
	const filter = `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`
	before, err := s.Query(ctx, filter)
	if err != nil {
		t.Fatal(err)
	}
	if !s.CloseInBackground() {
		t.Fatal("CloseInBackground refused a one-shot first use")
	}
	during, err := s.Query(ctx, filter)
	if err != nil || !reflect.DeepEqual(during, before) {
		t.Errorf("while closing: %+v, %v; want %+v", during, err, before)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	after, err := again.Query(ctx, filter)
	if err != nil || !reflect.DeepEqual(after, before) || again.Fingerprint() != s.Fingerprint() || len(again.Runs()) != 478 {
		t.Errorf("reopened: %+v, %v (%d runs); want %+v", after, err, len(again.Runs()), before)
	}

	// Any other store keeps reading from Badger, so it closes when asked.
	for _, o := range []Options{{Dir: filepath.Join(t.TempDir(), "data")}, {InMemory: true, Small: true}} {
		s, err := Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportDefault(ctx); err != nil {
			t.Fatal(err)
		}
		if s.CloseInBackground() {
			t.Errorf("CloseInBackground closed a store opened with %+v", o)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A one-shot first use whose import fails while the process answers says
// so (WaitImport, Close) and leaves none of it; the next open imports it.
func TestAOneShotFirstUsesFailedImportIsReportedAndRolledBack(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(ctx, Options{Dir: dir, Small: true})
	if err != nil {
		t.Fatal(err)
	}
	s.beforeWrite = func(i int) error {
		if i == 300 {
			return errors.New("injected write failure")
		}
		return nil
	}
	if _, err := s.ImportDefault(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitImport(); err == nil || !strings.Contains(err.Error(), "injected write failure") {
		t.Errorf("WaitImport = %v, want the injected failure", err)
	}
	if err := s.Close(); err == nil {
		t.Error("Close after a failed import returned no error")
	}
	again, err := Open(ctx, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n := len(again.Runs()); n != 0 {
		t.Errorf("after the failed import the store holds %d runs, want none", n)
	}
	if _, err := again.ImportDefault(ctx); err != nil || len(again.Runs()) != 478 {
		t.Errorf("the next first use: %v, %d runs; want 478", err, len(again.Runs()))
	}
}

// derivedSink collects what a derived pass writes.
type derivedSink map[string]string

func (d derivedSink) Set(key, val []byte) error { d[string(key)] = string(val); return nil }

// The derived data a one-shot first use writes from the runs it holds in
// memory is, byte for byte, what the derived pass writes from the runs
// read back from Badger.
func TestAFirstUsesDerivedDataFromMemoryIsWhatBadgerWouldGive(t *testing.T) {
	ctx := t.Context()
	s, dir := firstUse(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, Options{Dir: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	gen := again.committed().Generation
	stored := derivedSink{}
	err = again.scanPrefix(ctx, derivedKey(gen, ""), func(key, val []byte) error { return stored.Set(key, val) })
	if err != nil {
		t.Fatal(err)
	}
	delete(stored, string(derivedKey(gen, "head"))) // written by the commit
	rebuilt := derivedSink{}
	if _, err := again.writeDerived(ctx, gen, rebuilt); err != nil {
		t.Fatal(err)
	}
	if len(rebuilt) == 0 || !reflect.DeepEqual(stored, rebuilt) {
		t.Errorf("the stored derived data (%d keys) is not what Badger's runs give (%d keys)", len(stored), len(rebuilt))
	}
	if err := again.Verify(ctx); err != nil {
		t.Error(err)
	}
}

// firstUse opens a new store on disk as a one-shot first use does (Small)
// and imports the embedded dataset into it; the caller closes it.
func firstUse(t *testing.T) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{Dir: dir, Small: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s, dir
}
