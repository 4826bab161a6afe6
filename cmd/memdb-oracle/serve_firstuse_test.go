package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

// logRecord is one of serve's JSON log lines.
type logRecord map[string]any

func (r logRecord) msg() string { s, _ := r["msg"].(string); return s }

// fromWriter says whether serve's writing process logged the line.
func (r logRecord) fromWriter() bool { return r["process"] == "writer" }

// records parses serve's log so far, one record a JSON line (the Go
// runtime's report of a crash, say, is skipped).
func (s *serveOnDisk) records() []logRecord {
	var out []logRecord
	for line := range strings.SplitSeq(s.logs.String(), "\n") {
		var r logRecord
		if json.Unmarshal([]byte(line), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// stop interrupts serve and fails the test unless it exits 0.
func (s *serveOnDisk) stop(t *testing.T) {
	t.Helper()
	_ = s.cmd.Process.Signal(os.Interrupt)
	<-s.done
	if s.err != nil {
		t.Errorf("serve after SIGINT: %v, want exit 0", s.err)
	}
}

// checkWrittenByTheWriter fails unless the store's writing opens before
// serve's own are the writing process's, and serve's own writing open
// comes only after that process finished preparing the data directory
// (its "prepared" line). msgWanted, unless "", is the one line the
// process logs for what it did (the first use, the migration), once.
func checkWrittenByTheWriter(t *testing.T, s *serveOnDisk, msgWanted string) {
	t.Helper()
	prepared, said, writerOpens := -1, 0, 0
	for i, r := range s.records() {
		switch {
		case msgWanted != "" && strings.HasPrefix(r.msg(), msgWanted):
			said++
			if !r.fromWriter() || r["pid"] == float64(s.cmd.Process.Pid) {
				t.Errorf("%q logged by serve's own process: %v", msgWanted, r)
			}
		case r.msg() == "prepared the data directory in a process of its own":
			prepared = i
		case r.msg() == "store opened" && r["read_only"] == false && r["in_memory"] == false:
			if r.fromWriter() {
				writerOpens++
			} else if prepared < 0 {
				t.Errorf("serve opened the store for writing before its writing process prepared it (line %d: %v)", i+1, r)
			}
		}
	}
	if msgWanted != "" && said != 1 {
		t.Errorf("%q logged %d times, want once", msgWanted, said)
	}
	if prepared < 0 || writerOpens == 0 {
		t.Errorf("no writing open by the writing process (%d) or no \"prepared\" line (%d)", writerOpens, prepared)
	}
}

// answersAsUsual fails unless serve answers a question and a thread's
// follow-up.
func answersAsUsual(t *testing.T, s *serveOnDisk) {
	t.Helper()
	if code, body := s.ask(t, "t1", "dragonfly at 48 cores"); code != http.StatusOK || !strings.Contains(body, "Dragonfly") {
		t.Errorf("ask: %d %.500s", code, body)
	}
	if code, body := s.ask(t, "t1", "what about valkey?"); code != http.StatusOK || !strings.Contains(body, "Valkey") {
		t.Errorf("a thread's follow-up: %d %.500s", code, body)
	}
}

// servesSoundly fails unless s answers as usual with /healthz ok, stops
// with exit 0, and leaves its data directory dir sound.
func servesSoundly(t *testing.T, s *serveOnDisk, dir string) {
	t.Helper()
	answersAsUsual(t, s)
	if h := get(t, s.base+"/healthz"); !strings.Contains(h, `"status":"ok"`) {
		t.Errorf("healthz: %s", h)
	}
	s.stop(t)
	if out, _, err := runCLI(t, dir, "doctor"); err != nil || !strings.Contains(out, "is sound") {
		t.Fatalf("doctor after serve: %v\n%s", err, out)
	}
}

// TestServeWritesTheFirstUseOfItsDataDirectoryInItsWritingProcess starts
// serve on an empty data directory (as a volume mounted for it is): the
// embedded dataset is imported by serve's writing process, which says
// "first use" once, and serve opens the store for writing only after that
// process is done. serve answers, /healthz is ok, and the next start finds
// nothing to prepare.
func TestServeWritesTheFirstUseOfItsDataDirectoryInItsWritingProcess(t *testing.T) {
	dir := t.TempDir()
	s := startServeOn(t, dir, "-v")
	checkWrittenByTheWriter(t, s, "first use: imported the embedded dataset into "+dir)
	answersAsUsual(t, s)
	if h := get(t, s.base+"/healthz"); h != `{"disk":"ok","status":"ok","store":"ok"}`+"\n" {
		t.Errorf("healthz: %s", h)
	}
	s.stop(t)

	again := startServeOn(t, dir)
	if again.logs.has("prepared the data directory") || again.logs.has("first use") {
		t.Errorf("the second start prepared the data directory again:\n%s", again.logs.String())
	}
	servesSoundly(t, again, dir)
}

// TestServeMigratesAnEarlierReleasesStoreInItsWritingProcess starts serve
// on stores of formats 1 and 2: the migration is written by serve's
// writing process, which says so once, before serve opens the store.
func TestServeMigratesAnEarlierReleasesStoreInItsWritingProcess(t *testing.T) {
	for _, format := range []int{1, 2} {
		t.Run(fmt.Sprintf("format %d", format), func(t *testing.T) {
			dir := analyticstest.EarlierFormatStore(t, format)
			s := startServeOn(t, dir, "-v")
			checkWrittenByTheWriter(t, s, fmt.Sprintf("migrated the store in %s from store format %d", dir, format))
			servesSoundly(t, s, dir)
		})
	}
}

// TestServeOnADiskTooSmallToPrepareStartsDegraded starts serve where its
// writing process cannot prepare the data directory for want of space:
// serve starts all the same and answers — from the embedded dataset held
// in memory when there is no store, read-only from the store as it was
// when there is one — with /healthz saying degraded and why, imports
// refused with 507, one log line saying so, and an exit 0 when stopped.
func TestServeOnADiskTooSmallToPrepareStartsDegraded(t *testing.T) {
	const (
		firstUse  = "the first use of the data directory could not be written (the disk is full)"
		migration = "the migration of the store to this release's format could not be written (the disk is full)"
		inMemory  = "from the embedded dataset held in memory"
		readOnly  = "read-only from the store as it was"
	)
	tests := []struct {
		name string
		// prepare leaves the data directory on disk, a small tmpfs.
		prepare    func(t *testing.T, disk, dir string)
		what, from string
	}{
		{"a first use with room for Badger's files but not the floor", func(*testing.T, string, string) {}, firstUse, inMemory},
		{"a first use on a disk full to the last byte", func(t *testing.T, disk, _ string) { fillDiskCompletely(t, disk) }, firstUse, inMemory},
		{"a migration with room for Badger's files but not the floor", func(t *testing.T, _, dir string) {
			copyEarlierFormatStore(t, dir, 2)
		}, migration, readOnly},
		{"a migration on a disk full to the last byte", func(t *testing.T, disk, dir string) {
			copyEarlierFormatStore(t, dir, 1)
			fillDiskCompletely(t, disk)
		}, migration, readOnly},
		{"a store with nothing to prepare on a disk full to the last byte", func(t *testing.T, disk, dir string) {
			copyReadyStore(t, dir)
			fillDiskCompletely(t, disk)
		}, "the store could not be opened for writing (the disk is full)", readOnly},
		{"a store with the memtable log a failed open left, on a disk full to the last byte", func(t *testing.T, disk, dir string) {
			copyReadyStore(t, dir)
			// Made at its full size, its first page never written: on a
			// full tmpfs even reading it faults.
			if err := os.WriteFile(filepath.Join(dir, "00099.mem"), nil, 0o600); err != nil || os.Truncate(filepath.Join(dir, "00099.mem"), 16<<20) != nil {
				t.Fatal("cannot leave a memtable log", err)
			}
			fillDiskCompletely(t, disk)
		}, "the recovery of what a process that did not close the store left could not be written (the disk is full)", inMemory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			disk := mountSmallDisk(t, "16m")
			dir := filepath.Join(disk, "data")
			tt.prepare(t, disk, dir)
			s := startServeOn(t, dir)
			answersAsUsual(t, s)
			h := get(t, s.base+"/healthz")
			var health struct {
				Status  string
				DataDir string `json:"data_dir"`
				Why     map[string]string
			}
			if err := json.Unmarshal([]byte(h), &health); err != nil {
				t.Fatalf("healthz: %v\n%s", err, h)
			}
			why := health.Why["data_dir"]
			if health.Status != "degraded" || health.DataDir != "unavailable" || !strings.Contains(h, `"disk":"unavailable"`) ||
				!strings.Contains(why, tt.what) || !strings.Contains(why, tt.from) {
				t.Errorf("healthz: %s", h)
			}
			if code, body := s.importCSV(t, "small.csv", manyRowsCSV(t, 2)); code != http.StatusInsufficientStorage || !strings.Contains(body, "imports are refused") {
				t.Errorf("import while degraded: %d %s, want 507 saying imports are refused", code, body)
			}
			degraded := 0
			for _, r := range s.records() {
				if r.msg() == "serve answers degraded: its data directory could not be prepared" ||
					r.msg() == "answering read-only, and thread memory is kept in memory" {
					degraded++
				}
			}
			if degraded != 1 {
				t.Errorf("the degraded start logged %d times, want once:\n%s", degraded, s.logs.String())
			}
			s.alive(t, "after the requests")
			s.stop(t)
		})
	}
}

// TestServeOnADamagedStoreStopsAsEveryCommandDoes: damage is not a store
// to prepare, nor a reason to answer degraded from it: serve's first look
// finds it and stops with exit 3 and doctor's advice, writing nothing.
func TestServeOnADamagedStoreStopsAsEveryCommandDoes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, dir, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	damageLargestTable(t, dir)
	_, stderr, code := runBinary(t, dir, "", []string{"MEMDB_ORACLE_HTTP_ADDR=127.0.0.1:0", "MEMDB_ORACLE_LOG_FORMAT=json"}, "serve")
	if code != exitDamaged || !strings.Contains(stderr, "doctor --repair") || strings.Contains(stderr, "prepared the data directory") {
		t.Errorf("serve on a damaged store: exit %d, want %d with doctor's advice and nothing prepared\n%s", code, exitDamaged, stderr)
	}
}

// copyEarlierFormatStore writes the embedded dataset as a release of store
// format left it into dir (see analyticstest.EarlierFormatStore).
func copyEarlierFormatStore(t *testing.T, dir string, format int) {
	t.Helper()
	if err := os.CopyFS(dir, os.DirFS(analyticstest.EarlierFormatStore(t, format))); err != nil {
		t.Fatal(err)
	}
}

// writerOf returns at once a channel closed when serve's writing process
// for dir is running (found by its environment), or when the test ends.
func writerOf(t *testing.T, dir string) <-chan struct{} {
	t.Helper()
	found := make(chan struct{})
	want := []string{serveWriterEnv + "=1", "MEMDB_ORACLE_DATA=" + dir}
	go func() {
		defer close(found)
		for t.Context().Err() == nil {
			procs, _ := filepath.Glob("/proc/[0-9]*/environ")
			for _, p := range procs {
				b, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				env := strings.Split(string(b), "\x00")
				if slices.Contains(env, want[0]) && slices.Contains(env, want[1]) {
					return
				}
			}
		}
	}()
	return found
}

// TestServeStaysUpWhenItsDiskFillsWhileItsFirstUseIsWritten fills serve's
// tmpfs to the last byte while its writing process writes the first use:
// as soon as that process starts (it may be refused for space, die of
// SIGBUS, or be done before), or while it is stopped just after it
// committed the import (said in its log), so that its close's flush of
// Badger's memtable meets the full disk and it dies of SIGBUS after it
// replied. serve starts all the same, answers a question and a thread's
// follow-up, and says degraded; it never opens for writing a store its
// writing process did not close (it would flush that process's memtable
// itself, onto the full disk). Once space is freed, the next start
// prepares the data directory and the store is sound.
func TestServeStaysUpWhenItsDiskFillsWhileItsFirstUseIsWritten(t *testing.T) {
	const committedFirstUse = "first use: imported the embedded dataset"
	tests := []struct {
		name string
		// when is the point of the first use at which the disk is filled
		// (dir is serve's data directory); fill fills disk, the tmpfs,
		// and says whether the writing process must have died of it.
		when func(t *testing.T, dir string, logs *logWatch) <-chan struct{}
		fill func(t *testing.T, disk string, logs *logWatch) (mustDie bool)
	}{
		{"as the writing process starts",
			func(t *testing.T, dir string, _ *logWatch) <-chan struct{} { return writerOf(t, dir) },
			func(t *testing.T, disk string, _ *logWatch) bool { fillDiskCompletely(t, disk); return false }},
		{"while the writing process is stopped after committing",
			func(_ *testing.T, _ string, logs *logWatch) <-chan struct{} { return logs.seen(committedFirstUse) },
			func(t *testing.T, disk string, logs *logWatch) bool {
				pid := 0
				for line := range strings.SplitSeq(logs.String(), "\n") {
					var r logRecord
					if json.Unmarshal([]byte(line), &r) == nil && strings.HasPrefix(r.msg(), committedFirstUse) && r.fromWriter() {
						pid = int(r["pid"].(float64))
					}
				}
				if pid == 0 || syscall.Kill(pid, syscall.SIGSTOP) != nil {
					t.Errorf("cannot stop the writing process (pid %d)", pid)
					return false
				}
				defer syscall.Kill(pid, syscall.SIGCONT)
				fillDiskCompletely(t, disk)
				return true
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			disk := mountSmallDisk(t, "250m")
			dir := filepath.Join(disk, "data")
			logs := newLogWatch()
			when := tt.when(t, dir, logs)
			fired, filled, mustDie := make(chan struct{}), make(chan struct{}), false
			go func() {
				defer close(filled)
				select {
				case <-when:
					close(fired)
					mustDie = tt.fill(t, disk, logs)
				case <-t.Context().Done():
				}
			}()
			s := startServeLogging(t, dir, logs) // listening once the writing process ended
			select {
			case <-fired:
				<-filled
			default:
				t.Fatalf("the writing process ended before the point to fill the disk at\n%s", s.logs.String())
			}
			fillRest(t, filepath.Join(disk, "filler-2"))
			died := strings.Contains(s.logs.String(), "SIGBUS")
			switch {
			case mustDie && !died:
				t.Errorf("the writing process did not die of the full disk:\n%s", s.logs.String())
			case died:
				t.Log("the writing process died of SIGBUS; serve did not")
			case s.logs.has("serve answers degraded"):
				t.Log("the writing process was refused for want of space")
			default:
				t.Log("the first use was written before the disk filled")
			}
			answersAsUsual(t, s)
			if h := get(t, s.base+"/healthz"); !strings.Contains(h, `"status":"degraded"`) || !strings.Contains(h, `"disk":"unavailable"`) {
				t.Errorf("healthz on the full disk: %s", h)
			}
			s.alive(t, "after the requests on a full disk")
			s.stop(t)

			for _, f := range []string{"filler", "filler-2"} {
				_ = os.Remove(filepath.Join(disk, f))
			}
			servesSoundly(t, startServeOn(t, dir), dir)
		})
	}
}

// TestServeLeavesWhatAKilledServeLoggedToItsWritingProcess kills serve
// after a thread's first question: Badger's log of it is left unflushed,
// and the next start has the writing process replay and flush it (Badger
// writes the flushed table through memory maps) before serve opens the
// store; the thread's follow-up is answered from what was replayed.
func TestServeLeavesWhatAKilledServeLoggedToItsWritingProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := startServeOn(t, dir)
	if code, body := s.ask(t, "t1", "dragonfly at 48 cores"); code != http.StatusOK {
		t.Fatalf("ask: %d %.300s", code, body)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.done
	if logs, _ := filepath.Glob(filepath.Join(dir, "*.mem")); len(logs) == 0 {
		t.Fatal("serve killed after a thread write left no Badger log to replay")
	}
	again := startServeOn(t, dir, "-v")
	checkWrittenByTheWriter(t, again, "")
	if !again.logs.has("the recovery of what a process that did not close the store left") {
		t.Errorf("the start did not say what it recovered:\n%s", again.logs.String())
	}
	if code, body := again.ask(t, "t1", "what about valkey?"); code != http.StatusOK || !strings.Contains(body, "Valkey") || !strings.Contains(body, "48 cores") {
		t.Errorf("the thread's follow-up after the kill: %d %.500s", code, body)
	}
	again.stop(t)
}

// copyReadyStore writes into dir a store with nothing left to prepare: the
// embedded dataset and the knowledge figures of its runs.
func copyReadyStore(t *testing.T, dir string) {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, ready, "ask", "dragonfly at 48 cores"); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(ready)); err != nil {
		t.Fatal(err)
	}
}
