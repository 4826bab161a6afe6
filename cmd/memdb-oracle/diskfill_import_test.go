package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// manyRowsCSV is the embedded session-1 capture repeated copies times,
// each copy's run_id made new, so that every row is a run to add.
func manyRowsCSV(t *testing.T, copies int) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(sessionOneCSV(t)), "\n"), "\n")
	header := strings.Split(lines[0], ",")
	col := -1
	for i, h := range header {
		if h == "run_id" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("the embedded capture has no run_id column")
	}
	var out bytes.Buffer
	out.WriteString(lines[0] + "\n")
	for c := range copies {
		for _, line := range lines[1:] {
			f := strings.Split(line, ",")
			f[col] = fmt.Sprintf("%s-copy%d", f[col], c)
			out.WriteString(strings.Join(f, ",") + "\n")
		}
	}
	return out.Bytes()
}

// TestADiskFilledToTheLastByteByAnotherWriterDuringAnImportIsExitFour runs
// the import command as users do while another writer fills its disk to
// the last byte, starting when the import has begun writing: whether
// Badger's next write into a memory-mapped file faults (SIGBUS) or the
// store's own checks see the disk first, the command ends with exit 4
// and the space needed, nothing is committed, and once space is freed the
// store opens and is sound, holding the import whole or not at all. (A
// fault prints the Go runtime's report above that message: the runtime
// prints it for every fatal fault, whatever GOTRACEBACK says.)
func TestADiskFilledToTheLastByteByAnotherWriterDuringAnImportIsExitFour(t *testing.T) {
	bin, err := binaryPath()
	if err != nil {
		t.Fatal(err)
	}
	disk := mountSmallDisk(t, "400m")
	base := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, base, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "many.csv")
	rows := manyRowsCSV(t, 300)
	if err := os.WriteFile(csv, rows, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		copied int64 // bytes of the kept copy written when the fill starts
	}{
		{"as the import starts writing", 1},
		{"half way through reading the file", int64(len(rows)) / 2},
		{"while the runs are written", int64(len(rows))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(disk, "data")
			filler := filepath.Join(disk, "filler")
			t.Cleanup(func() { os.RemoveAll(dir); os.Remove(filler) })
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			cmd := exec.CommandContext(t.Context(), bin, "--data", dir, "import", "--session", "3", csv)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			keepOutputOnFailure(t, "import-stderr.txt", &stderr)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case <-keptCopyReaches(t, filepath.Join(dir, "sources"), tc.copied):
				fillDiskCompletely(t, disk)
				err = <-done
			case err = <-done:
				t.Logf("the import ended before the disk was filled: %v\n%.2000s", err, stderr.String())
			}
			var ee *exec.ExitError
			switch {
			case err == nil:
				t.Log("the import finished before the disk filled")
			case !errors.As(err, &ee) || ee.ExitCode() != exitDiskFull:
				t.Errorf("import on a disk filled to the last byte: %v, want exit %d\n%.3000s", err, exitDiskFull, stderr.String())
			case !strings.Contains(lastLine(stderr.String()), "needed"):
				t.Errorf("the last message does not say the space needed:\n%.3000s", stderr.String())
			default:
				t.Logf("%.1000s", stderr.String())
			}
			if err := os.Remove(filler); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			out, doctorErr, derr := runCLI(t, dir, "doctor")
			keepOutputOnFailure(t, "doctor-output.txt", bytes.NewBufferString(out+doctorErr))
			if derr != nil {
				t.Fatalf("doctor once space was freed: %v\n%s", derr, out)
			}
			if !strings.Contains(out, "is sound") {
				t.Errorf("doctor once space was freed:\n%s", out)
			}
			imported := strings.Contains(out, fmt.Sprintf("3: %d", 300*(len(strings.Split(string(sessionOneCSV(t)), "\n"))-2)))
			if err == nil && !imported || err != nil && imported {
				t.Errorf("import ended %v, but the store holds:\n%s", err, out)
			}
		})
	}
}

// keepOutputOnFailure saves what out holds when the test ends failed into
// name in the test's artifact directory (kept with go test -artifacts),
// and logs the Go runtime's report of the goroutine that crashed, if out
// holds one: a child's whole traceback is too long for the test log.
func keepOutputOnFailure(t *testing.T, name string, out *bytes.Buffer) {
	t.Cleanup(func() {
		if !t.Failed() || out.Len() == 0 {
			return
		}
		path := filepath.Join(t.ArtifactDir(), name)
		if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
			t.Logf("keeping the output: %v", err)
			return
		}
		t.Logf("the whole output is in %s (kept with -artifacts)", path)
		if first, ok := crashedGoroutine(out.String()); ok {
			t.Logf("the goroutine that crashed:\n%s", first)
		}
	})
}

// crashedGoroutine is the Go runtime's fatal report in out up to the
// second goroutine's stack: the one that crashed comes first.
func crashedGoroutine(out string) (string, bool) {
	i := -1
	for _, start := range []string{"unexpected fault address", "fatal error:", "panic:"} {
		if j := strings.Index(out, start); j >= 0 && (i < 0 || j < i) {
			i = j
		}
	}
	if i < 0 {
		return "", false
	}
	report := out[i:]
	first := strings.Index(report, "\ngoroutine ")
	if first < 0 {
		return report, true
	}
	if next := strings.Index(report[first+1:], "\ngoroutine "); next >= 0 {
		return report[:first+1+next], true
	}
	return report, true
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// keptCopyReaches is closed once a kept copy under sources has at least n
// bytes: the import has read that much and is writing runs.
func keptCopyReaches(t *testing.T, sources string, n int64) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		for t.Context().Err() == nil {
			files, _ := filepath.Glob(filepath.Join(sources, "*many.csv"))
			for _, f := range files {
				if fi, err := os.Stat(f); err == nil && fi.Size() >= n {
					return
				}
			}
			time.Sleep(time.Millisecond) // polls another process's progress
		}
	}()
	return ch
}
