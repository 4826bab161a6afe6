package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md from the declared settings")

func TestConfigurationDocIsGenerated(t *testing.T) {
	const path = "../../docs/configuration.md"
	want := configurationDoc()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not what the settings generate; run go test ./cmd/memdb-oracle -run ConfigurationDoc -update", path)
	}
}

func TestServeHelpListsEveryVariable(t *testing.T) {
	stdout, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "serve", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range declaredSettings() {
		if !strings.Contains(stdout, "$"+s.Env) || !strings.Contains(stdout, "--"+s.Flag) {
			t.Errorf("serve --help does not list %s (--%s)", s.Env, s.Flag)
		}
	}
}

func TestEveryVariableTheSourceNamesIsDeclared(t *testing.T) {
	declared := map[string]bool{}
	for _, s := range declaredSettings() {
		if declared[s.Env] {
			t.Errorf("%s is declared twice", s.Env)
		}
		declared[s.Env] = true
	}
	for name := range knownSettings(t) {
		if !declared[name] {
			t.Errorf("the source reads %s but no setting declares it (settings.go)", name)
		}
	}
}

func TestAMisspeltVariableIsWarnedAboutWithTheNearestName(t *testing.T) {
	var out, errb bytes.Buffer
	err := runEnviron(t.Context(), []string{"--data", t.TempDir(), "plan", "dragonfly at 8 cores"},
		[]string{"HOME=" + t.TempDir(), "MEMDB_ORACLE_HTTP_ADR=:9090", "MEMDB_ORACLE_NOT_A_THING_AT_ALL=1", "MEMDB_ORACLE_DEADLINE=5s"},
		strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"MEMDB_ORACLE_HTTP_ADR is not a setting and is ignored (did you mean MEMDB_ORACLE_HTTP_ADDR?)",
		"MEMDB_ORACLE_NOT_A_THING_AT_ALL is not a setting and is ignored\n",
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	if strings.Contains(errb.String(), "MEMDB_ORACLE_DEADLINE") {
		t.Errorf("a declared variable was warned about:\n%s", errb.String())
	}
}

func TestEveryConfigurationErrorExits2BeforeTheDataDirectoryIsCreated(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"a Slack bot token without xoxb-", map[string]string{"SLACK_BOT_TOKEN": "hello", "SLACK_SIGNING_SECRET": "s3cret"}, nil, "SLACK_BOT_TOKEN is not in the expected format"},
		{"a Slack app token without xapp-", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xoxb-2"}, nil, "SLACK_APP_TOKEN is not in the expected format"},
		{"a Discord token with a space inside", map[string]string{"DISCORD_BOT_TOKEN": "Bot a.b c", "DISCORD_APP_ID": "800"}, nil, "DISCORD_BOT_TOKEN is not in the expected format"},
		{"a Discord token of one part", map[string]string{"DISCORD_BOT_TOKEN": "hello", "DISCORD_APP_ID": "800"}, nil, "DISCORD_BOT_TOKEN is not in the expected format"},
		{"a Discord application id that is not a number", map[string]string{"DISCORD_BOT_TOKEN": "a.b.c", "DISCORD_APP_ID": "my-app"}, nil, "DISCORD_APP_ID"},
		{"a Discord command name Discord refuses", map[string]string{"DISCORD_BOT_TOKEN": "a.b.c", "DISCORD_APP_ID": "800", "MEMDB_ORACLE_DISCORD_COMMAND": "Ask Oracle"}, nil, "MEMDB_ORACLE_DISCORD_COMMAND"},
		{"a port out of range", map[string]string{"MEMDB_ORACLE_HTTP_ADDR": "localhost:80800"}, nil, "port must be a number from 0 to 65535"},
		{"an address without a port", nil, []string{"--http-addr", "localhost"}, "want HOST:PORT"},
		{"a cron spec that cannot fire", map[string]string{"MEMDB_ORACLE_DIGEST_CRON": "0 25 * * *"}, nil, "MEMDB_ORACLE_DIGEST_CRON"},
		{"an unknown time zone", map[string]string{"MEMDB_ORACLE_DIGEST_CRON": "0 9 * * MON", "MEMDB_ORACLE_DIGEST_TZ": "Mars/Olympus"}, nil, "MEMDB_ORACLE_DIGEST_TZ"},
		{"a relative Slack API URL", map[string]string{"SLACK_API_URL": "slack-proxy.local/api"}, nil, "SLACK_API_URL"},
		{"a state URL of another scheme", map[string]string{"MEMDB_ORACLE_STATE_URL": "http://valkey:6379"}, nil, "MEMDB_ORACLE_STATE_URL"},
		{"a CA file without a TLS state URL", map[string]string{"MEMDB_ORACLE_STATE_URL": "redis://valkey:6379", "MEMDB_ORACLE_STATE_CA_FILE": "/etc/ssl/certs/ca-certificates.crt"}, nil, "not a rediss://"},
		{"a CA file that does not exist", map[string]string{"MEMDB_ORACLE_STATE_URL": "rediss://valkey:6379", "MEMDB_ORACLE_STATE_CA_FILE": "/nonexistent/ca.pem"}, nil, "MEMDB_ORACLE_STATE_CA_FILE"},
		{"a shared key too short to sign with", map[string]string{"MEMDB_ORACLE_STATE_URL": "redis://valkey:6379", "MEMDB_ORACLE_SHARED_KEY": "short"}, nil, "MEMDB_ORACLE_SHARED_KEY: want at least 32 characters"},
		{"a drain that is not a duration", map[string]string{"MEMDB_ORACLE_DRAIN": "a while"}, nil, "MEMDB_ORACLE_DRAIN"},
		{"public pages that are neither on nor off", map[string]string{"MEMDB_ORACLE_WEB_PUBLIC": "maybe"}, nil, "MEMDB_ORACLE_WEB_PUBLIC"},
		{"a malformed trusted proxy", map[string]string{"MEMDB_ORACLE_TRUSTED_PROXIES": "10.0.0.0/99"}, nil, "MEMDB_ORACLE_TRUSTED_PROXIES"},
		{"a base path with a trailing slash", map[string]string{"MEMDB_ORACLE_BASE_PATH": "/oracle/"}, nil, "MEMDB_ORACLE_BASE_PATH"},
		{"digest channels without their token", map[string]string{"MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS": "123"}, nil, "DISCORD_BOT_TOKEN is not"},
		{"a deadline that is not a duration", map[string]string{"MEMDB_ORACLE_DEADLINE": "soon"}, nil, "MEMDB_ORACLE_DEADLINE"},
		{"an unknown log format", map[string]string{"MEMDB_ORACLE_LOG_FORMAT": "xml"}, nil, "log-format"},
		{"an unknown model provider", map[string]string{"MEMDB_ORACLE_LLM": "gpt"}, nil, "MEMDB_ORACLE_LLM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			e := map[string]string{"HOME": t.TempDir(), "MEMDB_ORACLE_DATA": data}
			for k, v := range tt.env {
				e[k] = v
			}
			_, _, err := runInProcess(t, func(k string) string { return e[k] }, "", append(tt.args, "serve")...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("serve: %v, want an error containing %q", err, tt.want)
			}
			if code := exitCode(err); code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if _, err := os.Stat(data); !os.IsNotExist(err) {
				t.Errorf("the data directory exists after a configuration error (%v)", err)
			}
			for _, v := range tt.env {
				if len(v) > 4 && strings.Contains(tt.want, "TOKEN") && strings.Contains(err.Error(), v) {
					t.Errorf("the error shows the token: %v", err)
				}
			}
		})
	}
}

