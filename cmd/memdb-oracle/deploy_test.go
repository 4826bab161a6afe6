package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// knownSettings are the environment variables the program reads: every
// quoted MEMDB_ORACLE_*, SLACK_* and DISCORD_* name in its source.
func knownSettings(t *testing.T) map[string]bool {
	t.Helper()
	name := regexp.MustCompile(`"((?:MEMDB_ORACLE|SLACK|DISCORD)_[A-Z0-9_]+)"`)
	known := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			known[m[1]] = true
		}
	}
	if !known["MEMDB_ORACLE_STATE_URL"] || !known["SLACK_BOT_TOKEN"] {
		t.Fatalf("the settings scan found too little: %v", known)
	}
	return known
}

// knownCommand reports whether the program has the subcommand.
func knownCommand(t *testing.T, name string) bool {
	t.Helper()
	err := run(t.Context(), []string{name, "--help"}, env("HOME", t.TempDir()), strings.NewReader(""), io.Discard, io.Discard)
	return err == nil
}

func TestDeployFilesUseOnlySettingsTheBinaryKnows(t *testing.T) {
	known := knownSettings(t)
	check := func(t *testing.T, where string, keys []string) {
		t.Helper()
		if len(keys) == 0 {
			t.Errorf("%s sets no settings; the parse found nothing", where)
		}
		for _, k := range keys {
			if !known[k] {
				t.Errorf("%s sets %s, which the binary does not read", where, k)
			}
		}
	}
	t.Run("compose: two replicas on Valkey, each with its own data volume", func(t *testing.T) {
		raw, err := os.ReadFile("../../deploy/compose.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var compose struct {
			Services map[string]struct {
				Image       string            `yaml:"image"`
				Command     []string          `yaml:"command"`
				Environment map[string]string `yaml:"environment"`
				Volumes     []string          `yaml:"volumes"`
			} `yaml:"services"`
		}
		if err := yaml.Unmarshal(raw, &compose); err != nil {
			t.Fatalf("compose.yaml: %v", err)
		}
		var replicas, volumes []string
		for name, s := range compose.Services {
			if !strings.HasPrefix(s.Image, "memdb-oracle") {
				continue
			}
			replicas = append(replicas, name)
			check(t, "service "+name, slices.Sorted(func(yield func(string) bool) {
				for k := range s.Environment {
					if !yield(k) {
						return
					}
				}
			}))
			if len(s.Command) == 0 || !knownCommand(t, s.Command[0]) {
				t.Errorf("service %s runs %v, not a command of the binary", name, s.Command)
			}
			if u := s.Environment["MEMDB_ORACLE_STATE_URL"]; !strings.HasPrefix(u, "redis://") || !strings.Contains(u, "@valkey:6379") {
				t.Errorf("service %s does not share state on the valkey service", name)
			}
			volumes = append(volumes, s.Volumes...)
		}
		if len(replicas) != 2 {
			t.Errorf("replicas %v, want two", replicas)
		}
		if _, ok := compose.Services["valkey"]; !ok {
			t.Error("no valkey service")
		}
		if len(slices.Compact(slices.Sorted(slices.Values(volumes)))) != len(volumes) {
			t.Errorf("replicas share a data volume %v; each needs its own directory", volumes)
		}
	})
	t.Run("systemd unit", func(t *testing.T) {
		raw, err := os.ReadFile("../../deploy/memdb-oracle.service")
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, line := range strings.Split(string(raw), "\n") {
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "Environment="); ok {
				k, _, _ := strings.Cut(strings.Trim(v, `"`), "=")
				keys = append(keys, k)
			}
			if v, ok := strings.CutPrefix(line, "ExecStart="); ok {
				f := strings.Fields(v)
				if len(f) < 2 || !knownCommand(t, f[1]) {
					t.Errorf("ExecStart=%s does not run a command of the binary", v)
				}
			}
		}
		check(t, "the unit", keys)
	})
	t.Run("Dockerfile: multi-stage, static, non-root, with a health check the binary answers", func(t *testing.T) {
		raw, err := os.ReadFile("../../Dockerfile")
		if err != nil {
			t.Fatal(err)
		}
		df := string(raw)
		if strings.Count(df, "\nFROM ") < 2 || !strings.Contains(df, "CGO_ENABLED=0") || !strings.Contains(df, "\nUSER nonroot") {
			t.Error("want two stages, a static build and a non-root user")
		}
		hc := regexp.MustCompile(`CMD \["/usr/local/bin/memdb-oracle", "([a-z]+)"\]`).FindStringSubmatch(df)
		if !strings.Contains(df, "HEALTHCHECK") || hc == nil || !knownCommand(t, hc[1]) {
			t.Errorf("the HEALTHCHECK does not run a command of the binary: %v", hc)
		}
		var keys []string
		for _, m := range regexp.MustCompile(`(MEMDB_ORACLE_[A-Z_]+)=`).FindAllStringSubmatch(df, -1) {
			keys = append(keys, m[1])
		}
		check(t, "the Dockerfile", keys)
	})
}

