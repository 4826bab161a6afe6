package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctorScrubSaysWhatItReadAndWhatFailed(t *testing.T) {
	base := filepath.Join(t.TempDir(), "data")
	if _, _, err := runCLI(t, base, "runs", "cores == 48"); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "mine.csv")
	if err := os.WriteFile(csv, sessionOneCSV(t), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, base, "import", "--session", "3", csv); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		exit   int
		want   []string
	}{
		{"a sound store", func(*testing.T, string) {}, 0, []string{"Scrubbed ", "kept copy of an imported file against their checksums", "Nothing failed its checksum."}},
		{"a damaged kept copy", func(t *testing.T, dir string) {
			copies, _ := filepath.Glob(filepath.Join(dir, "sources", "*mine.csv"))
			if len(copies) != 1 {
				t.Fatalf("kept copies: %q", copies)
			}
			if err := os.WriteFile(copies[0], []byte("changed"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, exitDamaged, []string{"Damaged: the kept copy of mine.csv", "import those files again"}},
		{"a damaged table", damageLargestTable, exitDamaged, []string{"Damaged: ", "doctor --repair"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			tc.damage(t, dir)
			out, _, err := runCLI(t, dir, "doctor", "--scrub")
			switch {
			case tc.exit == 0 && err != nil:
				t.Errorf("doctor --scrub: %v, want exit 0\n%s", err, out)
			case tc.exit != 0 && exitCode(err) != tc.exit:
				t.Errorf("exit %d (%v), want %d\n%s", exitCode(err), err, tc.exit, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
