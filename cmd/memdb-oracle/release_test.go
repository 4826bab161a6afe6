package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestTheReleaseBuildsEveryPlatformAndTheImage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Binary  string   `yaml:"binary"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
		Dockers []struct {
			Dockerfile string `yaml:"dockerfile"`
		} `yaml:"dockers"`
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: version %d, %d builds; want version 2 and one build", cfg.Version, len(cfg.Builds))
	}
	b := cfg.Builds[0]
	for _, os := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(b.Goos, os) {
			t.Errorf("no %s build", os)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		if !slices.Contains(b.Goarch, arch) {
			t.Errorf("no %s build", arch)
		}
	}
	if filepath.Clean(b.Main) != filepath.Join("cmd", programName) || b.Binary != programName {
		t.Errorf("build main %q binary %q", b.Main, b.Binary)
	}
	// The version the release stamps must land in a variable that exists.
	if !strings.Contains(strings.Join(b.Ldflags, " "), "-X main.releaseVersion=") {
		t.Errorf("ldflags %q do not set main.releaseVersion", b.Ldflags)
	}
	releaseVersion = "9.9.9"
	defer func() { releaseVersion = "" }()
	if got := programVersion(); got != "9.9.9" {
		t.Errorf("programVersion() = %q with releaseVersion set", got)
	}
	if len(cfg.Dockers) == 0 {
		t.Error("no container image")
	}
	for _, d := range cfg.Dockers {
		if _, err := os.Stat(filepath.Join(repoRoot, d.Dockerfile)); err != nil {
			t.Errorf("image Dockerfile: %v", err)
		}
	}

	bin, err := exec.LookPath("goreleaser")
	if err != nil {
		const msg = "goreleaser is not installed: go install github.com/goreleaser/goreleaser/v2@v2.15.1"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + " (CI is set, so this fails; .ci/run installs it)")
		}
		t.Skip("goreleaser check skipped: " + msg)
	}
	cmd := exec.CommandContext(t.Context(), bin, "check")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("goreleaser check: %v\n%s", err, out)
	}
}
