package main

import (
	"os"
	"strings"
	"testing"
)

// The same answer is a grid on a wide terminal and one line per row on a
// narrow one; the numbers are the same in both.
func TestAskLaysTablesOutForTheTerminalWidth(t *testing.T) {
	dir := t.TempDir()
	ask := func(columns string) string {
		t.Helper()
		out, stderr, err := runInProcess(t, env("HOME", t.TempDir(), "COLUMNS", columns), "",
			"--data", dir, "ask", "compare all engines at 48 cores")
		if err != nil {
			t.Fatalf("ask with COLUMNS=%s: %v\n%s", columns, err, stderr)
		}
		return out
	}
	wide, narrow := ask("220"), ask("60")
	if !strings.Contains(wide, "\n| Dragonfly (single process)") {
		t.Errorf("COLUMNS=220: the table is not a grid:\n%s", wide)
	}
	for _, l := range strings.Split(narrow, "\n") {
		if strings.HasPrefix(l, "|") {
			t.Fatalf("COLUMNS=60: a grid line was printed anyway: %q", l)
		}
	}
	if !strings.Contains(narrow, "- **Dragonfly (single process)** — Session 1 · ops/s 15.5M") {
		t.Errorf("COLUMNS=60: the rows are not laid out one per line:\n%s", narrow)
	}
}

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s is read as a terminal", os.DevNull)
	}
}
