package main

import (
	"strings"
	"testing"
)

// drain returns what a channel holds now, without waiting.
func drain[T any](ch <-chan T) []T {
	var out []T
	for {
		select {
		case v := <-ch:
			out = append(out, v)
		default:
			return out
		}
	}
}

// TestTheDigestCommandPostsTheHeadlineChartIntoEachThread runs
// `memdb-oracle digest` against loopback Slack and Discord (SLACK_API_URL,
// DISCORD_API_BASE): each channel gets the headline, the details in its
// thread and then the rendered headline chart in that thread.
func TestTheDigestCommandPostsTheHeadlineChartIntoEachThread(t *testing.T) {
	slack := newLoopbackSlack(t)
	discord := newLoopbackDiscord(t)
	stdout, stderr, err := runInProcess(t, env(
		"HOME", t.TempDir(),
		"MEMDB_ORACLE_DATA", t.TempDir(),
		"SLACK_BOT_TOKEN", "xoxb-digest",
		"SLACK_API_URL", slack.srv.URL+"/api/",
		"MEMDB_ORACLE_DIGEST_SLACK_CHANNELS", "C1",
		"DISCORD_BOT_TOKEN", "digest.token.test",
		"DISCORD_API_BASE", discord.srv.URL,
		"MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS", "100",
	), "", "digest")
	if err != nil {
		t.Fatalf("digest: %v\n%s", err, stderr)
	}
	for _, want := range []string{"posted to slack:C1", "posted to discord:100"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("digest printed %q, want %q", stdout, want)
		}
	}

	t.Run("Slack gets the chart uploaded into the headline's thread", func(t *testing.T) {
		var methods []string
		var headline, uploadAlt, sharedIn string
		uploaded := 0
		for _, c := range drain(slack.calls) {
			methods = append(methods, c.Method)
			switch c.Method {
			case "chat.postMessage":
				if headline == "" && c.Form.Get("thread_ts") == "" {
					headline = c.TS
				}
			case "files.getUploadURLExternal":
				uploadAlt = c.Form.Get("alt_txt")
			case "upload":
				uploaded = c.Upload
			case "files.completeUploadExternal":
				sharedIn = c.Form.Get("channel_id") + "/" + c.Form.Get("thread_ts")
			}
		}
		n := len(methods)
		if n < 5 || methods[0] != "chat.postMessage" || methods[n-4] != "chat.postMessage" ||
			strings.Join(methods[n-3:], ",") != "files.getUploadURLExternal,upload,files.completeUploadExternal" {
			t.Fatalf("Slack calls %v, want headline, details, then the upload flow", methods)
		}
		if uploadAlt == "" || uploaded == 0 || sharedIn != "C1/"+headline {
			t.Errorf("chart alt text %q, %d bytes, shared in %q; want alt text, a PNG, in C1/%s", uploadAlt, uploaded, sharedIn, headline)
		}
	})

	t.Run("Discord gets the chart attached in the headline's thread", func(t *testing.T) {
		reqs := drain(discord.requests)
		thread := ""
		for _, r := range reqs {
			if r.Method == "POST" && strings.HasPrefix(r.Path, "/channels/100/messages/") && strings.HasSuffix(r.Path, "/threads") {
				thread = strings.Split(r.Path, "/")[4]
			}
		}
		var inThread []discordRequest
		for _, r := range reqs {
			if r.Method == "POST" && r.Path == "/channels/"+thread+"/messages" {
				inThread = append(inThread, r)
			}
		}
		if thread == "" || len(inThread) < 2 {
			t.Fatalf("thread %q with %d messages, want the details and the chart", thread, len(inThread))
		}
		last := inThread[len(inThread)-1]
		embeds, _ := last.JSON["embeds"].([]any)
		if last.Files != 1 || len(embeds) != 1 {
			t.Fatalf("the last thread message has %d files and embeds %v, want the chart", last.Files, embeds)
		}
		image, _ := embeds[0].(map[string]any)["image"].(map[string]any)
		if image["url"] != "attachment://chart.png" {
			t.Errorf("embed image %v, want attachment://chart.png", image)
		}
		am, _ := last.JSON["allowed_mentions"].(map[string]any)
		if parse, ok := am["parse"].([]any); !ok || len(parse) != 0 {
			t.Errorf("allowed_mentions %v, want mentions off", last.JSON["allowed_mentions"])
		}
	})
}