func TestEveryProblemIsReportedOnItsOwnLine(t *testing.T) {
	_, _, err := runInProcess(t, env("HOME", t.TempDir(), "SLACK_BOT_TOKEN", "hello", "MEMDB_ORACLE_HTTP_ADDR", ":99999",
		"MEMDB_ORACLE_RATE_USER_BURST", "-1", "MEMDB_ORACLE_RATE_CHANNEL_DAILY", "x"), "", "serve")
	if err == nil {
		t.Fatal("serve started")
	}
	lines := strings.Split(err.Error(), "\n")
	for _, want := range []string{"SLACK_BOT_TOKEN", "MEMDB_ORACLE_HTTP_ADDR", "MEMDB_ORACLE_RATE_USER_BURST", "MEMDB_ORACLE_RATE_CHANNEL_DAILY"} {
		n := 0
		for _, l := range lines {
			if strings.Contains(l, want) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d lines name %s, want 1:\n%v", n, want, err)
		}
	}
}

func TestAConfigFileSetsWhatTheEnvironmentDoesNot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "memdb-oracle.yaml")
	if err := os.WriteFile(file, []byte("http-addr: 127.0.0.1:9191\nMEMDB_ORACLE_DEADLINE: 7s\nrate-user-burst: 9\ndigest-slack-channels: [C1, C2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	get := resolvedSettingsFile(t, []string{"--config", file, "serve"}, map[string]string{"MEMDB_ORACLE_DEADLINE": "3s"}, file)
	for name, want := range map[string]string{
		"MEMDB_ORACLE_HTTP_ADDR":             "127.0.0.1:9191", // from the file
		"MEMDB_ORACLE_DEADLINE":              "3s",             // the environment wins
		"MEMDB_ORACLE_RATE_USER_BURST":       "9",
		"MEMDB_ORACLE_DIGEST_SLACK_CHANNELS": "C1,C2",
	} {
		if got := get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("http-adr: :9090\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "--config", bad, "serve")
	if err == nil || !strings.Contains(err.Error(), `"http-adr" is not a setting (did you mean "http-addr"?)`) || exitCode(err) != 2 {
		t.Errorf("a misspelt key in the file: %v (exit %d)", err, exitCode(err))
	}
}

func TestTheBareCommandPrintsUsage(t *testing.T) {
	stdout, _, err := runInProcess(t, env("HOME", t.TempDir()), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Usage: memdb-oracle <command>", "Answer one question.", "serve", "completion", "$MEMDB_ORACLE_DATA"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}

func TestVersionFlagPrintsTheVersionOnce(t *testing.T) {
	stdout, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "--version")
	if err != nil || !strings.HasPrefix(stdout, "memdb-oracle ") || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("--version printed %q, %v", stdout, err)
	}
}

func TestCompletionScriptsParseInTheirShells(t *testing.T) {
	for _, sh := range []struct{ shell, check, jsonFlag string }{{"bash", "bash", "--json"}, {"zsh", "zsh", "--json"}, {"fish", "fish", "-l json"}} {
		t.Run(sh.shell, func(t *testing.T) {
			stdout, _, err := runInProcess(t, env("HOME", t.TempDir()), "", "completion", sh.shell)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"ask", "serve", sh.jsonFlag, "completion"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("the %s script lacks %q", sh.shell, want)
				}
			}
			bin, err := exec.LookPath(sh.check)
			if err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is not installed (CI is set, so this fails): apt-get install %s", sh.check, sh.check)
				}
				t.Skipf("skipped the syntax check: %s is not installed (apt-get install %s)", sh.check, sh.check)
			}
			cmd := exec.Command(bin, "-n")
			cmd.Stdin = strings.NewReader(stdout)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh.check, err, out)
			}
		})
	}
	t.Run("bash completes a subcommand's flags", func(t *testing.T) {
		stdout, _, _ := runInProcess(t, env("HOME", t.TempDir()), "", "completion", "bash")
		script := stdout + "\nCOMP_WORDS=(memdb-oracle ask --js); COMP_CWORD=2; _memdb_oracle; echo \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command("bash", "-c", script)
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("bash: %v", err)
		}
		if strings.TrimSpace(string(out)) != "--json" {
			t.Errorf("completing \"ask --js\" gave %q", out)
		}
	})
}