func TestHealthcheckExitsZeroOnlyWhenServeAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	if _, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "healthcheck", "--addr", addr); err != nil {
		t.Fatalf("a healthy serve: %v", err)
	}
	srv.Close()
	if _, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "healthcheck", "--addr", addr); err == nil {
		t.Fatal("a stopped serve passes the health check")
	}
}

// composeService is the part of a compose service the hardening review
// reads (a YAML schema check where `docker compose config` is missing).
type composeService struct {
	Image           string   `yaml:"image"`
	Command         []string `yaml:"command"`
	User            string   `yaml:"user"`
	ReadOnly        bool     `yaml:"read_only"`
	CapDrop         []string `yaml:"cap_drop"`
	SecurityOpt     []string `yaml:"security_opt"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	Deploy          struct {
		Resources struct {
			Limits struct {
				CPUs   string `yaml:"cpus"`
				Memory string `yaml:"memory"`
			} `yaml:"limits"`
		} `yaml:"resources"`
	} `yaml:"deploy"`
	Logging struct {
		Driver  string            `yaml:"driver"`
		Options map[string]string `yaml:"options"`
	} `yaml:"logging"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

func TestTheComposeFilePassesAHardeningReview(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]composeService `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	if len(compose.Services) != 3 {
		t.Fatalf("services %v, want valkey and two replicas", slices.Sorted(func(yield func(string) bool) {
			for k := range compose.Services {
				yield(k)
			}
		}))
	}
	for name, s := range compose.Services {
		t.Run(name, func(t *testing.T) {
			if !s.ReadOnly {
				t.Error("the root file system is writable (read_only: true)")
			}
			if !slices.Equal(s.CapDrop, []string{"ALL"}) {
				t.Errorf("cap_drop %v, want [ALL]", s.CapDrop)
			}
			if !slices.Contains(s.SecurityOpt, "no-new-privileges:true") {
				t.Errorf("security_opt %v lacks no-new-privileges:true", s.SecurityOpt)
			}
			if l := s.Deploy.Resources.Limits; l.CPUs == "" || l.Memory == "" {
				t.Errorf("no CPU or memory limit: %+v", l)
			}
			if s.Logging.Options["max-size"] == "" || s.Logging.Options["max-file"] == "" {
				t.Errorf("logs are not rotated: %+v", s.Logging)
			}
			if s.StopGracePeriod == "" {
				t.Error("no stop_grace_period: the default 10 s cuts the drain short")
			}
			if len(s.Healthcheck.Test) < 2 {
				t.Error("no healthcheck")
			}
		})
	}
	valkey := compose.Services["valkey"]
	if !regexp.MustCompile(`@sha256:[0-9a-f]{64}$`).MatchString(valkey.Image) {
		t.Errorf("valkey image %q is not pinned by digest", valkey.Image)
	}
	args := strings.Join(valkey.Command, " ")
	for _, want := range []string{"--requirepass ${VALKEY_PASSWORD:?", "--maxmemory ", "--maxmemory-policy noeviction"} {
		if !strings.Contains(args, want) {
			t.Errorf("valkey's command %q lacks %q (a password, a memory bound, and a policy that never evicts the feed or a lease)", args, want)
		}
	}

	// Where Docker Compose is installed, it validates the file too.
	if out, err := exec.Command("docker", "compose", "version").CombinedOutput(); err != nil {
		t.Logf("docker compose is not installed (%s): the YAML review above stands in for `docker compose config`", bytes.TrimSpace(out))
		return
	}
	cmd := exec.Command("docker", "compose", "-f", "../../deploy/compose.yaml", "config", "--quiet")
	cmd.Env = append(os.Environ(), "VALKEY_PASSWORD=0123456789abcdef")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("docker compose config: %v\n%s", err, out)
	}
}

func TestTheDockerBuildKeepsSecretsOutAndStampsTheVersion(t *testing.T) {
	raw, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatalf("no .dockerignore: deploy/.env (secrets) enters the build context: %v", err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, want := range []string{".git", "**/.env", "deploy/"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".dockerignore lacks %q", want)
		}
	}
	df, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-X main.releaseVersion=${VERSION}", "FROM ${GO_IMAGE} AS build", "FROM ${BASE_IMAGE}"} {
		if !strings.Contains(string(df), want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
}

func TestTheSystemdUnitIsExposedAtMostTwo(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed (apt-get install systemd): the unit's exposure is not measured")
	}
	out, err := exec.Command("systemd-analyze", "security", "--offline=yes", "../../deploy/memdb-oracle.service").CombinedOutput()
	m := regexp.MustCompile(`Overall exposure level for memdb-oracle\.service: ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	if score, _ := strconv.ParseFloat(string(m[1]), 64); score > 2.0 {
		t.Errorf("exposure %.1f, want at most 2.0:\n%s", score, out)
	}
}

