package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Request is one Web API call the adapter would make, as preview shows it:
// where the asker sees it ("reply" for the message they see first,
// "thread" for the rest), the method and the exact body (form fields as a
// JSON object, blocks decoded).
type Request struct {
	Placement string         `json:"placement"`
	Method    string         `json:"method"`
	Payload   map[string]any `json:"payload"`
}

// Preview answers question as the adapter would in Slack and returns, in
// posting order, every Web API call it would make, without a workspace:
// a slash command's answer in a channel, or with thread set a message in
// that bot thread without a mention (chatter there gets no call at all).
// The handler's thread memory for thread is used and kept.
func Preview(ctx context.Context, h Handler, question, thread string) ([]Request, error) {
	rec := &recorder{}
	a, err := New(Config{
		BotToken:   NewSecret("xoxb-preview"),
		Handler:    h,
		Store:      &memoryStore{kv: map[string][]byte{}},
		APIURL:     "https://slack.invalid/api/",
		HTTPClient: &http.Client{Transport: rec},
		BotUserID:  "UORACLE",
		Retries:    0,
	})
	if err != nil {
		return nil, err
	}
	p := place{channel: "CPREVIEW", user: "UASKER", conversation: "preview",
		show: shown{Asker: "UASKER", Question: question}}
	if thread != "" {
		p = place{channel: "CPREVIEW", user: "UASKER", thread: thread, conversation: thread, unasked: true}
		a.markThread(ctx, p.channel, thread, thread)
	}
	if err := a.answer(ctx, p, question); err != nil {
		return nil, err
	}
	return rec.requests(), nil
}

// recorder is an http.RoundTripper standing in for Slack: it records each
// call and answers ok.
type recorder struct {
	mu   sync.Mutex
	reqs []Request
	ts   int
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	method := strings.TrimPrefix(req.URL.Path, "/api/")
	payload := map[string]any{}
	if strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(body, &payload)
	} else if form, err := url.ParseQuery(string(body)); err == nil {
		for k, v := range form {
			if k == "token" || len(v) == 0 {
				continue
			}
			var decoded any
			if (k == "blocks" || k == "attachments") && json.Unmarshal([]byte(v[0]), &decoded) == nil {
				payload[k] = decoded
				continue
			}
			payload[k] = v[0]
		}
	}
	r.mu.Lock()
	placement := "thread"
	if len(r.reqs) == 0 {
		placement = "reply"
	}
	r.reqs = append(r.reqs, Request{Placement: placement, Method: method, Payload: payload})
	r.ts++
	ts := fmt.Sprintf("1700000000.%06d", r.ts)
	r.mu.Unlock()
	out, _ := json.Marshal(map[string]any{"ok": true, "ts": ts, "message_ts": ts, "channel": payload["channel"]})
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(out)), Request: req}, nil
}

func (r *recorder) requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request{}, r.reqs...)
}

// memoryStore is the adapter's state for one preview.
type memoryStore struct {
	mu sync.Mutex
	kv map[string][]byte
}

func (s *memoryStore) SetIfAbsent(_ context.Context, key string, value []byte, _ time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.kv[key]; ok {
		return false, nil
	}
	s.kv[key] = value
	return true, nil
}

func (s *memoryStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.kv[key]
	return v, ok, nil
}