// resolvedSettingsFile is resolvedSettings with a config file.
func resolvedSettingsFile(t *testing.T, args []string, env map[string]string, file string) func(string) string {
	t.Helper()
	values, err := readConfigFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return resolvedSettingsWith(t, args, env, values)
}

func TestABrokenOptionalModelMakesAskWarnOnceAndAnswerWithTheRules(t *testing.T) {
	stdout, stderr, err := runInProcess(t, env("HOME", t.TempDir(), "MEMDB_ORACLE_LLM", "anthropic"), "",
		"--data", t.TempDir(), "ask", "dragonfly at 8 cores")
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, stderr)
	}
	if n := strings.Count(stderr, "warning:"); n != 1 || !strings.Contains(stderr, "answering with the rules alone") {
		t.Errorf("stderr has %d warnings, want one saying the rules answer:\n%s", n, stderr)
	}
	if !strings.Contains(stdout, "Dragonfly") || !strings.Contains(stdout, "8 cores") {
		t.Errorf("no answer from the rules:\n%s", stdout)
	}
}

func TestServeRefusesToStartWithABrokenModel(t *testing.T) {
	_, _, err := runInProcess(t, env("HOME", t.TempDir(), "MEMDB_ORACLE_LLM", "anthropic", "MEMDB_ORACLE_HTTP_ADDR", "127.0.0.1:0"), "",
		"--data", t.TempDir(), "serve")
	if err == nil || !strings.Contains(err.Error(), "API key") || exitCode(err) != 2 {
		t.Fatalf("serve: %v (exit %d), want a configuration error naming the missing key", err, exitCode(err))
	}
}

