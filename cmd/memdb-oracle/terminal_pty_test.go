//go:build linux || darwin

package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyProgram is the program running on a pseudo-terminal, with what it
// has printed so far.
type ptyProgram struct {
	t       *testing.T
	tty     *os.File
	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{} // signalled after each read
	done    chan error
}

func startOnPTY(t *testing.T, dataDir string, args ...string) *ptyProgram {
	t.Helper()
	cmd := command(t, dataDir, []string{"TERM=xterm-256color"}, args...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 40})
	if err != nil {
		t.Fatalf("starting on a pty: %v", err)
	}
	p := &ptyProgram{t: t, tty: tty, changed: make(chan struct{}, 1), done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			select {
			case p.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() { tty.Close() })
	return p
}

// waitFor waits until what was printed satisfies ok, or fails after 60 s.
func (p *ptyProgram) waitFor(what string, ok func(out string) bool) string {
	p.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		p.mu.Lock()
		out := p.out.String()
		p.mu.Unlock()
		if ok(out) {
			return out
		}
		select {
		case <-p.changed:
		case <-deadline:
			p.t.Fatalf("waited 60 s for %s; the terminal shows:\n%q", what, out)
		}
	}
}

func (p *ptyProgram) send(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.tty, s); err != nil {
		p.t.Fatal(err)
	}
}

func TestOnATerminalAskIsStyledAndChatRecallsTheLastQuestionWithUp(t *testing.T) {
	data := t.TempDir()
	const headline = "throughput of 3.7M ops/s at 8 cores"

	ask := startOnPTY(t, data, "ask", "dragonfly at 8 cores")
	out := ask.waitFor("the answer", func(out string) bool { return strings.Contains(out, "below.") })
	if err := <-ask.done; err != nil {
		t.Fatalf("ask: %v\n%s", err, out)
	}
	out = ask.waitFor("the whole answer", func(out string) bool { return strings.Contains(out, "term:median") })
	if !strings.Contains(out, "\x1b[1mDragonfly: "+headline) {
		t.Errorf("the headline is not bold on a terminal:\n%q", out)
	}
	if strings.Contains(out, "**") || strings.Contains(out, "_Read as") {
		t.Errorf("Markdown marks reached the terminal:\n%q", out)
	}

	chat := startOnPTY(t, data, "chat")
	chat.waitFor("the prompt", func(out string) bool { return strings.Contains(out, "> ") })
	chat.send("dragonfly at 8 cores\r")
	chat.waitFor("the first answer", func(out string) bool { return strings.Count(out, headline) >= 2 })
	chat.send("\x1b[A") // ↑
	chat.waitFor("the recalled question", func(out string) bool {
		i := strings.LastIndex(out, headline)
		return strings.Contains(out[i:], "dragonfly at 8 cores")
	})
	chat.send("\r")
	chat.waitFor("the answer to the recalled question", func(out string) bool { return strings.Count(out, headline) >= 4 })
	chat.send("/quit\r")
	select {
	case err := <-chat.done:
		if err != nil {
			t.Fatalf("chat: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("chat did not end on /quit")
	}
}

func TestOnATerminalServePrintsHumanLinesAndTheURLToOpen(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		ready func(out string) bool
		check func(t *testing.T, out string)
	}{
		{"by default", []string{"serve"},
			func(out string) bool { return strings.Contains(out, "(Ctrl-C stops it)") },
			func(t *testing.T, out string) {
				if !strings.Contains(out, "open http://localhost:") || strings.Contains(out, `{"time"`) {
					t.Errorf("want human lines and the URL to open:\n%s", out)
				}
			}},
		{"with --log-format json", []string{"serve", "--log-format", "json"},
			func(out string) bool { return strings.Contains(out, `"msg":"serving"`) },
			func(t *testing.T, out string) {
				if strings.Contains(out, "(Ctrl-C stops it)") {
					t.Errorf("--log-format json printed human lines:\n%s", out)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startOnPTY(t, t.TempDir(), append(tt.args, "--http-addr", "127.0.0.1:0")...)
			tt.check(t, p.waitFor("serve to listen", tt.ready))
			p.send("\x03") // Ctrl-C: SIGINT from the terminal
			select {
			case err := <-p.done:
				if err != nil {
					t.Errorf("serve after Ctrl-C: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("serve did not stop on Ctrl-C")
			}
		})
	}
}
