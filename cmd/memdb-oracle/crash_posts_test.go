package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
)

// holdingPlatform stands in front of a loopback platform: it refuses what
// a platform refuses, and holds the first request a test names open until
// the process that sent it dies — the moment between two posts of an
// answer at which the test kills serve. A held request never reaches the
// platform (it is not posted).
type holdingPlatform struct {
	srv     *httptest.Server
	next    http.Handler
	refuse  func(r *http.Request, body []byte) (status int, reply string, refused bool)
	holdIf  func(r *http.Request) bool
	held    chan string // the path of each held request
	mu      sync.Mutex
	holding bool
}

func newHoldingPlatform(t *testing.T, next http.Handler, holdIf func(*http.Request) bool) *holdingPlatform {
	t.Helper()
	h := &holdingPlatform{next: next, holdIf: holdIf, held: make(chan string, 4), holding: true}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *holdingPlatform) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if h.refuse != nil {
		if status, reply, refused := h.refuse(r, body); refused {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, reply)
			return
		}
	}
	h.mu.Lock()
	hold := h.holding && h.holdIf(r)
	if hold {
		h.holding = false // the first only: after the restart it goes through
	}
	h.mu.Unlock()
	if hold {
		h.held <- r.URL.Path
		<-r.Context().Done() // the sender died
		return
	}
	h.next.ServeHTTP(w, r)
}

// refuseChartBlocks answers chat.postMessage carrying Slack's chart block
// as a workspace without it does, so an answer's chart follows its card
// as an upload: a second post.
func refuseChartBlocks(r *http.Request, body []byte) (int, string, bool) {
	if !strings.HasSuffix(r.URL.Path, "/chat.postMessage") {
		return 0, "", false
	}
	form, _ := url.ParseQuery(string(body))
	if strings.Contains(form.Get("blocks"), `"data_visualization"`) {
		return http.StatusOK, `{"ok":false,"error":"invalid_blocks"}`, true
	}
	return 0, "", false
}

// crashPlatforms are a fake Slack and a fake Discord, each holding the
// second post of its first answer.
type crashPlatforms struct {
	slack, discord *holdingPlatform
	gateway        *loopbackDiscord
	calls          *recorder[slackCall]
	requests       *recorder[discordRequest]
	identified     *recorder[map[string]any]
	mentionID      string
}

const crashSecret = "crash-signing-secret"

func newCrashPlatforms(t *testing.T) *crashPlatforms {
	t.Helper()
	ls, ld := newLoopbackSlack(t), newLoopbackDiscord(t)
	p := &crashPlatforms{gateway: ld, mentionID: "3001",
		calls: record(t, ls.calls), requests: record(t, ld.requests), identified: record(t, ld.identified)}
	p.slack = newHoldingPlatform(t, ls.srv.Config.Handler, func(r *http.Request) bool {
		return strings.HasSuffix(r.URL.Path, "/files.getUploadURLExternal")
	})
	p.slack.refuse = refuseChartBlocks
	p.discord = newHoldingPlatform(t, ld.srv.Config.Handler, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/channels/"+p.mentionID+"/messages")
	})
	return p
}

func (p *crashPlatforms) env() []string {
	return []string{
		"SLACK_BOT_TOKEN=xoxb-crash", "SLACK_SIGNING_SECRET=" + crashSecret, "SLACK_API_URL=" + p.slack.srv.URL + "/api",
		"DISCORD_BOT_TOKEN=crash.discord.token", "DISCORD_APP_ID=800", "DISCORD_GUILD_ID=700", "DISCORD_API_BASE=" + p.discord.srv.URL,
		"MEMDB_ORACLE_LEASE_TTL=2s", "MEMDB_ORACLE_LEASE_RENEW=300ms",
	}
}

const (
	crashEventTS  = "1700000070.000100"
	crashQuestion = "How does Dragonfly scale with cores?"
)

func (p *crashPlatforms) slackMention() string {
	return slackEvent("EvCrash", "C7", "U7", crashEventTS, "", "<@UBOT> "+crashQuestion)
}

// ask sends the Slack mention to r and the Discord mention over the
// gateway r holds, and waits until each answer's second post is held.
func (p *crashPlatforms) ask(t *testing.T, r *replica) {
	t.Helper()
	if code := postSigned(t, r.base+"/slack/events", crashSecret, "application/json", p.slackMention()); code != 200 {
		t.Fatalf("the Slack event got %d", code)
	}
	mention, _ := json.Marshal(map[string]any{"op": 0, "t": "MESSAGE_CREATE", "d": map[string]any{
		"id": p.mentionID, "channel_id": "100", "guild_id": "700", "type": 0,
		"content": "<@" + p.gateway.selfID + "> " + crashQuestion, "author": map[string]any{"id": "42", "username": "asker"},
		"mentions":  []any{map[string]any{"id": p.gateway.selfID, "username": "oracle", "bot": true}},
		"timestamp": "2026-05-01T09:00:00.000000+00:00",
	}})
	p.gateway.dispatches <- mention
	for _, h := range []*holdingPlatform{p.slack, p.discord} {
		select {
		case <-h.held:
		case <-time.After(guard):
			t.Fatalf("the second post of an answer never came:\n%s", r.logs.String())
		}
	}
}

