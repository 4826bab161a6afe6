// Package redistest runs a real redis-server for tests: on a free loopback
// port, without persistence, stopped when the test ends.
package redistest

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is one redis-server process the test owns.
type Server struct {
	tb     testing.TB
	Port   int
	cmd    *exec.Cmd
	exited chan struct{} // closed when the running process has exited
	// tls, when set, makes the server speak TLS only, with a certificate
	// from a test CA (CAFile).
	tls *testTLS
	// args are added to the command line (StartWith).
	args []string
	// password, once set with RequirePass, is sent by Command.
	password string
}

// Start runs redis-server on a free loopback port and stops it when the
// test ends. Without redis-server on PATH the test is skipped with one line
// naming the package to install, except when the environment variable CI
// is set: there it fails, so CI never passes by skipping (.ci/run installs
// it).
func Start(tb testing.TB) *Server {
	tb.Helper()
	return start(tb, &Server{tb: tb})
}

// StartWith is Start with extra redis-server arguments ("--dir", DIR, …),
// kept for Restart.
func StartWith(tb testing.TB, args ...string) *Server {
	tb.Helper()
	return start(tb, &Server{tb: tb, args: args})
}

// Require skips the test when redis-server is not installed (fails it
// under CI), for tests that start servers their own way.
func Require(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		const msg = "redis-server is not installed: install the redis-server package (apt-get install redis-server; brew install redis on macOS)"
		if InCI(os.Getenv) {
			tb.Fatal(msg + "; CI is set, so this fails instead of skipping")
		}
		tb.Skip("skipped: " + msg)
	}
}

// StartTLS is Start for a server that speaks only TLS (rediss://), with a
// certificate for 127.0.0.1 signed by a CA made for the test (CAFile).
func StartTLS(tb testing.TB) *Server {
	tb.Helper()
	t, err := newTestTLS(tb.TempDir())
	if err != nil {
		tb.Fatalf("making the test certificates: %v", err)
	}
	return start(tb, &Server{tb: tb, tls: t})
}

// CAFile is the PEM file of the CA that signed a StartTLS server's
// certificate.
func (s *Server) CAFile() string { return s.tls.caFile }

func start(tb testing.TB, s *Server) *Server {
	tb.Helper()
	Require(tb)
	var err error
	for range 5 { // a port found free may be taken before redis binds it
		if s.Port, err = freePort(); err != nil {
			continue
		}
		if err = s.start(); err == nil {
			tb.Cleanup(s.Stop)
			return s
		}
	}
	tb.Fatalf("starting redis-server: %v", err)
	return nil
}

// InCI reports whether the environment variable CI says the tests run in
// continuous integration, where a test that needs a missing binary fails
// rather than skips. Any value but empty, 0 or false counts.
func InCI(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("CI"))) {
	case "", "0", "false", "no":
		return false
	}
	return true
}

// URL is the server's redis:// URL (rediss:// for a StartTLS server).
func (s *Server) URL() string {
	if s.tls != nil {
		return "rediss://" + s.Addr()
	}
	return "redis://" + s.Addr()
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

func (s *Server) start() error {
	args := []string{"--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no", "--loglevel", "warning"}
	if s.tls != nil {
		args = append(args, "--port", "0", "--tls-port", strconv.Itoa(s.Port),
			"--tls-cert-file", s.tls.certFile, "--tls-key-file", s.tls.keyFile,
			"--tls-ca-cert-file", s.tls.caFile, "--tls-auth-clients", "no")
	}
	args = append(args, s.args...)
	cmd := exec.Command("redis-server", args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("redis-server on port %d exited at start", s.Port)
		default:
		}
		if err := s.ping(); err == nil || strings.Contains(err.Error(), "LOADING") || strings.Contains(err.Error(), "NOAUTH") {
			s.cmd, s.exited = cmd, exited
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	<-exited
	return fmt.Errorf("redis-server on port %d did not answer PING", s.Port)
}

// Stop ends the server at once (SIGKILL, as a crash would) and waits for
// it; Restart brings it back on the same port.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again on the same port, empty.
func (s *Server) Restart() {
	s.tb.Helper()
	if err := s.start(); err != nil {
		s.tb.Fatalf("restarting redis-server: %v", err)
	}
}

// RestartWith is Restart with more arguments, kept for later restarts.
func (s *Server) RestartWith(args ...string) {
	s.tb.Helper()
	s.args = append(s.args, args...)
	s.Restart()
}

func (s *Server) ping() error {
	var c net.Conn
	var err error
	if s.tls != nil {
		d := &net.Dialer{Timeout: 200 * time.Millisecond}
		c, err = tls.DialWithDialer(d, "tcp", s.Addr(), &tls.Config{RootCAs: s.tls.pool, MinVersion: tls.VersionTLS12})
	} else {
		c, err = net.DialTimeout("tcp", s.Addr(), 200*time.Millisecond)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Command runs one command on the server with redis-cli and returns its
// output, trimmed.
func Command(tb testing.TB, s *Server, args ...string) (string, error) {
	tb.Helper()
	base := []string{"-p", strconv.Itoa(s.Port)}
	if s.password != "" {
		base = append(base, "--no-auth-warning", "-a", s.password)
	}
	out, err := exec.Command("redis-cli", append(base, args...)...).CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil || strings.HasPrefix(text, "ERR") || strings.HasPrefix(text, "(error)") {
		return text, fmt.Errorf("redis-cli %v: %v %s", args, err, text)
	}
	return text, nil
}

// RequirePass sets a password on the default user and drops every client
// connection, so clients without it are refused from their next command.
func RequirePass(tb testing.TB, s *Server, password string) {
	tb.Helper()
	if _, err := Command(tb, s, "CONFIG", "SET", "requirepass", password); err != nil {
		tb.Fatal(err)
	}
	s.password = password
	if _, err := Command(tb, s, "CLIENT", "KILL", "TYPE", "normal"); err != nil {
		tb.Fatal(err)
	}
}

// AddUser creates an ACL user with a password and every permission.
func AddUser(tb testing.TB, s *Server, user, password string) error {
	tb.Helper()
	out, err := exec.Command("redis-cli", "-p", strconv.Itoa(s.Port), "ACL", "SETUSER", user, "on", ">"+password, "~*", "&*", "+@all").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "OK") {
		return fmt.Errorf("ACL SETUSER: %v %s", err, out)
	}
	return nil
}
