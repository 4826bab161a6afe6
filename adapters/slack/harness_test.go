package slack

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

const (
	testSecret   = "8f742231b10e8888abcd99yyyzzz85a5"
	testBotToken = "xoxb-1111-2222-test-bot-token"
	testAppToken = "xapp-1-A1-3333-test-app-token"
)

// memStore is an in-memory Store; two adapters sharing one behave like
// one adapter restarted on the same data directory.
type memStore struct {
	mu sync.Mutex
	kv map[string][]byte
}

func newMemStore() *memStore { return &memStore{kv: map[string][]byte{}} }

func (s *memStore) SetIfAbsent(_ context.Context, key string, value []byte, _ time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.kv[key]; ok {
		return false, nil
	}
	s.kv[key] = append([]byte(nil), value...)
	return true, nil
}

func (s *memStore) Set(_ context.Context, key string, value []byte, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kv[key] = append([]byte(nil), value...)
	return nil
}

func (s *memStore) Keys(_ context.Context, prefix string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for k := range s.kv {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

func (s *memStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.kv[key]
	return v, ok, nil
}

// fakeBot answers from a function and keeps thread memory the way the
// real bot does (by Message.ThreadKey), so follow-ups can show what they
// inherited. It records every message.
type fakeBot struct {
	mu      sync.Mutex
	got     []bot.Message
	memory  map[string]string // thread key → first question
	answer  func(m bot.Message) bot.Answer
	release chan struct{} // when set, Handle waits for it
}

func newFakeBot() *fakeBot {
	return &fakeBot{memory: map[string]string{}, answer: func(m bot.Message) bot.Answer {
		a := claimAnswer()
		a.Headline = "Answer to: " + m.Text
		return a
	}}
}

func (b *fakeBot) Handle(ctx context.Context, m bot.Message) bot.Answer {
	if b.release != nil {
		select {
		case <-b.release:
		case <-ctx.Done():
		}
	}
	b.mu.Lock()
	b.got = append(b.got, m)
	inherited := ""
	if k := m.ThreadKey(); k != "" {
		if first, ok := b.memory[k]; ok {
			inherited = first
		} else {
			b.memory[k] = m.Text
		}
	}
	b.mu.Unlock()
	a := b.answer(m)
	if inherited != "" {
		a.Interpretation += "; kept from the previous question: “" + inherited + "”"
	}
	return a
}

func (b *fakeBot) messages() []bot.Message {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bot.Message(nil), b.got...)
}

// harness is an adapter wired to a fake Slack and a fake bot, with its
// HTTP endpoints served on loopback.
type harness struct {
	t      *testing.T
	slack  *fakeSlack
	store  *memStore
	a      *Adapter
	srv    *httptest.Server
	sleeps *sleepLog
	logs   *bytes.Buffer
	stop   func()
}

type sleepLog struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleepLog) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleepLog) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

type harnessOption func(*Config)

func newHarness(t *testing.T, fs *fakeSlack, store *memStore, fb Handler, opts ...harnessOption) *harness {
	t.Helper()
	h := &harness{t: t, slack: fs, store: store, sleeps: &sleepLog{}, logs: &bytes.Buffer{}}
	cfg := Config{
		BotToken:      NewSecret(testBotToken),
		SigningSecret: NewSecret(testSecret),
		Handler:       fb,
		Store:         store,
		APIURL:        fs.apiURL(),
		Sleep:         h.sleeps.sleep,
		Log:           slog.New(slog.NewTextHandler(&lockedWriter{buf: h.logs}, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.a = a
	mux := http.NewServeMux()
	if err := a.Mount(mux); err != nil {
		t.Fatal(err)
	}
	h.srv = httptest.NewServer(mux)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			h.srv.Close()
		})
	}
	t.Cleanup(h.stop)
	return h
}

