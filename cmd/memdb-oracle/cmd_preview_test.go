package main

import (
	"encoding/json"
	"strings"
	"testing"
)

type previewRequest struct {
	Placement string         `json:"placement"`
	Method    string         `json:"method"`
	Payload   map[string]any `json:"payload"`
}

func preview(t *testing.T, dir string, args ...string) []previewRequest {
	t.Helper()
	stdout, stderr, err := runInProcess(t, env(), "", append([]string{"--data", dir, "preview"}, args...)...)
	if err != nil {
		t.Fatalf("preview %v: %v\n%s", args, err, stderr)
	}
	var out []previewRequest
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("not one JSON array: %v\n%s", err, stdout)
	}
	return out
}

func TestPreviewPrintsTheRequestsEachPlatformWouldGetReplyFirst(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ platform, method string }{
		{"slack", "chat.postMessage"},
		{"discord", "POST /channels/1001/messages"},
	} {
		t.Run(tt.platform, func(t *testing.T) {
			reqs := preview(t, dir, "--platform", tt.platform, "Is Dragonfly 25x faster than Redis?")
			var posts []previewRequest
			for _, r := range reqs {
				if r.Method == tt.method {
					posts = append(posts, r)
				}
			}
			if len(posts) < 2 || posts[0].Placement != "reply" || posts[len(posts)-1].Placement != "thread" {
				t.Fatalf("want the reply then the evidence in the thread, got %+v", reqs)
			}
			raw, _ := json.Marshal(posts[0].Payload)
			if !strings.Contains(string(raw), "Not comparable") || strings.Contains(string(raw), "run-s1-") {
				t.Errorf("the reply is the verdict without the run IDs: %s", raw)
			}
			all, _ := json.Marshal(posts)
			if !strings.Contains(string(all), "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1") {
				t.Error("the evidence lacks the run IDs")
			}
		})
	}
}

func TestPreviewOfChatterInABotThreadIsAnEmptyArray(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, err := runInProcess(t, env(), "", "--data", dir, "ask", "--thread", "t1", "Dragonfly at 8 cores"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, platform := range []string{"slack", "discord"} {
		for _, text := range []string{"thanks", "lol"} {
			if reqs := preview(t, dir, "--platform", platform, "--thread", "t1", text); len(reqs) != 0 {
				t.Errorf("%s: %q in a bot thread made %d requests, want none: %+v", platform, text, len(reqs), reqs)
			}
		}
	}
	if reqs := preview(t, dir, "--platform", "slack", "--thread", "t1", "and valkey?"); len(reqs) == 0 {
		t.Error("a follow-up question in the thread got no answer")
	}
}
