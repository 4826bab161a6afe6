package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
)

// replicasSharedKey signs the import feed of the replicas under test.
const replicasSharedKey = "replicas-shared-key-0123456789abcdef"

// replica is one `memdb-oracle serve` process of the built binary.
type replica struct {
	name string
	cmd  *exec.Cmd
	logs *logWatch
	base string
	done chan struct{}
}

func startReplica(t *testing.T, name string, env []string) *replica {
	t.Helper()
	r := &replica{name: name, logs: newLogWatch(), done: make(chan struct{})}
	r.cmd = exec.Command(binary(t), "serve")
	r.cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "MEMDB_ORACLE_DATA=" + t.TempDir(),
		"MEMDB_ORACLE_HTTP_ADDR=127.0.0.1:0", "MEMDB_ORACLE_REPLICA_NAME=" + name, raceExitEnv}, env...)
	r.cmd.Stderr = r.logs
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = r.cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		_ = r.cmd.Process.Signal(os.Interrupt)
		select {
		case <-r.done:
		case <-time.After(15 * time.Second):
			_ = r.cmd.Process.Kill()
			<-r.done
		}
		if t.Failed() {
			t.Logf("replica %s's log:\n%s", name, r.logs.String())
		}
	})
	addr, ok := r.logs.addr(r.done)
	if !ok {
		t.Fatalf("replica %s stopped before listening:\n%s", name, r.logs.String())
	}
	r.base = "http://" + addr
	return r
}

// kill ends the replica as a crash would: no shutdown, no lease released.
func (r *replica) kill() {
	_ = r.cmd.Process.Kill()
	<-r.done
}

// recorder drains a fake's channel into a list tests can wait on.
type recorder[T any] struct {
	mu    sync.Mutex
	items []T
}

func record[T any](t *testing.T, ch <-chan T) *recorder[T] {
	r := &recorder[T]{}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case v := <-ch:
				r.mu.Lock()
				r.items = append(r.items, v)
				r.mu.Unlock()
			}
		}
	}()
	return r
}

func (r *recorder[T]) count(match func(T) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, v := range r.items {
		if match(v) {
			n++
		}
	}
	return n
}

// await waits until at least n items match and returns the last match.
func (r *recorder[T]) await(t *testing.T, what string, n int, match func(T) bool) T {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r.mu.Lock()
		var last T
		got := 0
		for _, v := range r.items {
			if match(v) {
				got, last = got+1, v
			}
		}
		r.mu.Unlock()
		if got >= n {
			return last
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s (%d of %d)", what, got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func postSigned(t *testing.T, url, secret, contentType, body string) int {
	t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, body)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	return postRequest(t, req)
}