// lockedWriter lets concurrent goroutines log into one buffer.
type lockedWriter struct {
	mu  sync.Mutex
	buf *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// signed returns Slack's signature headers for a body sent at ts.
func signed(secret string, ts time.Time, body string) http.Header {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:%s", ts.Unix(), body)
	h := http.Header{}
	h.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	h.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	return h
}

// send posts a body to one of the adapter's endpoints with headers.
func (h *harness) send(path, contentType, body string, hdr http.Header) *http.Response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// event posts a signed Events API callback.
func (h *harness) event(body string, extra ...string) *http.Response {
	h.t.Helper()
	hdr := signed(testSecret, time.Now(), body)
	for i := 0; i+1 < len(extra); i += 2 {
		hdr.Set(extra[i], extra[i+1])
	}
	return h.send(EventsPath, "application/json", body, hdr)
}

// showEvidence clicks the Show evidence button of card as user would, in
// the card's thread, through the signed interactivity endpoint.
func (h *harness) showEvidence(card call, user string) {
	h.t.Helper()
	h.clickCard(card, user, evidenceAction, "button", cardButtonValue(h.t, card, evidenceAction))
}

// clickCard posts a block_actions payload for a control of card.
func (h *harness) clickCard(card call, user, actionID, kind, value string) {
	h.t.Helper()
	thread := card.Form.Get("thread_ts")
	payload := fmt.Sprintf(`{"type":"block_actions","trigger_id":"TR-%s-%s","user":{"id":%q},"channel":{"id":%q},`+
		`"container":{"type":"message","channel_id":%q,"message_ts":%q,"thread_ts":%q},"response_url":%q,`+
		`"actions":[{"type":%q,"action_id":%q,"block_id":"b","value":%q}]}`,
		card.TS, actionID, user, card.Form.Get("channel"), card.Form.Get("channel"), card.TS, thread,
		h.slack.responseURL("click-"+card.TS), kind, actionID, value)
	form := "payload=" + url.QueryEscape(payload)
	if resp := h.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form)); resp.StatusCode != http.StatusOK {
		h.t.Fatalf("click: status %d", resp.StatusCode)
	}
}

// cardButtonValue is the value of the card's control actionID.
func cardButtonValue(t testing.TB, card call, actionID string) string {
	t.Helper()
	for _, b := range card.blocksOf(t) {
		els, _ := b["elements"].([]any)
		for _, e := range els {
			m, _ := e.(map[string]any)
			if m["action_id"] == actionID {
				v, _ := m["value"].(string)
				if pos, ok := m["positive_button"].(map[string]any); ok {
					v, _ = pos["value"].(string)
				}
				return v
			}
		}
	}
	t.Fatalf("the card has no %s control", actionID)
	return ""
}

// command posts a signed slash command.
func (h *harness) command(channel, user, text, trigger string) *http.Response {
	h.t.Helper()
	form := url.Values{
		"command": {"/oracle"}, "text": {text}, "channel_id": {channel}, "user_id": {user},
		"team_id": {"T1"}, "trigger_id": {trigger}, "response_url": {h.slack.responseURL(trigger)},
	}.Encode()
	return h.send(CommandsPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form))
}

// mentionEvent is an app_mention callback.
func mentionEvent(eventID, channel, user, ts, threadTS, text string) string {
	thread := ""
	if threadTS != "" {
		thread = `,"thread_ts":"` + threadTS + `"`
	}
	return `{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"` + eventID + `","event_time":1700000000,` +
		`"event":{"type":"app_mention","user":"` + user + `","text":"` + text + `","ts":"` + ts + `","channel":"` + channel + `","event_ts":"` + ts + `"` + thread + `}}`
}

// messageEvent is a message callback; extra is raw JSON fields to add.
func messageEvent(eventID, channel, channelType, user, ts, threadTS, text, extra string) string {
	thread := ""
	if threadTS != "" {
		thread = `,"thread_ts":"` + threadTS + `"`
	}
	return `{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"` + eventID + `","event_time":1700000000,` +
		`"event":{"type":"message","user":"` + user + `","text":"` + text + `","ts":"` + ts + `","channel":"` + channel + `","channel_type":"` + channelType + `","event_ts":"` + ts + `"` + thread + extra + `}}`
}

func urlEscape(s string) string { return url.QueryEscape(s) }
