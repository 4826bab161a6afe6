package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// importWorkerEnv marks the child process an import's writing runs in (see
// superviseImport).
const importWorkerEnv = "MEMDB_IMPORT_WORKER_PROCESS"

// childExit is the exit status of an import's writing process, which has
// already said everything (on the same stdout and stderr): main exits
// with its code and prints nothing more.
type childExit struct{ code int }

func (e childExit) Error() string {
	return fmt.Sprintf("the import process exited with status %d", e.code)
}

// superviseImport runs the import in a child process (this program, same
// arguments and terminal) and waits for it. Badger writes its logs and
// tables through memory-mapped files; a disk that another process fills to
// the last byte while Badger maps a new one is a SIGBUS, which the Go
// runtime turns into a crash that nothing inside the process can catch.
// The child dying that way is, for the user, what it is: the disk filled
// during the import (exit code 4, the space free and needed), with nothing
// committed — the import is all or nothing, and the next open rolls the
// partial one back, as after a kill -9.
func superviseImport(a *app, name string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("import %s: finding this program to run the import: %w", name, err)
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Args[0] = os.Args[0] // as called: a test binary dispatches on it
	// The child's stderr stays the terminal (its progress line needs
	// one): a fault prints the Go runtime's report there, above the
	// message below that says what it means.
	cmd.Env = append(os.Environ(), importWorkerEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("import %s: starting the import process: %w", name, err)
	}
	// An interrupt reaches the child too (one process group); a SIGTERM
	// to this process alone is passed on, and the child rolls back.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-a.ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGTERM)
		case <-stop:
		}
	}()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return err // nil: the child imported and said so
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	// Exit 2 from the child is a crash of the Go runtime (a fault in a
	// mapped file, or a panic): usage errors were caught here before it
	// started. A signal is a kill from outside (the OOM killer, say).
	crashed := ws.Signaled() || ws.ExitStatus() == 2
	if !crashed {
		return childExit{ws.ExitStatus()}
	}
	how := "crashed"
	if ws.Signaled() {
		how = "was killed by " + ws.Signal().String()
	}
	if derr := analytics.CheckFreeSpace(a.cfg.DataDir); derr != nil {
		return fmt.Errorf("import %s: the disk filled while the store was writing it (the import process %s): %w; nothing was committed, and the next command that opens the store once space is freed rolls the partial import back", name, how, derr)
	}
	return fmt.Errorf("import %s: the import process %s (its last words are above); nothing was committed, and the next command that opens the store rolls the partial import back", name, how)
}

// supervised says whether this import should run in a child process: a
// whole program (not a test calling run) importing a regular file from
// this machine, and not already the child. A FIFO or <(…) can be read only
// once and only by this process, so it is imported here.
func (c importCmd) supervised() bool {
	if !processWide || c.Remote != "" || os.Getenv(importWorkerEnv) != "" {
		return false
	}
	fi, err := os.Stat(c.File)
	return err == nil && fi.Mode().IsRegular()
}
