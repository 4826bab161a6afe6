package main

// End-to-end tests: they drive run() in-process and the built binary over
// temporary data directories, with the embedded dataset imported on first
// use, exactly as a user would.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// env is a getenv over a map, so tests never read the real environment.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// runInProcess calls run() like main does and returns what it printed.
func runInProcess(t testing.TB, getenv func(string) string, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(t.Context(), args, getenv, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

// askJSON runs `ask --json` in-process on dir and decodes the object.
func askJSON(t testing.TB, dir string, args ...string) bot.AskJSON {
	t.Helper()
	stdout, stderr, err := runInProcess(t, env("HOME", t.TempDir()), "", append([]string{"--data", dir, "ask", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("ask %q: %v\nstderr: %s", args, err, stderr)
	}
	var a bot.AskJSON
	if err := json.Unmarshal([]byte(stdout), &a); err != nil {
		t.Fatalf("ask --json %q printed no JSON object: %v\n%s", args, err, stdout)
	}
	return a
}

// programName is what the tests run this test binary as: under that name
// (a link to it) TestMain runs main, so the end-to-end tests exercise the
// program without a second build of the module.
const programName = "memdb-oracle"

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == programName {
		main()
		os.Exit(0)
	}
	// Children that inherit the environment get it too; those given a
	// clean one get raceExitEnv.
	os.Setenv("GORACE", raceExitEnv[len("GORACE="):])
	os.Exit(m.Run())
}

// raceExitEnv has the program's processes exit as soon as they are done:
// this test binary is built with -race, which otherwise sleeps a second at
// exit (GORACE atexit_sleep_ms) for other goroutines' race reports — a
// second for each of the hundreds of processes these tests start. Races
// are still detected and reported (exit 66).
var raceExitEnv = "GORACE=atexit_sleep_ms=0 " + os.Getenv("GORACE")

// binaryPath links programName to this test binary, once per run.
var binaryPath = sync.OnceValues(func() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "memdb-oracle-e2e-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, programName)
	return path, os.Symlink(self, path)
})

// builtPath builds the command itself once per run, for the benchmarks
// that time it as users run it (no test harness, no race detector).
var builtPath = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "memdb-oracle-bench-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, programName)
	out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput()
	if err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return path, nil
})

// binary is the program for the end-to-end tests (see programName).
func binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the program as a process; skipped with -short")
	}
	path, err := binaryPath()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// command prepares the built binary with a clean environment.
func command(t testing.TB, dataDir string, extraEnv []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), binary(t), args...)
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "MEMDB_ORACLE_DATA=" + dataDir, raceExitEnv}, extraEnv...)
	return cmd
}