// pinnedImage is a reference pinned by digest: name:tag@sha256:64 hex.
var pinnedImage = regexp.MustCompile(`^[a-z0-9][a-z0-9./_-]*(:[A-Za-z0-9._-]+)?@sha256:[0-9a-f]{64}$`)

// TestEveryBaseImageIsPinnedByDigest reads every FROM of the Dockerfiles
// (a build argument stands for its default) and every image: of the
// compose file. The one image without a digest is the one compose builds
// itself from the Dockerfile and never pulls.
func TestEveryBaseImageIsPinnedByDigest(t *testing.T) {
	dockerfiles, _ := filepath.Glob("../../deploy/*.Dockerfile")
	dockerfiles = append(dockerfiles, "../../Dockerfile")
	from := regexp.MustCompile(`(?im)^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?`)
	arg := regexp.MustCompile(`(?m)^ARG\s+([A-Za-z_][A-Za-z0-9_]*)=(\S+)`)
	for _, f := range dockerfiles {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defaults := map[string]string{}
		for _, m := range arg.FindAllStringSubmatch(string(raw), -1) {
			defaults[m[1]] = m[2]
		}
		stages := map[string]bool{}
		froms := from.FindAllStringSubmatch(string(raw), -1)
		if len(froms) == 0 {
			t.Errorf("%s: no FROM", f)
		}
		for _, m := range froms {
			ref := m[1]
			if v, ok := strings.CutPrefix(ref, "${"); ok {
				ref = defaults[strings.TrimSuffix(v, "}")]
			}
			if !stages[ref] && !pinnedImage.MatchString(ref) {
				t.Errorf("%s: FROM %s (%q) is not pinned by digest (name:tag@sha256:…)", f, m[1], ref)
			}
			if m[2] != "" {
				stages[m[2]] = true
			}
		}
	}

	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image      string `yaml:"image"`
			Build      any    `yaml:"build"`
			PullPolicy string `yaml:"pull_policy"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	built := map[string]bool{}
	for _, s := range compose.Services {
		if s.Build != nil && s.PullPolicy == "build" {
			built[s.Image] = true
		}
	}
	for name, s := range compose.Services {
		switch {
		case pinnedImage.MatchString(s.Image):
		case built[s.Image] && (s.PullPolicy == "build" || s.PullPolicy == "never"):
			// Built from the pinned Dockerfile by this file, never pulled.
		default:
			t.Errorf("service %s: image %q is neither pinned by digest nor built here and never pulled (pull_policy %q)", name, s.Image, s.PullPolicy)
		}
	}
}
