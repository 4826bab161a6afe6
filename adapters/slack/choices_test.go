package slack

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestAClarifyOffersItsChoicesAndAClickOrANumberAsksOne drives the real
// bot through the fake Slack: an ambiguous mention gets its readings as
// buttons in the mention's thread (not help's examples); clicking the
// second button, typing "2" and typing "the second one" in that thread
// each answer the second reading there, with the thread's memory.
func TestAClarifyOffersItsChoicesAndAClickOrANumberAsksOne(t *testing.T) {
	const parent = "1700000001.000100"
	for _, how := range []string{"click", "2", "the second one"} {
		t.Run(how, func(t *testing.T) {
			env := bottest.NewEnv(t, nil)
			fs := newFakeSlack(t)
			h := newHarness(t, fs, newMemStore(), env.Bot)
			h.event(mentionEvent("Ev1", "C1", "U1", parent, "", "<@UBOT> dragonfly at 16 cores, not read-heavy"))
			clarify := fs.waitFor("chat.postMessage", "chat.postEphemeral")
			assertPostWithinLimits(t, clarify)
			if clarify.Method != "chat.postMessage" || clarify.Form.Get("thread_ts") != parent {
				t.Fatalf("the clarify is not in the mention's thread: %s %v", clarify.Method, clarify.Form)
			}
			var second string
			for _, b := range clarify.blocksOf(t) {
				if b["type"] != "actions" {
					continue
				}
				for _, e := range b["elements"].([]any) {
					btn := e.(map[string]any)
					if btn["action_id"] == choiceAction+"2" {
						second = btn["value"].(string)
					}
					if strings.Contains(btn["value"].(string), "25x") {
						t.Errorf("a clarify button offers help's example %q", btn["value"])
					}
				}
			}
			if !strings.Contains(second, "multi-gets") {
				t.Fatalf("no second choice button asking the multi-get reading; blocks %v", clarify.blocksOf(t))
			}
			switch how {
			case "click":
				payload := `{"type":"block_actions","trigger_id":"TR1","user":{"id":"U2"},"channel":{"id":"C1"},"container":{"type":"message","channel_id":"C1","message_ts":"` + clarify.TS + `","thread_ts":"` + parent + `"},"response_url":"` + fs.responseURL("btn") + `",` +
					`"actions":[{"type":"button","action_id":"` + choiceAction + `2","block_id":"oracle_choices","value":"` + second + `"}]}`
				form := "payload=" + urlEscape(payload)
				if resp := h.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form)); resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d", resp.StatusCode)
				}
			default:
				h.event(messageEvent("Ev2", "C1", "channel", "U1", "1700000009.000100", parent, how, ""))
			}
			answer := fs.waitFor("chat.postMessage")
			if answer.Form.Get("thread_ts") != parent {
				t.Fatalf("the choice was answered outside the thread: %v", answer.Form)
			}
			if text := answer.textOf(t); !strings.Contains(text, "Dragonfly") || !strings.Contains(strings.ToLower(text), "mget") && !strings.Contains(strings.ToLower(text), "multi-get") {
				t.Fatalf("the second reading (multi-gets) was not answered:\n%s", text)
			}
		})
	}
}