// runBinary runs the built binary to completion and returns its output and
// exit code.
func runBinary(t testing.TB, dataDir, stdin string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := command(t, dataDir, extraEnv, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// checkRowsAgainstStore fails unless every row is a measured cell whose
// medians and run IDs are exactly the store's.
func checkRowsAgainstStore(t testing.TB, st *analytics.Store, rows []bot.JSONRow) {
	t.Helper()
	cells := map[analytics.CellKey]analytics.Cell{}
	for _, c := range st.Cells() {
		cells[c.CellKey] = c
	}
	for _, r := range rows {
		k := analytics.CellKey{Session: r.Session, Engine: r.Engine, Mode: r.Mode, Cores: r.Cores, Ratio: r.Ratio, ValueBytes: r.ValueBytes, Pipeline: r.Pipeline}
		c, ok := cells[k]
		if !ok {
			t.Errorf("row %+v is not a measured cell", k)
			continue
		}
		if r.OpsPerSec != c.OpsPerSec || r.P99Ms != c.P99Ms || r.P50Ms != c.P50Ms || r.Reps != c.Reps ||
			strings.Join(r.RunIDs, ",") != strings.Join(c.RunIDs, ",") {
			t.Errorf("row %+v\n  says ops %v p50 %v p99 %v reps %d runs %v\n  store: ops %v p50 %v p99 %v reps %d runs %v",
				k, r.OpsPerSec, r.P50Ms, r.P99Ms, r.Reps, r.RunIDs, c.OpsPerSec, c.P50Ms, c.P99Ms, c.Reps, c.RunIDs)
		}
	}
}

func TestAskFollowUpsAcrossThreeProcesses(t *testing.T) {
	dir := t.TempDir()
	st := analyticstest.OpenStore(t)
	ask := func(q string) bot.AskJSON {
		t.Helper()
		stdout, stderr, code := runBinary(t, dir, "", nil, "ask", "--json", "--thread", "t1", q)
		if code != 0 {
			t.Fatalf("ask %q exited %d\nstderr: %s", q, code, stderr)
		}
		var a bot.AskJSON
		if err := json.Unmarshal([]byte(stdout), &a); err != nil {
			t.Fatalf("ask %q: not JSON: %v\n%s", q, err, stdout)
		}
		return a
	}
	onlyAt8Cores := func(a bot.AskJSON, engine string) {
		t.Helper()
		if a.Kind != bot.KindAnswer || len(a.Rows) == 0 {
			t.Fatalf("kind %q with %d rows, want an answer with rows:\n%s", a.Kind, len(a.Rows), a.Text)
		}
		for _, r := range a.Rows {
			if r.Engine != engine || r.Cores != 8 {
				t.Errorf("row %s %s at %d cores, want only %s at 8 cores:\n%s", r.Engine, r.Mode, r.Cores, engine, a.Text)
			}
		}
		checkRowsAgainstStore(t, st, a.Rows)
	}

	first := ask("Dragonfly at 8 cores")
	onlyAt8Cores(first, "dragonfly")

	second := ask("what about valkey?")
	onlyAt8Cores(second, "valkey")
	if !strings.Contains(second.Text, "Valkey") {
		t.Errorf("the follow-up does not name Valkey:\n%s", second.Text)
	}

	third := ask("and the p99?")
	onlyAt8Cores(third, "valkey")
	if !strings.Contains(third.Text, "p99") {
		t.Errorf("the p99 follow-up does not mention p99:\n%s", third.Text)
	}
	for _, r := range third.Rows {
		if r.P99Ms <= 0 {
			t.Errorf("row %s %s has no p99", r.Engine, r.Mode)
		}
	}

	// Another thread starts fresh: it does not inherit Valkey at 8 cores.
	fresh := askJSON(t, dir, "--thread", "t2", "and the p99?")
	inherited := len(fresh.Rows) > 0
	for _, r := range fresh.Rows {
		inherited = inherited && r.Engine == "valkey" && r.Cores == 8
	}
	if inherited {
		t.Errorf("thread t2 inherited thread t1's context:\n%s", fresh.Text)
	}
}

func TestAskPrintsEveryKindAndExitsZero(t *testing.T) {
	dir := t.TempDir()
	st := analyticstest.OpenStore(t)
	tests := []struct {
		name     string
		question string
		kind     bot.Kind
		contains []string
		check    func(t *testing.T, a bot.AskJSON)
	}{
		{
			name:     "the README question shows the vendor claim against realistic and fully driven Redis",
			question: "Is Dragonfly 25x faster than Redis?",
			kind:     bot.KindClaim,
			contains: []string{"15.5M", "4.6M", "3.4×", "40.6M", "run-s1-"},
			check: func(t *testing.T, a bot.AskJSON) {
				if len(a.Filters) == 0 || len(a.RunIDs) == 0 || len(a.Sources) == 0 {
					t.Errorf("the claim answer lacks filters, run IDs or sources: %+v", a)
				}
				checkRowsAgainstStore(t, st, a.Rows)
			},
		},
		{
			name:     "a never-measured combination is refused with the nearest measured rows",
			question: "Give me the Redis single-process result at 8 cores with pipeline 64.",
			kind:     bot.KindNoData,
			check: func(t *testing.T, a bot.AskJSON) {
				if len(a.Nearest) == 0 {
					t.Errorf("no nearest rows:\n%s", a.Text)
				}
				checkRowsAgainstStore(t, st, a.Nearest)
			},
		},
		{
			name:     "an out-of-scope question is declined without numbers",
			question: "Which is better for my Postgres workload, MySQL or Postgres?",
			kind:     bot.KindOutOfScope,
			check: func(t *testing.T, a bot.AskJSON) {
				if strings.ContainsAny(a.Text, "0123456789") || len(a.Rows) > 0 {
					t.Errorf("the refusal carries numbers:\n%s", a.Text)
				}
			},
		},
		{
			name:     "Garnet's peak is a floor",
			question: "What's Garnet's peak throughput?",
			kind:     bot.KindAnswer,
			contains: []string{"at least 21.4M", "client-limited"},
			check:    func(t *testing.T, a bot.AskJSON) { checkRowsAgainstStore(t, st, a.Rows) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := askJSON(t, dir, tt.question)
			if a.Kind != tt.kind {
				t.Errorf("kind %q, want %q:\n%s", a.Kind, tt.kind, a.Text)
			}
			for _, s := range tt.contains {
				if !strings.Contains(a.Text, s) {
					t.Errorf("the answer lacks %q:\n%s", s, a.Text)
				}
			}
			if tt.check != nil {
				tt.check(t, a)
			}
			// The plain form is the JSON text with aligned tables.
			stdout, _, err := runInProcess(t, env(), "", "--data", dir, "ask", tt.question)
			if err != nil {
				t.Fatalf("ask without --json: %v", err)
			}
			if strings.TrimSpace(stdout) == "" || !strings.Contains(stdout, strings.SplitN(a.Text, "\n", 2)[0]) {
				t.Errorf("plain ask does not print the answer's first line %q:\n%s", strings.SplitN(a.Text, "\n", 2)[0], stdout)
			}
		})
	}
}

func TestAskJSONHasExactlyTheContractFields(t *testing.T) {
	stdout, _, err := runInProcess(t, env(), "", "--data", t.TempDir(), "ask", "--json", "Dragonfly", "at", "8", "cores")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, stdout)
	}
	want := []string{"kind", "interpretation", "text", "filters", "rows", "nearest", "run_ids", "run_count", "sources", "reply"}
	for _, k := range want {
		if _, ok := obj[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	if len(obj) != len(want) {
		t.Errorf("%d fields, want exactly %v:\n%s", len(obj), want, stdout)
	}
	for _, k := range []string{"filters", "rows", "nearest", "run_ids", "sources"} {
		if string(obj[k]) == "null" {
			t.Errorf("%q is null, want an array", k)
		}
	}
	var text, reply string
	_ = json.Unmarshal(obj["text"], &text)
	_ = json.Unmarshal(obj["reply"], &reply)
	if reply == "" || !strings.HasPrefix(text, reply) || len(text) <= len(reply) {
		t.Errorf("text must be the reply, then the evidence:\nreply %q\ntext %q", reply, text)
	}
}

func TestAskUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no question", []string{"ask"}},
		{"a blank question", []string{"ask", "  "}},
		{"an unknown flag", []string{"ask", "--frobnicate", "q"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runInProcess(t, env(), "", append([]string{"--data", t.TempDir()}, tt.args...)...)
			if err == nil || exitCode(err) != 2 {
				t.Errorf("err %v (exit %d), want a usage error (exit 2)", err, exitCode(err))
			}
		})
	}
}

