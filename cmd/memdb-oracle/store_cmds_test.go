package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// runCLI runs the program with a fresh data directory unless args set one,
// and returns stdout, stderr and the error.
func runCLI(t *testing.T, dataDir string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "MEMDB_ORACLE_DATA" {
			return dataDir
		}
		return ""
	}
	err := run(t.Context(), args, getenv, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

const dragonflyFilter = `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`

func TestRunsPrintsTheDragonflyCellOnAFreshDataDir(t *testing.T) {
	out, _, err := runCLI(t, t.TempDir(), "runs", dragonflyFilter)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"15,473,658.395",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2",
		"1 cell from 2 runs; every figure is the median across 2 repetitions of its cell.",
		"Filter: " + dragonflyFilter,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "engine") || !strings.HasPrefix(lines[1], "dragonfly  single") {
		t.Errorf("table:\n%s", out)
	}
	if !strings.Contains(lines[1], "  2  run-s1-") {
		t.Errorf("row lacks 2 reps before the run IDs: %q", lines[1])
	}
}

func TestRunsJSONIsAnArrayOfCells(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, dir, "runs", "--json", dragonflyFilter)
	if err != nil {
		t.Fatal(err)
	}
	var cells []analytics.Cell
	if err := json.Unmarshal([]byte(out), &cells); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(cells) != 1 || cells[0].OpsPerSec != 15473658.395 || cells[0].Reps != 2 || len(cells[0].RunIDs) != 2 {
		t.Errorf("cells = %+v", cells)
	}
	out, _, err = runCLI(t, dir, "runs", "--json", `cores == 1000`)
	if err != nil || strings.TrimSpace(out) != "[]" {
		t.Errorf("no match = %q, %v; want []", out, err)
	}
}

func TestRunsShowsABadFilterWithACaret(t *testing.T) {
	tests := []struct {
		name   string
		filter string
		want   string
	}{
		{"a quoted number", `cores == "48"`,
			"bad filter: type mismatch: cores is a whole number but \"48\" is text (write numbers without quotes: cores == 48)\n  cores == \"48\"\n        ^"},
		{"an unknown field", `engine == "redis" && core == 8`,
			"bad filter: unknown field \"core\" (did you mean \"cores\"?)\n  engine == \"redis\" && core == 8\n                       ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused with the position marked", func(t *testing.T) {
			out, _, err := runCLI(t, t.TempDir(), "runs", tt.filter)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
			if exitCode(err) == 0 || out != "" {
				t.Errorf("exit %d, stdout %q", exitCode(err), out)
			}
		})
	}
}

func TestImportReportsAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, dir, "import", "--session", "2", filepath.Join("..", "..", "analytics", "dataset", "runs-session2-aws.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Imported runs-session2-aws.csv as session 2: 272 rows read, 128 kept, 0 added, 128 already present.",
		"Skipped 144 rows by the keep rule",
		"The store now holds 478 runs (session 1: 350, session 2: 128).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	counts := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) >= 2 {
			counts[strings.Join(f[:len(f)-1], " ")] = f[len(f)-1]
		}
	}
	if counts["mac-dress-rehearsal"] != "120" || counts["(blank note)"] != "2" || len(counts) != 11 {
		t.Errorf("skipped notes = %v", counts)
	}
}

func TestImportOfABadFileListsEveryProblemAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "analytics", "dataset", "runs-aws.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\r\n")
	lines[2] = strings.Replace(lines[2], "dragonfly", "Memcached!", 1)
	fields := strings.Split(lines[4], ",")
	fields[19] = "lots" // ops_per_sec
	lines[4] = strings.Join(fields, ",")
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\r\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _, err := runCLI(t, dir, "version")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCLI(t, dir, "import", "--session", "3", bad)
	if err == nil || err.Error() != "import bad.csv: 2 problems found; nothing was written" {
		t.Errorf("error = %v", err)
	}
	want := "line 3, column engine: must be an engine name of 1-32 lower-case letters, digits, '-' or '.', starting with a letter, got \"Memcached!\"\n" +
		"line 5, column ops_per_sec: not a number: \"lots\"\n"
	if errOut != want || out != "" {
		t.Errorf("stderr:\n%s\nwant:\n%s\nstdout %q", errOut, want, out)
	}
	after, _, _ := runCLI(t, dir, "version")
	if after != before {
		t.Errorf("version changed:\n%s\nwas:\n%s", after, before)
	}
}

func TestVersionPrintsCountsAndFingerprint(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, dir, "version")
	if err != nil {
		t.Fatal(err)
	}
	fp, err := analytics.EmbeddedFingerprint()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"memdb-oracle ",
		"runs: 478 (session 1: 350, session 2: 128)",
		"cells: 254",
		"fingerprint: " + fp + " (the embedded dataset)",
		"data: " + dir,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTheDataFlagOverridesTheEnvironment(t *testing.T) {
	flagDir, envDir := t.TempDir(), t.TempDir()
	out, _, err := runCLI(t, envDir, "--data", flagDir, "version")
	if err != nil || !strings.Contains(out, "data: "+flagDir) {
		t.Errorf("version = %q, %v; want data in %s", out, err, flagDir)
	}
	if entries, _ := os.ReadDir(envDir); len(entries) != 0 {
		t.Errorf("the environment's directory was used: %v", entries)
	}
}
