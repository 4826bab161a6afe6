// Package llmtest is a loopback fake of each language model provider's
// HTTP API (Ollama, OpenAI-compatible, Anthropic), for tests of the model
// adapter and of the commands that configure it.
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Provider names, as adapters/llm spells them.
const (
	Ollama    = "ollama"
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Provider is a loopback server speaking one provider's API: it records
// each request and answers with Reply, or fails as configured. Set the
// fields before the first request.
type Provider struct {
	// Reply is the model's text in every well-formed answer.
	Reply string
	// Status, when non-zero, fails every request with this HTTP status.
	Status int
	// RawBody, when not empty, is sent instead of a well-formed answer.
	RawBody string
	// Block, when not nil, holds every request until it is closed or the
	// client gives up.
	Block chan struct{}

	t        testing.TB
	provider string
	srv      *httptest.Server

	mu       sync.Mutex
	requests []Request
}

// Request is one request the fake received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

// New starts a fake of provider replying reply; it stops with the test.
func New(t testing.TB, provider, reply string) *Provider {
	f := &Provider{t: t, provider: provider, Reply: reply}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the fake's base URL.
func (f *Provider) URL() string { return f.srv.URL }

// Client is an HTTP client for the fake.
func (f *Provider) Client() *http.Client { return f.srv.Client() }

// ServeHTTP answers one request in the provider's shape.
func (f *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(data, &body)
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	f.mu.Unlock()
	if f.Block != nil {
		select {
		case <-f.Block:
		case <-r.Context().Done():
		}
		return
	}
	if f.Status != 0 {
		http.Error(w, `{"error":{"message":"overloaded"}}`, f.Status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if f.RawBody != "" {
		_, _ = io.WriteString(w, f.RawBody)
		return
	}
	var resp any
	switch f.provider {
	case Ollama:
		resp = map[string]any{"model": body["model"], "created_at": "2026-01-01T00:00:00Z",
			"message": map[string]any{"role": "assistant", "content": f.Reply}, "done": true, "done_reason": "stop"}
	case OpenAI:
		resp = map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": body["model"],
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": f.Reply}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
	case Anthropic:
		resp = map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
			"content": []any{map[string]any{"type": "text", "text": f.Reply}}, "stop_reason": "end_turn",
			"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
	}
	if err := json.NewEncoder(w).Encode(resp); err != nil {
		f.t.Errorf("encoding the fake reply: %v", err)
	}
}

// Requests is how many requests the fake received.
func (f *Provider) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// Last is the latest request; it fails the test when there was none.
func (f *Provider) Last(t testing.TB) Request {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("the provider received no request")
	}
	return f.requests[len(f.requests)-1]
}

// Prompt digs the prompt text out of a request body, whatever the
// provider's message shape.
func (r Request) Prompt() string {
	msgs, _ := r.Body["messages"].([]any)
	var b strings.Builder
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		switch c := mm["content"].(type) {
		case string:
			b.WriteString(c)
		case []any:
			for _, part := range c {
				if p, ok := part.(map[string]any); ok {
					if s, ok := p["text"].(string); ok {
						b.WriteString(s)
					}
				}
			}
		}
	}
	return b.String()
}
