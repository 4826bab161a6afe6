package main

import (
	"image/png"
	"os"
	"regexp"
	"testing"
)

// TestChatSavesChartsToATemporaryFile asks a scaling question in chat through
// a pipe and opens the PNG whose path the session printed.
func TestChatSavesChartsToATemporaryFile(t *testing.T) {
	tmp := t.TempDir()
	stdout, stderr, code := runBinary(t, t.TempDir(), "How does Dragonfly scale compared with Redis?\n/quit\n", []string{"TMPDIR=" + tmp}, "chat")
	if code != 0 {
		t.Fatalf("chat exited %d\nstderr: %s", code, stderr)
	}
	m := regexp.MustCompile(`(?m)^Chart: (\S+\.png) \(`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no chart path printed:\n%s", stdout)
	}
	f, err := os.Open(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", m[1], err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("chart is %dx%d, want chat size", b.Dx(), b.Dy())
	}
}