func postRequest(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func slackEvent(id, channel, user, ts, threadTS, text string) string {
	thread := ""
	if threadTS != "" {
		thread = `,"thread_ts":"` + threadTS + `"`
	}
	typ := "app_mention"
	if !strings.Contains(text, "<@UBOT>") {
		typ = "message"
	}
	return `{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"` + id + `","event_time":1700000000,` +
		`"event":{"type":"` + typ + `","user":"` + user + `","text":"` + text + `","ts":"` + ts + `","channel":"` + channel +
		`","channel_type":"channel","event_ts":"` + ts + `"` + thread + `}}`
}

// TestTwoReplicasShareOneRedis runs two real serve processes on one
// redis-server with a fake Slack (Events API) and a fake Discord.
func TestTwoReplicasShareOneRedis(t *testing.T) {
	binary(t) // builds, or skips under -short, here: the replicas start on other goroutines
	srv := redistest.Start(t)
	// A digest slot both replicas will find missed at start: the yearly
	// schedule "ran" two years ago, so both catch up this New Year's slot
	// at once — and, unlike an hourly one, no slot falls due while the test
	// runs (an hourly schedule posted a second digest when the test crossed
	// the top of an hour).
	seed, err := redisadapter.Open(t.Context(), redisadapter.Options{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := seed.KV("digest").Set(t.Context(), "since", []byte(time.Now().AddDate(-2, 0, 0).UTC().Format(time.RFC3339)), 0); err != nil {
		t.Fatal(err)
	}
	seed.Close()

	slack := newLoopbackSlack(t)
	discord := newLoopbackDiscord(t)
	calls := record(t, slack.calls)
	requests := record(t, discord.requests)
	identified := record(t, discord.identified)
	const secret = "replica-signing-secret"
	env := []string{
		"MEMDB_ORACLE_STATE_URL=" + srv.URL(), "MEMDB_ORACLE_SHARED_KEY=" + replicasSharedKey,
		"MEMDB_ORACLE_LEASE_TTL=2s", "MEMDB_ORACLE_LEASE_RENEW=300ms",
		"MEMDB_ORACLE_HTTP_RATE_BURST=2", "MEMDB_ORACLE_HTTP_RATE_PER_MINUTE=0.01",
		"MEMDB_ORACLE_ADMIN_TOKEN=admin-token",
		"SLACK_BOT_TOKEN=xoxb-replicas", "SLACK_SIGNING_SECRET=" + secret, "SLACK_API_URL=" + slack.srv.URL + "/api",
		"DISCORD_BOT_TOKEN=replicas.discord.token", "DISCORD_APP_ID=800", "DISCORD_GUILD_ID=700", "DISCORD_API_BASE=" + discord.srv.URL,
		"MEMDB_ORACLE_DIGEST_CRON=0 0 1 1 *", "MEMDB_ORACLE_DIGEST_SLACK_CHANNELS=CDIG",
	}
	var a, b *replica
	var wg sync.WaitGroup
	wg.Go(func() { a = startReplica(t, "A", env) })
	wg.Go(func() { b = startReplica(t, "B", env) })
	wg.Wait()
	if a == nil || b == nil {
		t.FailNow()
	}
	replicas := map[string]*replica{"A": a, "B": b}
	posts := func(match func(slackCall) bool) func(slackCall) bool {
		return func(c slackCall) bool { return c.Method == "chat.postMessage" && match(c) }
	}

	// Slack: the same event to both replicas is answered once.
	ask := slackEvent("EvSame", "C1", "U1", "1700000010.000100", "", "<@UBOT> What is Dragonfly's throughput at 48 cores?")
	for _, r := range []*replica{a, b} {
		if code := postSigned(t, r.base+"/slack/events", secret, "application/json", ask); code != 200 {
			t.Fatalf("replica %s: event got %d", r.name, code)
		}
	}
	inThread := posts(func(c slackCall) bool { return c.Form.Get("thread_ts") == "1700000010.000100" })
	textOf := func(c slackCall) string { return c.Form.Get("text") + c.Form.Get("blocks") }
	calls.await(t, "the answer's card", 1, func(c slackCall) bool { return inThread(c) && strings.Contains(textOf(c), "Show evidence") })
	oneAnswer := calls.count(inThread)

	// A follow-up sent to B in a thread started on A keeps A's memory.
	postSigned(t, a.base+"/slack/events", secret, "application/json",
		slackEvent("EvRoot", "C4", "U1", "1700000040.000100", "", "<@UBOT> What is Dragonfly's throughput at 48 cores?"))
	calls.await(t, "the answer on A", 1, posts(func(c slackCall) bool { return c.Form.Get("thread_ts") == "1700000040.000100" }))
	postSigned(t, b.base+"/slack/events", secret, "application/json",
		slackEvent("EvFollow", "C4", "U1", "1700000050.000100", "1700000040.000100", "and Valkey?"))
	calls.await(t, "B's answer to the follow-up, about Valkey at A's 48 cores", 1, posts(func(c slackCall) bool {
		return c.Form.Get("thread_ts") == "1700000040.000100" && strings.Contains(textOf(c), "Valkey") && strings.Contains(textOf(c), "48 cores")
	}))

	// The same slash command to both replicas is answered once.
	form := url.Values{"command": {"/oracle"}, "text": {"Dragonfly at 8 cores"}, "channel_id": {"C2"}, "user_id": {"U2"},
		"team_id": {"T1"}, "trigger_id": {"TR1"}, "response_url": {slack.srv.URL + "/respond"}}.Encode()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	for _, r := range []*replica{a, b} {
		mac := hmac.New(sha256.New, []byte(secret))
		fmt.Fprintf(mac, "v0:%s:%s", ts, form)
		req, _ := http.NewRequest(http.MethodPost, r.base+"/slack/commands", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Slack-Request-Timestamp", ts)
		req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
		postRequest(t, req)
	}
	topInC2 := posts(func(c slackCall) bool { return c.Form.Get("channel") == "C2" && c.Form.Get("thread_ts") == "" })
	calls.await(t, "the slash command's answer", 1, topInC2)

	// The digest slot both replicas caught up at start posted once.
	digestTop := posts(func(c slackCall) bool { return c.Form.Get("channel") == "CDIG" && c.Form.Get("thread_ts") == "" })
	calls.await(t, "the digest", 1, digestTop)

	// Rate limits are shared: a burst of 2 spent on A leaves nothing on B.
	askHTTP := func(r *replica) int {
		req, _ := http.NewRequest(http.MethodPost, r.base+"/api/ask", strings.NewReader(`{"question":"Dragonfly at 8 cores"}`))
		return postRequest(t, req)
	}
	if c1, c2, c3 := askHTTP(a), askHTTP(a), askHTTP(b); c1 != 200 || c2 != 200 || c3 != http.StatusTooManyRequests {
		t.Errorf("HTTP asks got %d %d %d, want 200 200 429 (one burst across replicas)", c1, c2, c3)
	}

	// An import through A reaches B.
	csv := filepath.Join(t.TempDir(), "extra.csv")
	header, row := "run_id,note,engine,mode,shards,server_threads,shard_io_threads,cores_used,server_cpus,client_cpus,client_threads,client_conns,pipeline,ratio,data_bytes,key_max,test_time,populate,rep,ops_per_sec,ops_per_core,p50_ms,p99_ms,p999_ms,hit_rate,hits_per_sec,misses_per_sec,conn_errors,kb_per_sec",
		"20261201-000001,scale-4c,keydb,single,4,4,1,4,0-3,0-95,48,20,1,1:10,100,1000000,20,1,9,126094.44,31523.61,1.447,43.519,83.455,1.0,114610.28,0.0,0,17528.18"
	if err := os.WriteFile(csv, []byte(header+"\n"+row+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	imported := time.Now()
	out, errOut, code := runBinary(t, t.TempDir(), "", []string{"MEMDB_ORACLE_ADMIN_TOKEN=admin-token"}, "import", "--session", "2", "--remote", a.base, csv)
	if code != 0 || !strings.Contains(out, "1 added") || !strings.Contains(out, "reaches every replica") {
		t.Fatalf("import --remote: %d\n%s%s", code, out, errOut)
	}
	if !awaitLog(b.logs, "applied an import from another replica") || time.Since(imported) > 10*time.Second {
		t.Errorf("the import did not reach B within 10 s (%v)", time.Since(imported))
	}

	// A run written straight into Redis, unsigned, is refused by both
	// replicas, counted, and never answered from.
	planted := header + "\n" + strings.Replace(strings.Replace(row, "126094.44", "999000000.00", 1), "20261201-000001", "20261201-000666", 1) + "\n"
	plantedID := importID("planted.csv", 2, []byte(planted))
	raw, _ := json.Marshal(redisadapter.ImportRecord{ID: plantedID, Name: "planted.csv", Session: 2, CSV: []byte(planted)})
	plant, err := redisadapter.Open(t.Context(), redisadapter.Options{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := plant.KV("import").Set(t.Context(), plantedID, raw, 0); err != nil {
		t.Fatal(err)
	}
	plant.Close()
	for _, r := range []*replica{a, b} {
		if !awaitLog(r.logs, "refused an import record from the shared state store") {
			t.Errorf("replica %s did not refuse the planted run", r.name)
		}
		if m := get(t, r.base+"/metrics"); !strings.Contains(m, "memdb_oracle_shared_imports_refused_total 1") {
			t.Errorf("replica %s does not count the planted run", r.name)
		}
	}
	postSigned(t, b.base+"/slack/events", secret, "application/json",
		slackEvent("EvTop", "C5", "U5", "1700000060.000100", "", "<@UBOT> What is KeyDB throughput at 4 cores without pipelining in session 2?"))
	top := calls.await(t, "the answer about the highest throughput", 1, posts(func(c slackCall) bool { return c.Form.Get("thread_ts") == "1700000060.000100" }))
	if text := textOf(top); strings.Contains(text, "999") || strings.Contains(text, "20261201-000666") {
		t.Errorf("answered from the planted run: %s", text)
	}

	// Discord: one replica holds the gateway; killing it hands over.
	identified.await(t, "the first gateway session", 1, func(map[string]any) bool { return true })
	// Waiting on whichever replica says it holds the lease, not up to
	// ten seconds on A when B holds it.
	const leased = `"msg":"lease acquired; running"`
	awaitLogs(leased, a.logs, b.logs)
	holder, other := a, b
	if !a.logs.has(leased) || b.logs.has(leased) {
		holder, other = b, a
	}
	if other.logs.has(leased) {
		t.Fatal("both replicas hold the Discord lease")
	}
	killed := time.Now()
	holder.kill()
	delete(replicas, holder.name)
	identified.await(t, "the gateway on the other replica", 2, func(map[string]any) bool { return true })
	if took := time.Since(killed); took > 15*time.Second {
		t.Errorf("the gateway moved after %v, want within 15 s", took)
	}
	mention, _ := json.Marshal(map[string]any{"op": 0, "t": "MESSAGE_CREATE", "d": map[string]any{
		"id": "3001", "channel_id": "100", "guild_id": "700", "type": 0,
		"content": "<@" + discord.selfID + "> Dragonfly at 8 cores", "author": map[string]any{"id": "42", "username": "asker"},
		"mentions":  []any{map[string]any{"id": discord.selfID, "username": "oracle", "bot": true}},
		"timestamp": "2026-05-01T09:00:00.000000+00:00",
	}})
	discord.dispatches <- mention
	// One answer is its reply message (the evidence follows, titled "Details").
	answered := func(r discordRequest) bool {
		if r.Method != "POST" || r.Path != "/channels/3001/messages" {
			return false
		}
		embeds, _ := r.JSON["embeds"].([]any)
		if len(embeds) == 0 {
			return true
		}
		first, _ := embeds[0].(map[string]any)
		return first["title"] != "Details"
	}
	requests.await(t, "the Discord answer", 1, answered)

	// Losing Redis degrades the survivor to local state and it recovers.
	srv.Stop()
	postSigned(t, other.base+"/slack/events", secret, "application/json",
		slackEvent("EvDown", "C3", "U3", "1700000030.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	calls.await(t, "an answer while Redis is down", 1, posts(func(c slackCall) bool { return c.Form.Get("channel") == "C3" }))
	if h := get(t, other.base+"/healthz"); !strings.Contains(h, `"shared_state":"unavailable"`) || !strings.Contains(h, `"degraded"`) {
		t.Errorf("healthz while Redis is down: %s", h)
	}
	if m := get(t, other.base+"/metrics"); !strings.Contains(m, "memdb_oracle_shared_state_up 0") {
		t.Errorf("metrics do not show the outage")
	}
	if r := get(t, other.base+"/readyz"); !strings.Contains(r, `"status":"not ready"`) || !strings.Contains(r, `"shared_state":"unavailable"`) {
		t.Errorf("readyz while Redis is down: %s", r)
	}
	srv.Restart()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(get(t, other.base+"/healthz"), `"shared_state":"ok"`) {
		if time.Now().After(deadline) {
			t.Fatal("the replica did not recover its shared state")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if r := get(t, other.base+"/readyz"); !strings.Contains(r, `"status":"ready"`) {
		t.Errorf("readyz after Redis is back: %s", r)
	}
	if n := strings.Count(other.logs.String(), "shared state store not usable"); n != 1 {
		t.Errorf("the outage was logged %d times, want once", n)
	}

	// Exactly one answer per question, whatever reached both replicas.
	time.Sleep(500 * time.Millisecond) // let a duplicate that would follow arrive
	if n := calls.count(inThread); n != oneAnswer {
		t.Errorf("the mention sent to both replicas got %d posts, one answer is %d", n, oneAnswer)
	}
	for what, match := range map[string]func(slackCall) bool{"slash command": topInC2, "digest": digestTop} {
		if n := calls.count(match); n != 1 {
			t.Errorf("%s: %d top-level posts, want 1", what, n)
		}
	}
	if n := requests.count(answered); n != 1 {
		t.Errorf("the Discord mention was answered %d times", n)
	}
	for _, r := range replicas {
		select {
		case <-r.done:
			t.Errorf("replica %s crashed:\n%s", r.name, r.logs.String())
		default:
		}
	}
}
