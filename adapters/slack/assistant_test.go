package slack

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnAssistantThreadGetsSuggestedPromptsAndAStatusWhileAnswering starts
// an assistant thread (suggested prompts that really work arrive), then
// asks in it: the thread shows a status before the card streams there.
func TestAnAssistantThreadGetsSuggestedPromptsAndAStatusWhileAnswering(t *testing.T) {
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), newFakeBot())
	h.event(`{"type":"event_callback","event_id":"EvA1","team_id":"T1","event":{"type":"assistant_thread_started",` +
		`"assistant_thread":{"user_id":"U1","channel_id":"D1","thread_ts":"1700000001.000100","context":{}},"event_ts":"1700000001.000200"}}`)
	prompts := fs.waitFor("assistant.threads.setSuggestedPrompts", "assistant.threads.setSuggestedPrompts (refused)")
	if prompts.Method != "assistant.threads.setSuggestedPrompts" || prompts.Form.Get("channel_id") != "D1" || prompts.Form.Get("thread_ts") != "1700000001.000100" {
		t.Fatalf("suggested prompts %s %v", prompts.Method, prompts.Form)
	}
	var list []map[string]string
	if err := json.Unmarshal([]byte(prompts.Form.Get("prompts")), &list); err != nil || len(list) != maxSuggestedPrompts ||
		!strings.HasSuffix(list[0]["message"], "?") {
		t.Errorf("prompts %s (%v)", prompts.Form.Get("prompts"), err)
	}
	h.event(messageEvent("EvA2", "D1", "im", "U1", "1700000002.000100", "1700000001.000100", "Dragonfly at 8 cores", ""))
	status := fs.waitFor("assistant.threads.setStatus")
	if status.Form.Get("status") != answeringStatus || status.Form.Get("thread_ts") != "1700000001.000100" {
		t.Errorf("status %v", status.Form)
	}
	card := fs.waitFor("chat.stopStream")
	if st, _ := fs.streamOf(card.Form.Get("ts")); st.thread != "1700000001.000100" {
		t.Errorf("the answer left the assistant thread: %+v", st)
	}
}
