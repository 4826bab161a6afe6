package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest/smalldisk"
)

// serveOnDisk is a `memdb-oracle serve` process of the built binary over a
// data directory, with POST /api/import enabled (args follow "serve").
type serveOnDisk struct {
	cmd  *exec.Cmd
	logs *logWatch
	base string
	done chan struct{}
	err  error // how it exited, once done is closed
}

const diskFillAdminToken = "disk-fill-admin-token"

func startServeOn(t *testing.T, dir string, args ...string) *serveOnDisk {
	t.Helper()
	return startServeLogging(t, dir, newLogWatch(), args...)
}

// startServeLogging is startServeOn with serve's log written to logs, so
// that a test can wait for a line (logWatch.seen) from the start on.
func startServeLogging(t *testing.T, dir string, logs *logWatch, args ...string) *serveOnDisk {
	t.Helper()
	s := &serveOnDisk{logs: logs, done: make(chan struct{})}
	s.cmd = command(t, dir, []string{"MEMDB_ORACLE_HTTP_ADDR=127.0.0.1:0", "MEMDB_ORACLE_ADMIN_TOKEN=" + diskFillAdminToken,
		"MEMDB_ORACLE_LOG_FORMAT=json"}, append([]string{"serve"}, args...)...)
	s.cmd.Stderr = s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("serve's log:\n%.20000s", s.logs.String())
		}
	})
	addr, ok := s.logs.addr(s.done)
	if !ok {
		t.Fatalf("serve stopped before listening: %v\n%s", s.err, s.logs.String())
	}
	s.base = "http://" + addr
	return s
}

// alive fails the test when serve has exited.
func (s *serveOnDisk) alive(t *testing.T, when string) {
	t.Helper()
	select {
	case <-s.done:
		t.Fatalf("serve died %s: %v\n%.6000s", when, s.err, s.logs.String())
	default:
	}
}

func (s *serveOnDisk) post(t *testing.T, path, contentType string, body []byte, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.alive(t, "during "+path)
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (s *serveOnDisk) ask(t *testing.T, thread, question string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"question": question, "thread": thread})
	return s.post(t, "/api/ask", "application/json", body, "")
}

func (s *serveOnDisk) importCSV(t *testing.T, name string, csv []byte) (int, string) {
	t.Helper()
	return s.post(t, "/api/import?session=3&name="+name, "text/csv", csv, diskFillAdminToken)
}