func TestTheExampleConfigFileIsValid(t *testing.T) {
	file := filepath.Join(repoRoot, "examples", "memdb-oracle.yaml")
	values, err := readConfigFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(values) == 0 {
		t.Fatal("the example sets nothing")
	}
	get := resolvedSettingsWith(t, []string{"--config", file, "serve"}, map[string]string{"HOME": t.TempDir()}, values)
	if _, err := loadConfig(false, get); err != nil {
		t.Errorf("the example configuration is refused:\n%v", err)
	}
}

func TestOnlyTheInjectedEnvironmentIsRead(t *testing.T) {
	// kong reads env tags from the process environment; run must not, or a
	// developer's own SLACK_BOT_TOKEN would leak into every in-process test.
	t.Setenv("SLACK_BOT_TOKEN", "hello")
	t.Setenv("MEMDB_ORACLE_DEADLINE", "never")
	get := resolvedSettings(t, []string{"plan", "x"}, map[string]string{"MEMDB_ORACLE_HTTP_ADDR": ":9"})
	if got := get("SLACK_BOT_TOKEN"); got != "" {
		t.Errorf("SLACK_BOT_TOKEN = %q from the process environment", got)
	}
	if got := get("MEMDB_ORACLE_DEADLINE"); got != "20s" {
		t.Errorf("MEMDB_ORACLE_DEADLINE = %q, want the default 20s", got)
	}
	if got := get("MEMDB_ORACLE_HTTP_ADDR"); got != ":9" {
		t.Errorf("MEMDB_ORACLE_HTTP_ADDR = %q, want the injected :9", got)
	}
}

func TestTheSharedKeysArePassedOnByteForByte(t *testing.T) {
	// Every replica must sign with the same bytes, so the keys are not
	// trimmed like the other settings.
	get := resolvedSettings(t, []string{"serve"}, map[string]string{
		"MEMDB_ORACLE_SHARED_KEY": " new-key ", "MEMDB_ORACLE_SHARED_KEY_PREVIOUS": "old-key\t", "MEMDB_ORACLE_STATE_PREFIX": " p: ",
	})
	for name, want := range map[string]string{
		"MEMDB_ORACLE_SHARED_KEY": " new-key ", "MEMDB_ORACLE_SHARED_KEY_PREVIOUS": "old-key\t", "MEMDB_ORACLE_STATE_PREFIX": "p:",
	} {
		if got := get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
