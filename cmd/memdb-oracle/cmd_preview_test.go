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
	for _, tt := range []struct{ platform, method, evidence string }{
		{"slack", "chat.postMessage", "chat.postMessage"},
		{"discord", "POST /channels/1001/messages", "POST /channels/1001/messages"},
	} {
		t.Run(tt.platform, func(t *testing.T) {
			const q = "Is Dragonfly 25x faster than Redis?"
			var posts []previewRequest
			for _, r := range preview(t, dir, "--platform", tt.platform, q) {
				if r.Method == tt.method {
					posts = append(posts, r)
				}
			}
			if len(posts) != 1 || posts[0].Placement != "reply" {
				t.Fatalf("want one card before any click, got %+v", posts)
			}
			raw, _ := json.Marshal(posts[0].Payload)
			for _, want := range []string{"Not comparable", "Show evidence", "👍", "👎"} {
				if !strings.Contains(string(raw), want) {
					t.Errorf("the card lacks %q: %s", want, raw)
				}
			}
			if strings.Contains(string(raw), "run-s1-") {
				t.Errorf("the card carries the run IDs, which are evidence: %s", raw)
			}
			var evidence []previewRequest
			for _, r := range preview(t, dir, "--platform", tt.platform, "--click", "evidence", q) {
				if r.Method == tt.evidence {
					evidence = append(evidence, r)
				}
			}
			all, _ := json.Marshal(evidence)
			if len(evidence) == 0 || evidence[0].Placement != "thread" ||
				!strings.Contains(string(all), "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1") {
				t.Errorf("Show evidence did not post the run IDs in the thread: %s", all)
			}
		})
	}
}

func TestPreviewShowsWhatAChoiceOrAVoteClickPosts(t *testing.T) {
	dir := t.TempDir()
	for _, platform := range []string{"slack", "discord"} {
		t.Run(platform, func(t *testing.T) {
			reqs := preview(t, dir, "--platform", platform, "--click", "choice:2", "dragonfly at 16 cores, not read-heavy")
			all, _ := json.Marshal(reqs)
			if !strings.Contains(string(all), "MGET") || !strings.Contains(string(all), "Dragonfly: throughput") {
				t.Errorf("clicking the second choice did not answer the multi-get reading: %s", all)
			}
			down, _ := json.Marshal(preview(t, dir, "--platform", platform, "--click", "feedback:down", "redis at 8 cores"))
			if !strings.Contains(string(down), "noted") {
				t.Errorf("a 👎 is not acknowledged: %s", down)
			}
		})
	}
	_, stderr, err := runInProcess(t, env(), "", "--data", dir, "preview", "--platform", "slack", "--click", "frobnicate", "redis at 8 cores")
	if err == nil || !strings.Contains(stderr+err.Error(), "unknown click") {
		t.Errorf("an unknown click: %v %s", err, stderr)
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
