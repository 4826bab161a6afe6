package slack

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// homeOpened is an app_home_opened event for user U1 in DM D1.
func homeOpened(eventID, tab string) string {
	return `{"type":"event_callback","event_id":"` + eventID + `","team_id":"T1","event":{"type":"app_home_opened",` +
		`"user":"U1","channel":"D1","tab":"` + tab + `","event_ts":"1700000003.000100"}}`
}

// TestTheHomeTabSaysWhatTheBotAnswersAndWhatWasMeasured opens the Home
// tab: Slack gets a home view (that passes its rules) saying what the bot
// answers, example questions as buttons and the coverage counted from the
// store; clicking an example asks it in the user's DM with the app. The
// Messages tab publishes nothing.
func TestTheHomeTabSaysWhatTheBotAnswersAndWhatWasMeasured(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), env.Bot, func(c *Config) { c.Coverage = bot.NewDataset(env.Store, env.Knowledge) })
	h.event(homeOpened("EvH0", "messages"))
	h.event(homeOpened("EvH1", "home"))
	pub := fs.waitFor("views.publish", "views.publish (refused)")
	if pub.Method != "views.publish" {
		t.Fatalf("Slack refused the home view: %v", pub.JSON)
	}
	if n := len(fs.callsOf("views.publish")); n != 1 {
		t.Errorf("%d views published for one opening of the Home tab and one of Messages", n)
	}
	view := pub.JSON["view"].(map[string]any)
	if pub.JSON["user_id"] != "U1" || view["private_metadata"] != "D1" {
		t.Errorf("published for %v with metadata %v", pub.JSON["user_id"], view["private_metadata"])
	}
	raw, _ := json.Marshal(view["blocks"])
	text := call{Form: url.Values{"blocks": {string(raw)}}}.textOf(t)
	headline, _ := bot.About()
	runs := len(env.Store.Runs())
	for _, want := range []string{headline, "median of measured runs", "Try asking", bot.Examples()[0],
		"What was measured", fmt.Sprintf("%d measured runs", runs), "*Garnet* — ", "session 2", "pipeline 1 and 16"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Home tab lacks %q:\n%s", want, text)
		}
	}
	// A click on the first example, from the Home tab: no channel but the view's.
	q := bot.Examples()[0]
	payload := fmt.Sprintf(`{"type":"block_actions","trigger_id":"TRH1","user":{"id":"U1"},"container":{"type":"view","view_id":"V1"},`+
		`"view":{"id":"V1","type":"home","private_metadata":"D1"},"actions":[{"type":"button","action_id":"%s_0","block_id":"b","value":%q,"action_ts":"1700000004.0001"}]}`,
		askAction, q)
	form := "payload=" + url.QueryEscape(payload)
	h.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form))
	card := fs.waitFor("chat.postMessage")
	if card.Form.Get("channel") != "D1" || !strings.Contains(card.textOf(t), q) {
		t.Errorf("the Home tab's example was answered in %s:\n%s", card.Form.Get("channel"), card.textOf(t))
	}
}

// TestSuggestedPromptsFollowTheChannelTheUserViews checks that an
// assistant thread remembers the channel its user views: its prompts lead
// with the questions last asked there, change when the user moves to
// another channel, stay when the same channel is reported again, and a
// new thread uses the channel the agent view last reported.
func TestSuggestedPromptsFollowTheChannelTheUserViews(t *testing.T) {
	fs := newFakeSlack(t)
	store := newMemStore()
	h := newHarness(t, fs, store, newFakeBot())
	// A question answered in C1 (the first of its thread), one in a DM.
	h.command("C1", "U2", "Which engine is fastest at 16 cores?", "TR1")
	fs.waitFor("chat.postMessage")
	h.event(messageEvent("EvP0", "D9", "im", "U2", "1700000000.000500", "", "a private question", ""))
	fs.waitFor("chat.postMessage")
	// The question is noted once its answer is posted: wait for the note,
	// not only the post, before a thread asks for it.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, ok, _ := store.Get(t.Context(), askedKey("C1")); ok || time.Now().After(deadline) {
			break
		}
	}
	prompts := func(c call) (string, []string) {
		t.Helper()
		var list []map[string]string
		if err := json.Unmarshal([]byte(c.Form.Get("prompts")), &list); err != nil {
			t.Fatalf("prompts %q: %v", c.Form.Get("prompts"), err)
		}
		var msgs []string
		for _, p := range list {
			msgs = append(msgs, p["message"])
		}
		return c.Form.Get("title"), msgs
	}
	thread := func(id, kind, viewed string) string {
		return `{"type":"event_callback","event_id":"` + id + `","team_id":"T1","event":{"type":"` + kind + `",` +
			`"assistant_thread":{"user_id":"U1","channel_id":"D1","thread_ts":"1700000001.000100","context":{"channel_id":"` + viewed + `"}},"event_ts":"1700000001.000200"}}`
	}
	h.event(thread("EvP1", "assistant_thread_started", "C1"))
	title, msgs := prompts(fs.waitFor("assistant.threads.setSuggestedPrompts"))
	if len(msgs) != maxSuggestedPrompts || msgs[0] != "Which engine is fastest at 16 cores?" || !strings.Contains(title, "channel you are viewing") {
		t.Errorf("prompts in C1: %q %q", title, msgs)
	}
	for _, m := range msgs {
		if m == "a private question" {
			t.Error("a question from a direct message was suggested")
		}
	}
	h.event(thread("EvP2", "assistant_thread_context_changed", "C2"))
	title, msgs = prompts(fs.waitFor("assistant.threads.setSuggestedPrompts"))
	if msgs[0] != bot.Examples()[0] || strings.Contains(title, "viewing") {
		t.Errorf("prompts in C2, where nothing was asked: %q %q", title, msgs)
	}
	h.event(thread("EvP3", "assistant_thread_context_changed", "C2"))
	h.event(thread("EvP4", "assistant_thread_context_changed", "C1"))
	if _, msgs = prompts(fs.waitFor("assistant.threads.setSuggestedPrompts")); msgs[0] != "Which engine is fastest at 16 cores?" {
		t.Errorf("prompts back in C1: %q", msgs)
	}
	if n := len(fs.callsOf("assistant.threads.setSuggestedPrompts")); n != 3 {
		t.Errorf("%d prompt changes for C1, C2, C2 again and C1: want 3", n)
	}
	// The agent view reports C1 for DM D7; a thread there without context.
	h.event(`{"type":"event_callback","event_id":"EvP5","team_id":"T1","event":{"type":"app_context_changed","user":"U1","channel":"D7",` +
		`"context":{"entities":[{"type":"slack#/types/channel_id","value":"C1"}]},"event_ts":"1700000005.000100"}}`)
	h.event(`{"type":"event_callback","event_id":"EvP6","team_id":"T1","event":{"type":"assistant_thread_started",` +
		`"assistant_thread":{"user_id":"U1","channel_id":"D7","thread_ts":"1700000006.000100","context":{}},"event_ts":"1700000006.000200"}}`)
	if c := fs.waitFor("assistant.threads.setSuggestedPrompts"); c.Form.Get("channel_id") != "D7" {
		t.Fatalf("prompts went to %v", c.Form)
	} else if _, msgs = prompts(c); msgs[0] != "Which engine is fastest at 16 cores?" {
		t.Errorf("prompts in a thread of the agent view viewing C1: %q", msgs)
	}
}
