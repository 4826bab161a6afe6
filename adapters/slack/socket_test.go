package slack

import (
	"strings"
	"testing"
	"time"
)

// waitAck returns the next acknowledgement the fake Socket Mode endpoint
// received.
func (f *fakeSlack) waitAck() map[string]any {
	f.t.Helper()
	guard := time.NewTimer(20 * time.Second)
	defer guard.Stop()
	select {
	case a := <-f.acks:
		return a
	case <-guard.C:
		f.t.Fatal("no Socket Mode acknowledgement")
		return nil
	}
}

func TestSocketModeAcknowledgesAndAnswersASlashCommandAndAMention(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	newHarness(t, fs, newMemStore(), fb, func(c *Config) { c.AppToken = NewSecret(testAppToken) })

	open := fs.waitFor("apps.connections.open")
	if open.Auth != "Bearer "+testAppToken {
		t.Fatalf("apps.connections.open not called with the app token (got %q)", open.Auth)
	}
	fs.waitFor("websocket")

	fs.envelopes <- `{"type":"slash_commands","envelope_id":"env-1","accepts_response_payload":true,"payload":{` +
		`"command":"/oracle","text":"Dragonfly at 8 cores","channel_id":"C1","user_id":"U1","team_id":"T1",` +
		`"trigger_id":"TS1","response_url":"` + fs.responseURL("TS1") + `"}}`
	ack := fs.waitAck()
	payload, _ := ack["payload"].(map[string]any)
	if ack["envelope_id"] != "env-1" || payload["text"] != "Looking into: Dragonfly at 8 cores" || payload["response_type"] != "ephemeral" {
		t.Fatalf("slash command ack %+v", ack)
	}
	posts := fs.waitAnswer()
	top := posts[0]
	if top.Form.Get("channel") != "C1" || top.Form.Get("thread_ts") != "" || !strings.Contains(top.textOf(t), "<@U1> asked:* Dragonfly at 8 cores") {
		t.Fatalf("slash answer %v", top.Form)
	}
	if !strings.Contains(top.textOf(t), "Show evidence") {
		t.Fatal("the slash answer's card offers no evidence")
	}

	mention := `{"type":"events_api","envelope_id":"env-2","accepts_response_payload":false,"retry_attempt":0,"payload":` +
		mentionEvent("EvS1", "C2", "U2", "1700000010.000100", "", "<@UBOT> what about valkey?") + `}`
	fs.envelopes <- mention
	if ack := fs.waitAck(); ack["envelope_id"] != "env-2" {
		t.Fatalf("mention ack %+v", ack)
	}
	reply := fs.waitAnswer()[0]
	if reply.Form.Get("channel") != "C2" || reply.Form.Get("thread_ts") != "1700000010.000100" {
		t.Fatalf("mention answer %v", reply.Form)
	}

	// Slack re-sends the envelope (same event_id): acknowledged, not answered again.
	fs.envelopes <- strings.Replace(strings.Replace(mention, "env-2", "env-3", 1), `"retry_attempt":0`, `"retry_attempt":1`, 1)
	if ack := fs.waitAck(); ack["envelope_id"] != "env-3" {
		t.Fatalf("retry ack %+v", ack)
	}
	fs.envelopes <- `{"type":"events_api","envelope_id":"env-4","payload":` +
		mentionEvent("EvS2", "C2", "U2", "1700000020.000100", "", "<@UBOT> sentinel") + `}`
	fs.waitAck()
	fs.waitFor("chat.postMessage")
	var asked []string
	for _, m := range fb.messages() {
		asked = append(asked, m.Text)
	}
	if strings.Join(asked, "|") != "Dragonfly at 8 cores|what about valkey?|sentinel" {
		t.Fatalf("bot asked %q", asked)
	}
}