// TestAQuestionStartingWithAFlagIsToldHowToAskIt: a pasted memtier line
// is kong's flags to ask; the error says how to pass it, and that way
// works.
func TestAQuestionStartingWithAFlagIsToldHowToAskIt(t *testing.T) {
	data := t.TempDir()
	_, _, err := runInProcess(t, env(), "", "--data", data, "ask", "--pipeline=1", "redis", "at", "16", "cores")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), `memdb-oracle ask -- "--pipeline=1 redis at 16 cores"`) {
		t.Fatalf("err %v (exit %d), want a usage error saying how to ask it after --", err, exitCode(err))
	}
	out, _, err := runInProcess(t, env(), "", "--data", data, "ask", "--", "--pipeline=1 redis at 16 cores")
	if err != nil || !strings.Contains(out, "pipeline 1") {
		t.Errorf("asked after --: %v\n%s", err, out)
	}
}

func TestChatThroughAPipe(t *testing.T) {
	dir := t.TempDir()
	input := strings.Join([]string{
		"Dragonfly at 8 cores",
		"what about valkey?",
		"and the p99?",
		"/new",
		"What's Garnet's peak throughput?",
		"Is Dragonfly 25x faster than Redis?",
		"Which is better for my Postgres workload, MySQL or Postgres?",
		"what is pipelining?",
		"/quit",
		"never asked",
	}, "\n") + "\n"
	// A burst limit of one would refuse the second question if the
	// terminal were rate limited; it is not.
	stdout, stderr, code := runBinary(t, dir, input, []string{"MEMDB_ORACLE_RATE_USER_BURST=1", "MEMDB_ORACLE_RATE_CHANNEL_BURST=1"}, "chat")
	if code != 0 {
		t.Fatalf("chat exited %d\nstderr: %s\nstdout: %s", code, stderr, stdout)
	}
	turns := strings.Split(stdout, "\n> ")
	if !strings.HasPrefix(stdout, "> Dragonfly at 8 cores\n") || len(turns) != 9 {
		t.Fatalf("want 9 echoed turns ending at /quit, got %d:\n%s", len(turns), stdout)
	}
	want := []struct{ question, contains string }{
		{"Dragonfly at 8 cores", "Dragonfly"},
		{"what about valkey?", "Valkey"},
		{"and the p99?", "p99"},
		{"/new", "new thread"},
		{"What's Garnet's peak throughput?", "at least 21.4M"},
		{"Is Dragonfly 25x faster than Redis?", "3.4×"},
		{"Which is better for my Postgres workload, MySQL or Postgres?", ""},
		{"what is pipelining?", "term:pipelining"},
		{"/quit", ""},
	}
	for i, w := range want {
		turn := strings.TrimPrefix(turns[i], "> ")
		if !strings.HasPrefix(turn, w.question+"\n") && turn != w.question+"\n" {
			t.Errorf("turn %d starts %q, want the question %q", i, firstLine(turn), w.question)
		}
		if !strings.Contains(turn, w.contains) {
			t.Errorf("turn %d (%q) lacks %q:\n%s", i, w.question, w.contains, turn)
		}
		if strings.Contains(turn, "quick succession") || strings.Contains(turn, "today's limit") {
			t.Errorf("turn %d was rate limited:\n%s", i, turn)
		}
	}
	// Valkey's 8-core table in the chat is aligned: every table line of a
	// block has the same width.
	checkAlignedTables(t, turns[1])
	if strings.Contains(stdout, "never asked") {
		t.Errorf("chat read past /quit")
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func checkAlignedTables(t testing.TB, text string) {
	t.Helper()
	width := -1
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "|") {
			width = -1
			continue
		}
		n := len([]rune(l))
		if width >= 0 && n != width {
			t.Errorf("table line %q is %d wide, the line above %d", l, n, width)
		}
		width = n
	}
}

