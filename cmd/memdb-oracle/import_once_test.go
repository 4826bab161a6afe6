package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// sessionOneCSV is the embedded session-1 capture, imported again as
// another session in these tests.
func sessionOneCSV(t *testing.T) []byte {
	t.Helper()
	b, err := analytics.DefaultDataset()[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordedImports reads back the files the data directory recorded for
// replicas.
func recordedImports(t *testing.T, dir string) []redisadapter.ImportRecord {
	t.Helper()
	st, err := analytics.Open(t.Context(), analytics.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := localImports(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestImportReadsItsInputOnceSoAFIFOWorks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	fifo := filepath.Join(t.TempDir(), "capture.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	csv := sessionOneCSV(t)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		_, _ = f.Write(csv)
		f.Close()
	}()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	var out string
	go func() {
		var err error
		out, _, err = runCLIContext(ctx, dir, "import", "--session", "3", fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("import from a FIFO did not finish: it reads the file a second time")
	}
	if !strings.Contains(out, "350 added") {
		t.Errorf("output = %q, want 350 added", out)
	}
	recs := recordedImports(t, dir)
	if len(recs) != 1 || string(recs[0].CSV) != string(csv) {
		t.Fatalf("recorded for replicas: %d records (first %d bytes), want the file's %d bytes", len(recs), firstLen(recs), len(csv))
	}
}

func firstLen(recs []redisadapter.ImportRecord) int {
	if len(recs) == 0 {
		return -1
	}
	return len(recs[0].CSV)
}

func TestAFileThatChangesWhileImportedIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(t.TempDir(), "capture.csv")
	csv := sessionOneCSV(t)
	if err := os.WriteFile(path, csv, 0o600); err != nil {
		t.Fatal(err)
	}
	// Truncated while the first pass reads it: the reader sees the rows
	// up to the cut, then the end of the file.
	cut := len(csv)/2 + strings.IndexByte(string(csv[len(csv)/2:]), '\n') + 1 // at a line end: every row read is whole
	importChangedHook = func(name string) {
		if err := os.Truncate(path, int64(cut)); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { importChangedHook = nil })
	_, _, err := runCLI(t, dir, "import", "--session", "3", path)
	if err == nil || !strings.Contains(err.Error(), "changed while") {
		t.Fatalf("import of a file truncated while read = %v, want it refused", err)
	}
	if errors.Is(err, analytics.ErrCorrupt) {
		t.Errorf("reported as damage: %v", err)
	}
	st, err := analytics.Open(t.Context(), analytics.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n := st.StoredRuns()[3]; n != 0 {
		t.Errorf("session 3 holds %d runs after a refused import, want 0", n)
	}
}

func TestALargeAPIImportIsRecordedInChunksUnderBadgersLimit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	a := newApp(t.Context(), config{DataDir: dir}, strings.NewReader(""), os.Stdout, os.Stderr)
	defer a.close()
	// 20 MB of CSV: session 1's rows repeated with fresh IDs would be
	// slow to import; the record path is what failed, so it is driven
	// directly with the bytes an import accepted.
	csv := []byte(strings.Repeat(string(sessionOneCSV(t)), 1+(20<<20)/len(sessionOneCSV(t))))
	st, err := a.store()
	if err != nil {
		t.Fatal(err)
	}
	rec := redisadapter.ImportRecord{ID: importID("big.csv", 3, csv), Name: "big.csv", Session: 3, CSV: csv}
	if err := keepImport(t.Context(), st, rec); err != nil {
		t.Fatalf("recording a %d MB import: %v", len(csv)>>20, err)
	}
	recs, err := localImports(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || len(recs[0].CSV) != len(csv) || string(recs[0].CSV) != string(csv) {
		t.Fatalf("read back %d records, want the %d bytes", len(recs), len(csv))
	}
	raw, _, _ := st.KV(kvImports).Get(t.Context(), "record/"+rec.ID)
	var meta map[string]any
	if err := json.Unmarshal(raw, &meta); err != nil || len(raw) > 1<<20 {
		t.Errorf("the record itself is %d bytes (%v)", len(raw), err)
	}
}

// runCLIContext is runCLI under ctx.
func runCLIContext(ctx context.Context, dataDir string, args ...string) (string, string, error) {
	var stdout, stderr strings.Builder
	getenv := func(k string) string {
		if k == "MEMDB_ORACLE_DATA" {
			return dataDir
		}
		return ""
	}
	err := run(ctx, args, getenv, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}
