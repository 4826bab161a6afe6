package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveOnDisk is a `memdb-oracle serve` process of the built binary over a
// data directory, with POST /api/import enabled.
type serveOnDisk struct {
	cmd  *exec.Cmd
	logs *logWatch
	base string
	done chan struct{}
	err  error // how it exited, once done is closed
}

const diskFillAdminToken = "disk-fill-admin-token"

func startServeOn(t *testing.T, dir string) *serveOnDisk {
	t.Helper()
	s := &serveOnDisk{logs: newLogWatch(), done: make(chan struct{})}
	s.cmd = command(t, dir, []string{"MEMDB_ORACLE_HTTP_ADDR=127.0.0.1:0", "MEMDB_ORACLE_ADMIN_TOKEN=" + diskFillAdminToken,
		"MEMDB_ORACLE_LOG_FORMAT=json"}, "serve")
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

// fillDuringServeImport adds the case the serve disk-fill test leaves out
// by default: a disk filled to the last byte while serve writes an import,
// which can still stop serve — what Badger had in hand when the store
// stopped writing (a memtable flush, say) faulted on the full disk in 2 of
// 30 runs (18 of 30 before the store's disk watcher); see docs/storage.md.
var fillDuringServeImport = flag.Bool("memdb.serve-fill-during-import", false,
	"the serve disk-fill test also fills the disk while an import through the API writes (the known limit: it can still stop serve)")

// TestServeKeepsAnsweringWhenAnotherWriterFillsItsDiskToTheLastByte runs
// serve on a small tmpfs that another writer fills to the last byte
// before an import and thread writes (and, with
// -memdb.serve-fill-during-import, while an import through the API is
// writing). serve does not die: the import is refused with 507 and the
// space needed, a thread's follow-up is answered (its memory held in
// memory), /healthz says degraded, and once space is freed the store is
// sound, holding the import whole or not at all.
func TestServeKeepsAnsweringWhenAnotherWriterFillsItsDiskToTheLastByte(t *testing.T) {
	disk := mountSmallDisk(t, "600m")
	base := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, base, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	small := manyRowsCSV(t, 2)
	large := manyRowsCSV(t, 300)
	for _, tc := range []struct {
		name   string
		during bool // fill while the large import writes, else before the requests
	}{
		{"before the requests", false},
		{"while an import writes", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.during && !*fillDuringServeImport {
				t.Skip("the known limit; run with -memdb.serve-fill-during-import")
			}
			dir := filepath.Join(disk, "data")
			filler := filepath.Join(disk, "filler")
			t.Cleanup(func() { os.RemoveAll(dir); os.Remove(filler) })
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			s := startServeOn(t, dir)
			imported := false
			if tc.during {
				filled := make(chan struct{})
				go func() {
					defer close(filled)
					<-keptCopyReaches(t, filepath.Join(dir, "sources"), int64(len(large)))
					fillDiskCompletely(t, disk)
				}()
				code, body := s.importCSV(t, "many.csv", large)
				<-filled
				// The other writer goes on: what Badger freed as it settled
				// (a flushed memtable's log) is taken too.
				fillRest(t, filepath.Join(disk, "filler-2"))
				switch {
				case code == http.StatusOK:
					imported = true
					t.Log("the import finished before the disk filled")
				case code != http.StatusInsufficientStorage || !strings.Contains(body, "disk") || !strings.Contains(body, "needed"):
					t.Errorf("import while the disk filled: %d %s, want 507 saying the disk is full and the space needed", code, body)
				}
			} else {
				fillDiskCompletely(t, disk)
			}
			s.alive(t, "once the disk was full")
			if code, body := s.ask(t, "t1", "dragonfly at 48 cores"); code != http.StatusOK || !strings.Contains(body, "Dragonfly") {
				t.Errorf("ask on a full disk: %d %.500s", code, body)
			}
			if code, body := s.ask(t, "t1", "what about valkey?"); code != http.StatusOK || !strings.Contains(body, "Valkey") {
				t.Errorf("a thread's follow-up on a full disk: %d %.500s", code, body)
			}
			if code, body := s.importCSV(t, "small.csv", small); code != http.StatusInsufficientStorage || !strings.Contains(body, "needed") {
				t.Errorf("import on a full disk: %d %s, want 507 with the space needed", code, body)
			}
			if h := get(t, s.base+"/healthz"); !strings.Contains(h, `"degraded"`) || !strings.Contains(h, `"disk"`) {
				t.Errorf("healthz on a full disk: %s", h)
			}
			s.alive(t, "after the requests on a full disk")
			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
			_ = os.Remove(filepath.Join(disk, "filler-2"))
			_ = s.cmd.Process.Signal(os.Interrupt)
			<-s.done
			out, _, err := runCLI(t, dir, "doctor")
			if err != nil || !strings.Contains(out, "is sound") {
				t.Fatalf("doctor once space was freed: %v\n%s", err, out)
			}
			rows := len(strings.Split(string(sessionOneCSV(t)), "\n")) - 2
			if holds := strings.Contains(out, fmt.Sprintf("3: %d", 300*rows)); holds != imported {
				t.Errorf("the import answered %v, but the store holds:\n%s", imported, out)
			}
		})
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
	fillUntilFull(f)
}