func TestServeAnswersOverHTTPAndStopsOnInterrupt(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	logs := newLogWatch()
	exited := make(chan struct{})
	var served error
	go func() {
		defer close(exited)
		served = run(ctx, []string{"--data", dir, "serve", "--http-addr", "127.0.0.1:0"},
			env("MEMDB_ORACLE_HTTP_RATE_BURST", "4", "MEMDB_ORACLE_HTTP_RATE_PER_MINUTE", "0.01"),
			strings.NewReader(""), io.Discard, logs)
	}()
	addr, ok := logs.addr(exited)
	if !ok {
		cancel()
		t.Fatalf("serve stopped before listening: %v\n%s", served, logs.String())
	}
	base := "http://" + addr

	askHTTP := func(body string) (int, bot.AskJSON) {
		t.Helper()
		resp, err := http.Post(base+"/api/ask", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a bot.AskJSON
		if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
			t.Fatalf("POST /api/ask %s: not JSON: %v", body, err)
		}
		return resp.StatusCode, a
	}
	if code, a := askHTTP(`{"question": "Dragonfly at 8 cores", "thread": "h1"}`); code != 200 || a.Kind != bot.KindAnswer {
		t.Fatalf("first question: %d %q\n%s", code, a.Kind, a.Text)
	}
	code, a := askHTTP(`{"question": "what about valkey?", "thread": "h1"}`)
	if code != 200 || len(a.Rows) == 0 || a.Rows[0].Engine != "valkey" || a.Rows[0].Cores != 8 {
		t.Errorf("follow-up over HTTP: %d %q rows %+v", code, a.Kind, a.Rows)
	}
	if code, a := askHTTP(`{"question": "Which is better for my Postgres workload, MySQL or Postgres?"}`); code != 200 || a.Kind != bot.KindOutOfScope {
		t.Errorf("refusal over HTTP: %d %q", code, a.Kind)
	}
	resp, err := http.Post(base+"/api/ask", "application/json", strings.NewReader(`{"question": 1`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("bad JSON: %d, want 400", resp.StatusCode)
	}
	limited, err := http.Post(base+"/api/ask", "application/json", strings.NewReader(`{"question": "Dragonfly at 8 cores"}`))
	if err != nil {
		t.Fatal(err)
	}
	limited.Body.Close()
	if limited.StatusCode != http.StatusTooManyRequests || limited.Header.Get("Retry-After") == "" {
		t.Errorf("fifth request with a burst of 4: %d, Retry-After %q; want 429 with Retry-After", limited.StatusCode, limited.Header.Get("Retry-After"))
	}

	metrics := get(t, base+"/metrics")
	for _, want := range []string{
		`memdb_oracle_questions_total{kind="answer",platform="http"} 2`,
		`memdb_oracle_refusals_total{kind="out_of_scope",platform="http"} 1`,
		`memdb_oracle_rate_limited_total{platform="http"} 1`,
		`memdb_oracle_answer_duration_seconds_count{platform="http"} 3`,
		`memdb_oracle_http_requests_total{code="400",route="/api/ask"} 1`,
		`memdb_oracle_http_requests_total{code="429",route="/api/ask"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if h := get(t, base+"/healthz"); !strings.Contains(h, `"ok"`) {
		t.Errorf("healthz: %s", h)
	}

	cancel() // what SIGINT/SIGTERM do through main's signal context
	<-exited
	if served != nil {
		t.Errorf("serve returned %v after an interrupt, want nil", served)
	}
	if !logs.has(`"msg":"http stopped"`) {
		t.Errorf("no graceful stop in the logs:\n%s", logs.String())
	}
}

func TestServeBinaryExitsZeroOnSIGTERM(t *testing.T) {
	cmd := command(t, t.TempDir(), nil, "serve", "--http-addr", "127.0.0.1:0")
	logs := newLogWatch()
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waited error
	go func() {
		defer close(exited)
		waited = cmd.Wait()
	}()
	addr, ok := logs.addr(exited)
	if !ok {
		t.Fatalf("serve stopped before listening: %v\n%s", waited, logs.String())
	}
	if h := get(t, "http://"+addr+"/healthz"); !strings.Contains(h, "ok") {
		t.Errorf("healthz: %s", h)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-exited
	if waited != nil {
		t.Errorf("serve after SIGTERM: %v, want exit 0\n%s", waited, logs.String())
	}
}

func get(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// logWatch collects serve's JSON log lines and hands over the listening
// address as soon as it is logged.
type logWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	addrCh  chan string
	waits   map[string]chan struct{} // see seen
}

func newLogWatch() *logWatch { return &logWatch{addrCh: make(chan string, 1)} }

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		var rec struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal(w.partial[:i], &rec) == nil && rec.Msg == "http listening" {
			select {
			case w.addrCh <- rec.Addr:
			default:
			}
		}
		for s, ch := range w.waits {
			if bytes.Contains(w.partial[:i], []byte(s)) {
				close(ch)
				delete(w.waits, s)
			}
		}
		w.partial = w.partial[i+1:]
	}
	return len(p), nil
}

// addr waits for the "http listening" line; false when serve exited first.
func (w *logWatch) addr(exited <-chan struct{}) (string, bool) {
	select {
	case a := <-w.addrCh:
		return a, true
	case <-exited:
		return "", false
	}
}

// seen returns a channel closed once a log line holding s is written
// (after this call).
func (w *logWatch) seen(s string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waits == nil {
		w.waits = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	w.waits[s] = ch
	return ch
}

func (w *logWatch) has(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Contains(w.buf.String(), s)
}

func (w *logWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// BenchmarkAskProcess measures process start to first answer for the built
// binary: on a fresh data directory (which imports the embedded dataset
// first) and on a warm one, next to `--help`, the yardstick the targets are
// ratios of: warm ≤ 4× --help, fresh ≤ 1.5× warm.
func BenchmarkAskProcess(b *testing.B) {
	bin, err := builtPath()
	if err != nil {
		b.Fatal(err)
	}
	ask := func(b *testing.B, dir string) {
		cmd := exec.Command(bin, "--data", dir, "ask", "Is Dragonfly 25x faster than Redis?")
		cmd.Env = []string{"HOME=" + dir}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("ask: %v\n%s", err, out)
		}
	}
	// The yardstick: a process that parses its flags and exits.
	b.Run("help", func(b *testing.B) {
		for b.Loop() {
			if out, err := exec.Command(bin, "--help").CombinedOutput(); err != nil {
				b.Fatalf("--help: %v\n%s", err, out)
			}
		}
	})
	b.Run("fresh data dir", func(b *testing.B) {
		root := b.TempDir()
		n := 0
		for b.Loop() {
			n++
			ask(b, filepath.Join(root, strconv.Itoa(n)))
		}
	})
	b.Run("warm data dir", func(b *testing.B) {
		dir := b.TempDir()
		ask(b, dir)
		for b.Loop() {
			ask(b, dir)
		}
	})
}

func TestAskChart(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		question string
		wantPNG  bool
		stderr   string
	}{
		{"a scaling answer writes its chart as PNG", "How does Dragonfly throughput scale with cores?", true, "chart written to"},
		{"a refusal has no chart and writes nothing", "Which is better for my Postgres workload, MySQL or Postgres?", false, "has no chart"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "chart.png")
			_, stderr, err := runInProcess(t, env(), "", "--data", dir, "ask", "--chart", path, tt.question)
			if err != nil {
				t.Fatalf("ask --chart: %v\n%s", err, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tt.stderr)
			}
			b, err := os.ReadFile(path)
			switch {
			case tt.wantPNG && (err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n"))):
				t.Errorf("no PNG written (%v, %d bytes)", err, len(b))
			case !tt.wantPNG && err == nil:
				t.Errorf("a file was written for an answer without a chart")
			}
		})
	}
}