// TestServeKeepsAnsweringWhenAnotherWriterFillsItsDiskToTheLastByte runs
// serve on a small tmpfs that another writer fills to the last byte
// before an import and thread writes. serve does not die: the import is
// refused with 507 and the space needed, a thread's follow-up is answered
// (its memory held in memory), /healthz says degraded, and once space is
// freed the store is sound.
func TestServeKeepsAnsweringWhenAnotherWriterFillsItsDiskToTheLastByte(t *testing.T) {
	disk := mountSmallDisk(t, "600m")
	dir := filepath.Join(disk, "data")
	if _, _, err := runCLI(t, dir, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	s := startServeOn(t, dir)
	filler := fillDiskCompletely(t, disk)
	s.alive(t, "once the disk was full")
	if code, body := s.ask(t, "t1", "dragonfly at 48 cores"); code != http.StatusOK || !strings.Contains(body, "Dragonfly") {
		t.Errorf("ask on a full disk: %d %.500s", code, body)
	}
	if code, body := s.ask(t, "t1", "what about valkey?"); code != http.StatusOK || !strings.Contains(body, "Valkey") {
		t.Errorf("a thread's follow-up on a full disk: %d %.500s", code, body)
	}
	if code, body := s.importCSV(t, "small.csv", manyRowsCSV(t, 2)); code != http.StatusInsufficientStorage || !strings.Contains(body, "needed") {
		t.Errorf("import on a full disk: %d %s, want 507 with the space needed", code, body)
	}
	if h := get(t, s.base+"/healthz"); !strings.Contains(h, `"degraded"`) || !strings.Contains(h, `"disk"`) {
		t.Errorf("healthz on a full disk: %s", h)
	}
	s.alive(t, "after the requests on a full disk")
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	<-s.done
	if out, _, err := runCLI(t, dir, "doctor"); err != nil || !strings.Contains(out, "is sound") {
		t.Fatalf("doctor once space was freed: %v\n%s", err, out)
	}
}

// TestServeStaysUpWhenItsDiskFillsDuringAnAPIImport fills serve's tmpfs
// to the last byte while POST /api/import is writing a large file (once
// the file's kept copy is written, as the runs go in). serve writes an
// import in a process of its own, so whatever the full disk does to that
// process, serve answers: the import is 507 with the space needed,
// /healthz says degraded, the runs imported before answer as they did, a
// thread's follow-up is answered, and once space is freed the same import
// sent again succeeds and the store is sound.
func TestServeStaysUpWhenItsDiskFillsDuringAnAPIImport(t *testing.T) {
	disk := mountSmallDisk(t, "600m")
	dir := filepath.Join(disk, "data")
	if _, _, err := runCLI(t, dir, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	s := startServeOn(t, dir)
	rows := len(strings.Split(string(sessionOneCSV(t)), "\n")) - 2
	if code, body := s.importCSV(t, "small.csv", manyRowsCSV(t, 2)); code != http.StatusOK {
		t.Fatalf("import with space to spare: %d %s", code, body)
	}
	const question = "dragonfly at 48 cores"
	_, before := s.ask(t, "", question)
	large := manyRowsCSV(t, 300)
	filled := make(chan struct{})
	go func() {
		defer close(filled)
		<-keptCopyReaches(t, filepath.Join(dir, "sources"), int64(len(large)))
		fillDiskCompletely(t, disk)
	}()
	code, body := s.importCSV(t, "many.csv", large)
	<-filled
	// The other writer goes on: what the import's process freed as it
	// ended is taken too.
	fillRest(t, filepath.Join(disk, "filler-2"))
	s.alive(t, "once the disk filled during an import")
	if strings.Contains(s.logs.String(), "SIGBUS") {
		t.Log("the import's writing process died of SIGBUS; serve did not")
	}
	if code == http.StatusOK {
		t.Log("the import finished before the disk filled")
	} else {
		t.Logf("the import while the disk filled: %d %s", code, body)
		if code != http.StatusInsufficientStorage || !strings.Contains(body, "disk") || !strings.Contains(body, "needed") {
			t.Errorf("import while the disk filled: %d %s, want 507 saying the disk is full and the space needed", code, body)
		}
		h := get(t, s.base+"/healthz")
		t.Logf("/healthz: %s", h)
		if !strings.Contains(h, `"degraded"`) || !strings.Contains(h, `"disk":"unavailable"`) {
			t.Errorf("healthz once the disk filled during an import: %s", h)
		}
		if c, now := s.ask(t, "", question); c != http.StatusOK || now != before {
			t.Errorf("the runs imported before answer differently on a full disk: %d\n%.800s\nbefore:\n%.800s", c, now, before)
		}
		if c, b := s.importCSV(t, "many.csv", large); c != http.StatusInsufficientStorage || !strings.Contains(b, "needed") {
			t.Errorf("import again on the full disk: %d %s, want 507 with the space needed", c, b)
		}
	}
	if c, b := s.ask(t, "t1", question); c != http.StatusOK || !strings.Contains(b, "Dragonfly") {
		t.Errorf("ask in a thread: %d %.500s", c, b)
	}
	if c, b := s.ask(t, "t1", "what about valkey?"); c != http.StatusOK || !strings.Contains(b, "Valkey") {
		t.Errorf("a thread's follow-up: %d %.500s", c, b)
	}
	s.alive(t, "after the requests on a full disk")

	for _, f := range []string{"filler", "filler-2"} {
		_ = os.Remove(filepath.Join(disk, f))
	}
	deadline := time.Now().Add(20 * time.Second)
	for h := get(t, s.base+"/healthz"); !strings.Contains(h, `"status":"ok"`); h = get(t, s.base+"/healthz") {
		if time.Now().After(deadline) {
			t.Fatalf("healthz 20 s after space was freed: %s", h)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code != http.StatusOK {
		c, b := s.importCSV(t, "many.csv", large)
		if c != http.StatusOK || !strings.Contains(b, fmt.Sprintf(`"added":%d`, 298*rows)) {
			t.Fatalf("the same import once space was freed: %d %.1000s", c, b)
		}
	}
	if c, b := s.ask(t, "", question); c != http.StatusOK || !strings.Contains(b, "Dragonfly") {
		t.Errorf("ask after the import: %d %.500s", c, b)
	}
	s.alive(t, "after the import")
	_ = s.cmd.Process.Signal(os.Interrupt)
	<-s.done
	out, _, err := runCLI(t, dir, "doctor")
	if err != nil || !strings.Contains(out, "is sound") || !strings.Contains(out, fmt.Sprintf("3: %d", 300*rows)) {
		t.Fatalf("doctor after the import: %v\n%s", err, out)
	}
}

// fillRest writes a new file at path until its file system has no byte
// free.
func fillRest(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		return // not even room for the file
	}
	defer f.Close()
	smalldisk.FillFile(f)
}
