package analytics

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The permission child: run by TestARootOwnedManifestFileIsAPermissionErrorNotDamage
// as an unprivileged user (root reads every file, so it cannot see the
// refusal itself), it opens the store and checks it, and prints what
// each returned.
const permissionDirEnv = "MEMDB_ORACLE_PERMISSION_DIR"

func TestPermissionChildProcess(t *testing.T) {
	dir := os.Getenv(permissionDirEnv)
	if dir == "" {
		t.Skip("runs only as the child process of TestARootOwnedManifestFileIsAPermissionErrorNotDamage")
	}
	s, err := Open(t.Context(), Options{Dir: dir})
	if err == nil {
		s.Close()
	}
	_, checkErr := Check(t.Context(), dir)
	_, repairErr := Repair(t.Context(), dir, nil)
	for _, e := range []error{err, checkErr, repairErr} {
		switch {
		case errors.Is(e, ErrPermission) && !errors.Is(e, ErrCorrupt):
			os.Stdout.WriteString("permission\n")
		default:
			os.Stdout.WriteString("other: " + strings.ReplaceAll(errString(e), "\n", " ") + "\n")
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

func TestARootOwnedManifestFileIsAPermissionErrorNotDamage(t *testing.T) {
	if os.Getenv(permissionDirEnv) != "" {
		t.Skip("inside the child")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make a file another user owns and run the check as that user")
	}
	const nobody = 65534
	// A directory the unprivileged user can reach, holding this test binary
	// and a store it owns, except for the manifest file.
	top, err := os.MkdirTemp("", "memdb-oracle-permission-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(top, "data")
	copyDir(t, storeWithImport(t), dir)
	err = filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chown(p, nobody, nobody)
	})
	if err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join(dir, manifestFile)
	if err := os.Chown(mirror, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mirror, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(top, "analytics.test")
	copyExecutable(t, bin)

	cmd := exec.Command(bin, "-test.run=^TestPermissionChildProcess$")
	cmd.Env = append(os.Environ(), permissionDirEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, what := range []string{"open", "check", "repair"} {
		if i >= len(lines) || lines[i] != "permission" {
			t.Errorf("%s as another user than the manifest file's owner: %v, want a permission error\n%s", what, lines, out)
		}
	}
	// Nothing was moved aside or rebuilt.
	if moved, _ := filepath.Glob(filepath.Join(dir, damagedPrefix+"*")); len(moved) != 0 {
		t.Errorf("a permission error moved files aside: %v", moved)
	}
}

// copyExecutable copies the running test binary to path, executable by all.
func copyExecutable(t *testing.T, path string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