// Each post of both answers reached its platform exactly once, in order.
func (p *crashPlatforms) check(t *testing.T) {
	t.Helper()
	card := func(c slackCall) bool {
		return c.Method == "chat.postMessage" && c.Form.Get("thread_ts") == crashEventTS && strings.Contains(c.Form.Get("blocks"), "Show evidence")
	}
	chart := func(c slackCall) bool {
		return c.Method == "files.completeUploadExternal" && c.Form.Get("thread_ts") == crashEventTS
	}
	p.calls.await(t, "the chart completed into the Slack answer's thread", 1, chart)
	thread := func(r discordRequest) bool {
		return r.Method == "POST" && strings.HasSuffix(r.Path, "/messages/"+p.mentionID+"/threads")
	}
	answer := func(r discordRequest) bool {
		return r.Method == "POST" && r.Path == "/channels/"+p.mentionID+"/messages"
	}
	p.requests.await(t, "the Discord card completed in its thread", 1, answer)
	time.Sleep(500 * time.Millisecond) // a second completion, were there one, would arrive
	if c, u := p.calls.count(card), p.calls.count(chart); c != 1 || u != 1 {
		t.Errorf("Slack saw the card %d times and the chart %d times; want each once", c, u)
	}
	if order := p.calls.order(card, chart); order != "12" {
		t.Errorf("Slack saw the posts in the order %q, want the card, then the chart", order)
	}
	if th, c := p.requests.count(thread), p.requests.count(answer); th != 1 || c != 1 {
		t.Errorf("Discord saw %d thread starts and %d cards; want one of each", th, c)
	}
	if order := p.requests.order(thread, answer); order != "12" {
		t.Errorf("Discord saw the steps in the order %q, want the thread, then the card", order)
	}
	if p.requests.count(func(r discordRequest) bool { return answer(r) && r.Files == 1 }) != 1 {
		t.Error("the Discord card completed after the crash lost its chart")
	}
}

// retry sends Slack's retry of the event to r, and then a sentinel
// question in the same channel (answered after anything the retry
// queued), and checks the retry added no post.
func (p *crashPlatforms) retry(t *testing.T, r *replica) {
	t.Helper()
	before := p.calls.count(func(c slackCall) bool { return c.Method == "chat.postMessage" && c.Form.Get("channel") == "C7" })
	req, _ := http.NewRequest(http.MethodPost, r.base+"/slack/events", strings.NewReader(p.slackMention()))
	req.Header.Set("X-Slack-Retry-Num", "1")
	req.Header.Set("X-Slack-Retry-Reason", "http_timeout")
	signSlack(req, crashSecret, p.slackMention())
	if code := postRequest(t, req); code != 200 {
		t.Fatalf("the retry got %d", code)
	}
	postSigned(t, r.base+"/slack/events", crashSecret, "application/json",
		slackEvent("EvSentinel", "C7", "U7", "1700000080.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	p.calls.await(t, "the sentinel's answer", 1, func(c slackCall) bool { return c.Form.Get("thread_ts") == "1700000080.000100" })
	after := p.calls.count(func(c slackCall) bool { return c.Method == "chat.postMessage" && c.Form.Get("channel") == "C7" })
	if after != before+1 {
		t.Errorf("the retry of the answered event posted %d more messages", after-before-1)
	}
}

// TestAnAnswerKilledBetweenTwoPostsIsCompletedOnceAfterARestart kills a
// real serve process (SIGKILL) between the first and the second post of
// a Slack answer (its card, then its chart) and of a Discord answer (its
// thread, then its card), restarts it on the same data directory, and
// checks that each platform saw every post exactly once, in order, and
// that Slack's retry of the event is recognised as the answered job.
func TestAnAnswerKilledBetweenTwoPostsIsCompletedOnceAfterARestart(t *testing.T) {
	binary(t)
	p := newCrashPlatforms(t)
	data := t.TempDir()
	env := append(p.env(), "MEMDB_ORACLE_DATA="+data)
	first := startReplica(t, "A", env)
	p.identified.await(t, "the gateway session", 1, func(map[string]any) bool { return true })
	p.ask(t, first)
	first.kill()

	restarted := startReplica(t, "A", env)
	p.retry(t, restarted) // may come before the restart's own sweep: either completes it, once
	p.check(t)
	if !awaitLog(restarted.logs, "completed a half-posted answer") {
		t.Errorf("the restart did not say it completed a half-posted answer:\n%s", restarted.logs.String())
	}
}

// TestAnAnswerKilledBetweenTwoPostsIsCompletedOnceByTheOtherReplica is the
// same on two replicas sharing a redis-server: the survivor claims the
// dead replica's jobs once their lease runs out (the Discord one when it
// takes the gateway over).
func TestAnAnswerKilledBetweenTwoPostsIsCompletedOnceByTheOtherReplica(t *testing.T) {
	binary(t)
	srv := redistest.Start(t)
	p := newCrashPlatforms(t)
	env := append(p.env(), "MEMDB_ORACLE_STATE_URL="+srv.URL())
	a := startReplica(t, "A", env)
	p.identified.await(t, "A's gateway session", 1, func(map[string]any) bool { return true })
	b := startReplica(t, "B", env)
	p.ask(t, a)
	a.kill()
	p.identified.await(t, "the gateway on B", 2, func(map[string]any) bool { return true })
	p.check(t)
	p.retry(t, b)
	for _, r := range []*replica{b} {
		select {
		case <-r.done:
			t.Errorf("replica %s stopped:\n%s", r.name, r.logs.String())
		default:
		}
	}
}

// order lists which of the matches each recorded item meets, in order
// ("12": one item met the first, a later one the second).
func (r *recorder[T]) order(matches ...func(T) bool) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, v := range r.items {
		for i, m := range matches {
			if m(v) {
				b.WriteByte(byte('1' + i))
			}
		}
	}
	return b.String()
}

// signSlack signs req (whose body is body) as Slack does.
func signSlack(req *http.Request, secret, body string) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
}
