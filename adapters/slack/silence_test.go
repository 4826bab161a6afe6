package slack

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chatterBot answers "thanks", "lol" and the like as chatter (what the
// planner's chatter intent gives), anything else as a claim.
func chatterBot() *fakeBot {
	fb := newFakeBot()
	fb.answer = func(m bot.Message) bot.Answer {
		switch strings.ToLower(strings.TrimSpace(m.Text)) {
		case "thanks", "thanks, that helps!", "lol", "ok", "+1", "🙏":
			return bot.Answer{Kind: bot.KindChatter, Headline: "Happy to help."}
		}
		a := claimAnswer()
		a.Headline = "Answer to: " + m.Text
		return a
	}
	return fb
}

func TestChatterInABotThreadGetsNoReply(t *testing.T) {
	for _, text := range []string{"thanks", "lol", "<@U0ALICE> what do you think?"} {
		t.Run(text, func(t *testing.T) {
			fs := newFakeSlack(t)
			fb := chatterBot()
			h := newHarness(t, fs, newMemStore(), fb)
			h.a.markThread(t.Context(), "C1", "1700000001.000100", "1700000001.000100")
			h.event(messageEvent("Ev1", "C1", "channel", "U1", "1700000002.000100", "1700000001.000100", text, ""))
			// A real question afterwards in the same channel: the worker
			// answers a channel in order, so once it is answered the
			// chatter would have been too.
			h.event(mentionEvent("EvSentinel", "C1", "U1", "1700000050.000100", "", "<@UBOT> sentinel"))
			first := fs.waitFor("chat.postMessage", "chat.postEphemeral")
			if !strings.Contains(first.textOf(t), "sentinel") {
				t.Fatalf("chatter %q got a reply:\n%s", text, first.textOf(t))
			}
		})
	}
}

func TestChatterThatMentionsTheBotIsAnsweredBriefly(t *testing.T) {
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), chatterBot())
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000002.000100", "1700000001.000100", "<@UBOT> thanks"))
	c := fs.waitFor("chat.postMessage")
	if !strings.Contains(c.textOf(t), "Happy to help.") {
		t.Fatalf("a thanks addressed to the bot: %s", c.textOf(t))
	}
}

func TestAFollowUpListsOnlySourcesTheThreadHasNotSeen(t *testing.T) {
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), newFakeBot())
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Is Dragonfly 25x faster than Redis?"))
	fs.waitAnswer()
	h.event(messageEvent("Ev2", "C1", "channel", "U1", "1700000002.000100", "1700000001.000100", "and at 8 cores?", ""))
	h.event(mentionEvent("EvSentinel", "C2", "U1", "1700000050.000100", "", "<@UBOT> sentinel"))
	for {
		c := fs.waitFor("chat.postMessage")
		if c.Form.Get("channel") == "C2" {
			break
		}
		if strings.Contains(c.textOf(t), "*Sources*") {
			t.Fatalf("the follow-up repeated sources the thread had seen:\n%s", c.textOf(t))
		}
	}
}

func TestAButtonInAThreadAnswersInThatThreadWithItsMemory(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	h.a.markThread(t.Context(), "C1", "1700000001.000100", "conv-1")
	payload := `{"type":"block_actions","trigger_id":"TR1","user":{"id":"U1"},"channel":{"id":"C1"},"container":{"type":"message","channel_id":"C1","message_ts":"1700000003.000100","thread_ts":"1700000001.000100"},"response_url":"` + fs.responseURL("btn") + `",` +
		`"actions":[{"type":"button","action_id":"oracle_ask_0","block_id":"oracle_examples","value":"What's Garnet's peak throughput?"}]}`
	form := "payload=" + urlEscape(payload)
	if resp := h.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form)); resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	c := fs.waitFor("chat.postMessage")
	if c.Form.Get("thread_ts") != "1700000001.000100" {
		t.Fatalf("the button's answer left its thread: %v", c.Form)
	}
	if m := fb.messages(); len(m) != 1 || m[0].Thread != "conv-1" {
		t.Fatalf("the button's question lost the thread's memory: %+v", m)
	}
}

func TestAnAnswerSlackRefusesIsToldToTheAsker(t *testing.T) {
	fs := newFakeSlack(t)
	fs.failNext("chat.postMessage", failure{slackErr: "msg_blocks_too_long"})
	h := newHarness(t, fs, newMemStore(), newFakeBot())
	h.event(mentionEvent("Ev1", "C1", "U7", "1700000001.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	c := fs.waitFor("chat.postEphemeral")
	if c.Form.Get("user") != "U7" || !strings.Contains(c.textOf(t), "Slack would not take my answer") {
		t.Fatalf("the asker was not told: %v\n%s", c.Form, c.textOf(t))
	}
}
