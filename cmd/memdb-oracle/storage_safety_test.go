package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadOnlyCommandsLeaveNoDataDirectoryBehind(t *testing.T) {
	for _, args := range [][]string{
		{"version"},
		{"kb", "show", "term:pipelining"},
		{"plan", "dragonfly vs redis at 48 cores"},
		{"--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			if _, _, err := runCLI(t, dir, args...); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s created the data directory (stat: %v)", args[0], err)
			}
		})
	}
}

func TestTheFirstUseOfADataDirectorySaysSoOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	_, errOut, err := runCLI(t, dir, "runs", "cores == 48 && engine == \"garnet\"")
	if err != nil {
		t.Fatal(err)
	}
	if want := "first use: imported the embedded dataset into " + dir + "\n"; errOut != want {
		t.Errorf("stderr = %q, want %q", errOut, want)
	}
	if _, errOut, _ = runCLI(t, dir, "runs", "cores == 48"); errOut != "" {
		t.Errorf("second use: stderr = %q, want nothing", errOut)
	}
}

func TestFilterProblemsAreUsageErrors(t *testing.T) {
	tests := []struct {
		name, filter, want string
	}{
		{"a division by zero while running", `cores % 0 == 1`, "the filter fails at column 7: division by zero"},
		{"nested text functions", strings.Repeat("trim(", 22) + "note" + strings.Repeat(")", 22) + ` == "x"`,
			"text functions cannot be nested"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, t.TempDir(), "runs", tt.filter)
			if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v (exit %d), want exit 2 with %q", err, exitCode(err), tt.want)
			}
		})
	}
}
