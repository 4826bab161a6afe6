package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestServeRunsSlackAndDiscordInOneProcess starts `memdb-oracle serve`
// in-process with Slack (Socket Mode) and Discord configured against
// loopback fakes (SLACK_API_URL, DISCORD_API_BASE): both sessions connect,
// each answers a mention from the measured runs, and an interrupt shuts
// both down cleanly.
func TestServeRunsSlackAndDiscordInOneProcess(t *testing.T) {
	slack := newLoopbackSlack(t)
	discord := newLoopbackDiscord(t)
	const slackToken, appToken, discordToken = "xoxb-e2e-bot-token-4242", "xapp-e2e-app-token-4242", "e2e.discord.token-4242"
	getenv := env(
		"HOME", t.TempDir(),
		"MEMDB_ORACLE_DATA", t.TempDir(),
		"MEMDB_ORACLE_HTTP_ADDR", "127.0.0.1:0",
		"SLACK_BOT_TOKEN", slackToken,
		"SLACK_APP_TOKEN", appToken,
		"SLACK_API_URL", slack.srv.URL+"/api",
		"DISCORD_BOT_TOKEN", discordToken,
		"DISCORD_APP_ID", "800",
		"DISCORD_GUILD_ID", "700",
		"DISCORD_API_BASE", discord.srv.URL,
	)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var logs lockedBuffer
	var serveErr error
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		serveErr = run(ctx, []string{"serve"}, getenv, strings.NewReader(""), io.Discard, &logs)
	}()
	defer func() {
		if t.Failed() {
			t.Logf("serve's log:\n%s", logs.String())
		}
	}()

	// Both sessions come up in the one process.
	await(t, stopped, slack.connected, "the Slack Socket Mode connection")
	ident := await(t, stopped, discord.identified, "the Discord gateway IDENTIFY")
	if ident["token"] != "Bot "+discordToken {
		t.Errorf("IDENTIFY token %v, want the configured bot token", ident["token"])
	}
	for {
		r := await(t, stopped, discord.requests, "the /oracle command registration")
		if r.Method == "POST" && r.Path == "/applications/800/guilds/700/commands" {
			if r.JSON["name"] != "oracle" {
				t.Errorf("registered command %v, want oracle", r.JSON["name"])
			}
			break
		}
	}

	// Slack: a mention over Socket Mode is acknowledged and answered in its thread.
	const question = "What is Dragonfly's throughput at 48 cores?"
	slack.envelopes <- `{"type":"events_api","envelope_id":"env-1","accepts_response_payload":false,"payload":` +
		`{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"Ev1","event_time":1700000000,` +
		`"event":{"type":"app_mention","user":"U1","text":"<@UBOT> ` + question + `","ts":"1700000010.000100",` +
		`"channel":"C1","event_ts":"1700000010.000100"}}}`
	if ack := await(t, stopped, slack.acks, "the Socket Mode acknowledgement"); ack["envelope_id"] != "env-1" {
		t.Errorf("acknowledged %v, want env-1", ack)
	}
	for {
		c := await(t, stopped, slack.calls, "the Slack answer")
		if c.Method != "chat.postMessage" {
			continue
		}
		if c.Form.Get("channel") != "C1" || c.Form.Get("thread_ts") != "1700000010.000100" {
			t.Fatalf("Slack answer posted to %v, want the mention's thread", c.Form)
		}
		if got := c.Form.Get("text") + c.Form.Get("blocks"); !strings.Contains(got, "Dragonfly: throughput of 15.5M ops/s") || !strings.Contains(got, "48 cores") {
			t.Fatalf("the Slack answer does not answer the question:\n%s", got)
		}
		break
	}

	// Discord: a mention over the gateway gets a thread with the answer's card.
	mention, _ := json.Marshal(map[string]any{"op": 0, "t": "MESSAGE_CREATE", "d": map[string]any{
		"id": "3001", "channel_id": "100", "guild_id": "700", "type": 0,
		"content":   "<@" + discord.selfID + "> " + question + " @everyone",
		"author":    map[string]any{"id": "42", "username": "asker"},
		"mentions":  []any{map[string]any{"id": discord.selfID, "username": "oracle", "bot": true}},
		"timestamp": "2026-05-01T09:00:00.000000+00:00",
	}})
	discord.dispatches <- mention
	threadStarted := false
	for {
		r := await(t, stopped, discord.requests, "the Discord answer")
		if r.Method == "POST" && r.Path == "/channels/100/messages/3001/threads" {
			threadStarted = true
			continue
		}
		if r.Method != "POST" || r.Path != "/channels/3001/messages" {
			continue
		}
		if !threadStarted {
			t.Fatal("the Discord answer was posted before a thread was started from the mention")
		}
		// The card: a components-v2 container (or, edited in, an embed).
		card, _ := r.JSON["components"].([]any)
		if embeds, _ := r.JSON["embeds"].([]any); len(embeds) > 0 {
			card = embeds
		}
		raw, _ := json.Marshal(card)
		if len(card) == 0 || !strings.Contains(string(raw), "Dragonfly: throughput of 15.5M ops/s") || !strings.Contains(string(raw), "48 cores") {
			t.Fatalf("the Discord answer does not answer the question: %s", raw)
		}
		am, _ := r.JSON["allowed_mentions"].(map[string]any)
		if parse, ok := am["parse"].([]any); !ok || len(parse) != 0 {
			t.Errorf("allowed_mentions %v, want mentions off", r.JSON["allowed_mentions"])
		}
		break
	}

	// An interrupt stops both sessions and serve returns cleanly.
	cancel()
	await(t, nil, stopped, "serve to stop")
	if serveErr != nil {
		t.Fatalf("serve returned %v after an interrupt, want nil", serveErr)
	}
	await(t, nil, slack.closed, "the Slack websocket to close")
	await(t, nil, discord.closed, "the Discord gateway to close")
	out := logs.String()
	for _, want := range []string{`"msg":"adapter on","adapter":"slack"`, `"msg":"adapter on","adapter":"discord"`, `"msg":"stopped"`} {
		if !strings.Contains(out, want) {
			t.Errorf("serve's log lacks %s", want)
		}
	}
	for _, secret := range []string{slackToken, appToken, discordToken} {
		if strings.Contains(out, secret) {
			t.Errorf("a token reached serve's log")
		}
	}
}
