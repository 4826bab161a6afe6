package slack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestSlashCommandIsAcknowledgedWithinThreeSecondsThenAnsweredInTheChannel(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	fb.release = make(chan struct{}) // the bot is slow: it answers only when released
	h := newHarness(t, fs, newMemStore(), fb)

	start := time.Now()
	resp := h.command("C1", "U1", "Is Dragonfly 25x faster than Redis?", "T100")
	ack := time.Since(start)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ack >= 3*time.Second {
		t.Fatalf("slash command acknowledged after %v; Slack gives up at 3 s", ack)
	}
	var reply struct {
		ResponseType string `json:"response_type"`
		Text         string `json:"text"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	if reply.ResponseType != "ephemeral" || reply.Text != "Looking into: Is Dragonfly 25x faster than Redis?" {
		t.Fatalf("ack = %+v", reply)
	}
	t.Logf("acknowledged in %v while the bot was still working", ack)

	close(fb.release)
	posts := fs.waitAnswer()
	top := posts[0]
	if top.Form.Get("channel") != "C1" || top.Form.Get("thread_ts") != "" {
		t.Fatalf("answer not posted at the top of C1: %v", top.Form)
	}
	if top.Form.Get("token") != testBotToken {
		t.Error("the bot token was not used")
	}
	text := top.textOf(t)
	for _, want := range []string{"<@U1> asked:* Is Dragonfly 25x faster than Redis?", "Answer to: Is Dragonfly 25x faster than Redis?", "Show evidence"} {
		if !strings.Contains(text, want) {
			t.Errorf("top message lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "40.6M") {
		t.Errorf("the table is evidence, not the reply:\n%s", text)
	}
	if top.Form.Get("text") == "" {
		t.Error("no fallback text")
	}
	h.showEvidence(top, "U2")
	evidence := fs.waitEvidence()
	for _, details := range evidence {
		if details.Form.Get("thread_ts") != top.TS {
			t.Fatalf("evidence not in the answer's thread: %v", details.Form)
		}
	}
	if !strings.Contains(textOfAll(t, evidence), "40.6M") {
		t.Error("the evidence lacks the table")
	}
	if m := fb.messages(); len(m) != 1 || m[0].Platform != "slack" || m[0].Channel != "C1" || m[0].User != "U1" || m[0].Thread == "" {
		t.Fatalf("bot got %+v", m)
	}
}

func TestSlashCommandWhereTheBotIsNotInTheChannelAnswersThroughTheResponseURL(t *testing.T) {
	for _, refusal := range []string{"not_in_channel", "channel_not_found"} {
		t.Run("when Slack says "+refusal, func(t *testing.T) {
			fs := newFakeSlack(t)
			fs.refuse["CPRIV"] = refusal
			h := newHarness(t, fs, newMemStore(), newFakeBot())
			h.command("CPRIV", "U1", "Dragonfly at 8 cores", "T200")
			posts := fs.waitAnswer("response_url")
			for _, c := range posts {
				if c.JSON["response_type"] != "in_channel" || c.Form.Get("id") != "T200" {
					t.Fatalf("response URL call %+v", c.JSON)
				}
			}
			if !strings.Contains(posts[0].textOf(t), "Answer to: Dragonfly at 8 cores") {
				t.Error("the answer was not delivered through the response URL")
			}
			card := posts[0]
			card.Form = url.Values{"channel": {"CPRIV"}}
			card.JSON = map[string]any{"blocks": posts[0].JSON["blocks"]}
			card.TS = "1700000000.000042"
			h.showEvidence(card, "U1")
			evidence := fs.waitFor("response_url")
			for !strings.Contains(evidence.textOf(t), "*Sources*") {
				evidence = fs.waitFor("response_url")
			}
			if len(fs.callsOf("chat.postMessage")) != 0 {
				t.Error("a post went through although the channel refused")
			}
		})
	}
}

func TestSlashHelpAndAnEmptyCommandGiveEphemeralHelp(t *testing.T) {
	for _, text := range []string{"help", "", "  HELP "} {
		t.Run("for /oracle "+strings.TrimSpace(text), func(t *testing.T) {
			fs := newFakeSlack(t)
			fb := newFakeBot()
			fb.answer = func(bot.Message) bot.Answer { return helpAnswer() }
			h := newHarness(t, fs, newMemStore(), fb)
			resp := h.command("C1", "U1", text, "T300")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK || len(body) != 0 {
				t.Fatalf("ack %d %q", resp.StatusCode, body)
			}
			c := fs.waitFor("response_url", "chat.postMessage")
			if c.Method != "response_url" || c.JSON["response_type"] != "ephemeral" {
				t.Fatalf("help not ephemeral: %s %+v", c.Method, c.JSON)
			}
			if !strings.Contains(c.textOf(t), "Is Dragonfly 25x faster than Redis?") {
				t.Error("help lacks its example questions")
			}
			if m := fb.messages(); len(m) != 1 || m[0].Text != "help" {
				t.Fatalf("bot got %+v", m)
			}
		})
	}
}

func TestMentionIsAnsweredInAThreadUnderTheMention(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	resp := h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> what about valkey &amp; redis?"))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	posts := fs.waitAnswer()
	for _, p := range posts {
		if p.Form.Get("thread_ts") != "1700000001.000100" || p.Form.Get("channel") != "C1" {
			t.Fatalf("answer not in the mention's thread: %v", p.Form)
		}
	}
	m := fb.messages()
	if len(m) != 1 || m[0].Text != "what about valkey & redis?" || m[0].Thread != "1700000001.000100" {
		t.Fatalf("bot got %+v", m)
	}
}

func TestFollowUpInAThreadWithoutMentionContinuesTheConversation(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	fs.waitAnswer()

	h.event(messageEvent("Ev2", "C1", "channel", "U2", "1700000002.000100", "1700000001.000100", "what about valkey?", ""))
	followUp := fs.waitFor("chat.postMessage")
	if followUp.Form.Get("thread_ts") != "1700000001.000100" {
		t.Fatalf("follow-up answered outside the thread: %v", followUp.Form)
	}
	if !strings.Contains(followUp.textOf(t), "“Dragonfly at 8 cores” kept from the previous question") {
		t.Errorf("the answer does not show what it inherited:\n%s", followUp.textOf(t))
	}
	m := fb.messages()
	if len(m) != 2 || m[1].Thread != m[0].Thread || m[1].Text != "what about valkey?" {
		t.Fatalf("bot got %+v", m)
	}
}

func TestFollowUpInASlashAnswersThreadContinuesThatConversation(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	h.command("C1", "U1", "Dragonfly at 8 cores", "T400")
	top := fs.waitAnswer()[0]
	h.event(messageEvent("Ev3", "C1", "channel", "U1", "1700000099.000100", top.TS, "and the p99?", ""))
	followUp := fs.waitFor("chat.postMessage")
	if followUp.Form.Get("thread_ts") != top.TS || !strings.Contains(followUp.textOf(t), "“Dragonfly at 8 cores” kept from the previous question") {
		t.Fatalf("follow-up in the slash answer's thread lost its context: %v\n%s", followUp.Form, followUp.textOf(t))
	}
}

func TestMessagesTheBotMustNotAnswerAreIgnored(t *testing.T) {
	tests := []struct{ name, body string }{
		{"a message from another bot", messageEvent("Ev10", "C1", "channel", "U9", "1.2", "1700000001.000100", "hi", `,"bot_id":"B9"`)},
		{"the bot's own message", messageEvent("Ev11", "C1", "channel", "UBOT", "1.3", "1700000001.000100", "my own answer", "")},
		{"a mention by a bot", mentionEvent("Ev12", "C1", "U9", "1.4", "", "<@UBOT> hi") + ""},
		{"an edit", messageEvent("Ev13", "C1", "channel", "U1", "1.5", "1700000001.000100", "edited", `,"subtype":"message_changed"`)},
		{"a thread the bot is not in", messageEvent("Ev14", "C1", "channel", "U1", "1.6", "1699999999.000001", "unrelated chat", "")},
		{"a top-level channel message", messageEvent("Ev15", "C1", "channel", "U1", "1.7", "", "lunch?", "")},
		{"a follow-up that mentions the bot (app_mention answers it)", messageEvent("Ev16", "C1", "channel", "U1", "1.8", "1700000001.000100", "<@UBOT> again", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name+" gets no answer", func(t *testing.T) {
			fs := newFakeSlack(t)
			fb := newFakeBot()
			h := newHarness(t, fs, newMemStore(), fb)
			h.a.markThread(t.Context(), "C1", "1700000001.000100", "1700000001.000100")
			body := tt.body
			if strings.Contains(tt.name, "mention by a bot") {
				body = strings.Replace(body, `"user":"U9"`, `"user":"U9","bot_id":"B9"`, 1)
			}
			h.event(body)
			// A real question in the same channel afterwards: the worker
			// answers a channel's questions in order, so once it is
			// answered the ignored message would have been too.
			h.event(mentionEvent("EvSentinel", "C1", "U1", "1700000050.000100", "", "<@UBOT> sentinel"))
			fs.waitFor("chat.postMessage")
			if m := fb.messages(); len(m) != 1 || m[0].Text != "sentinel" {
				t.Fatalf("bot got %+v", m)
			}
		})
	}
}

func TestTheSameEventIsAnsweredOnceEvenAcrossARestart(t *testing.T) {
	fs := newFakeSlack(t)
	store := newMemStore()
	fb := newFakeBot()
	first := newHarness(t, fs, store, fb)
	ev := mentionEvent("EvDup", "C1", "U1", "1700000001.000100", "", "<@UBOT> Dragonfly at 8 cores")
	first.event(ev)
	first.event(ev, "X-Slack-Retry-Num", "1", "X-Slack-Retry-Reason", "http_timeout")
	fs.waitAnswer()
	first.stop()

	second := newHarness(t, fs, store, fb) // a restart on the same store
	if resp := second.event(ev, "X-Slack-Retry-Num", "2", "X-Slack-Retry-Reason", "http_timeout"); resp.StatusCode != http.StatusOK {
		t.Fatalf("retry not acknowledged: %d", resp.StatusCode)
	}
	second.event(mentionEvent("EvSentinel", "C1", "U1", "1700000050.000100", "", "<@UBOT> sentinel"))
	fs.waitFor("chat.postMessage")
	var texts []string
	for _, m := range fb.messages() {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, "|") != "Dragonfly at 8 cores|sentinel" {
		t.Fatalf("bot asked %q; the duplicate event must be answered once", texts)
	}
}

func TestUnsignedWronglySignedAndStaleRequestsAreRejectedWithoutTouchingTheBot(t *testing.T) {
	body := mentionEvent("EvBad", "C1", "U1", "1.1", "", "<@UBOT> hi")
	stale := time.Now().Add(-6 * time.Minute)
	tests := []struct {
		name string
		hdr  http.Header
		body string
	}{
		{"unsigned", http.Header{}, body},
		{"signed with the wrong secret", signed("not-the-secret", time.Now(), body), body},
		{"signed correctly but stale (6 minutes old)", signed(testSecret, stale, body), body},
		{"signed for another body", signed(testSecret, time.Now(), body), strings.Replace(body, "hi", "bye", 1)},
		{"with a malformed signature", http.Header{"X-Slack-Signature": {"v0=zz"}, "X-Slack-Request-Timestamp": {"1"}}, body},
	}
	for _, path := range []string{EventsPath, CommandsPath, InteractivityPath} {
		for _, tt := range tests {
			t.Run(path+" "+tt.name+" is 401", func(t *testing.T) {
				fs := newFakeSlack(t)
				fb := newFakeBot()
				h := newHarness(t, fs, newMemStore(), fb)
				resp := h.send(path, "application/json", tt.body, tt.hdr)
				if resp.StatusCode != http.StatusUnauthorized {
					t.Fatalf("status %d", resp.StatusCode)
				}
				h.stop()
				if len(fb.messages()) != 0 || len(fs.callsOf("chat.postMessage")) != 0 || len(h.store.kv) != 0 {
					t.Fatal("a rejected request reached the bot, Slack or the store")
				}
			})
		}
	}
}

func TestAnOversizeBodyIsRefusedBeforeVerification(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb, func(c *Config) { c.MaxBody = 1024 })
	body := strings.Repeat("x", 4096)
	resp := h.send(EventsPath, "application/json", body, signed(testSecret, time.Now(), body))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestURLVerificationChallengeIsAnswered(t *testing.T) {
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), newFakeBot())
	resp := h.event(`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`)
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(got) != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Fatalf("%d %q", resp.StatusCode, got)
	}
}

func TestAnOversizeAnswerIsSplitAcrossMessagesInTheThreadWithinLimits(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer { return hugeAnswer() }
	h := newHarness(t, fs, newMemStore(), fb)
	h.command("C1", "U1", "everything at once", "T500")
	want := len(evidenceMessages(hugeAnswer(), shown{})) + 1
	card := fs.waitFor("chat.postMessage")
	h.showEvidence(card, "U1")
	posts := []call{card}
	for range want - 1 {
		posts = append(posts, fs.waitFor("chat.postMessage"))
	}
	if want < 3 {
		t.Fatalf("the huge answer should need several messages, got %d", want)
	}
	var all strings.Builder
	for i, c := range posts {
		if (i == 0) != (c.Form.Get("thread_ts") == "") || (i > 0 && c.Form.Get("thread_ts") != posts[0].TS) {
			t.Fatalf("message %d: thread_ts %q; the first goes to the channel, the rest in its thread", i, c.Form.Get("thread_ts"))
		}
		blocks := c.blocksOf(t)
		if len(blocks) > maxBlocks || c.Form.Get("text") == "" {
			t.Fatalf("message %d: %d blocks, text %q", i, len(blocks), c.Form.Get("text"))
		}
		for _, b := range blocks {
			if tx, ok := b["text"].(map[string]any); ok && len([]rune(tx["text"].(string))) > maxSectionText {
				t.Fatalf("message %d: section over %d characters", i, maxSectionText)
			}
		}
		all.WriteString(c.textOf(t))
	}
	if !strings.Contains(all.String(), "series-row-599") || !strings.Contains(all.String(), "paragraph-79 end.") {
		t.Fatal("content was cut instead of split")
	}
}

func TestSlackRateLimitsAndOutagesAreRetried(t *testing.T) {
	fs := newFakeSlack(t)
	fs.failNext("chat.postMessage", failure{status: http.StatusTooManyRequests, retryAfter: "7"}, failure{status: http.StatusServiceUnavailable}, failure{slackErr: "internal_error"})
	h := newHarness(t, fs, newMemStore(), newFakeBot())
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	c := fs.waitFor("chat.postMessage")
	if c.Form.Get("thread_ts") != "1700000001.000100" {
		t.Fatal("answer not posted after the retries")
	}
	if n := len(fs.callsOf("chat.postMessage (failed)")); n != 3 {
		t.Fatalf("%d failed attempts, want 3", n)
	}
	got := h.sleeps.all()
	// Backoff steps of 1s and 2s, each jittered between half and all of it.
	if len(got) != 3 || got[0] != 7*time.Second || got[1] < time.Second/2 || got[1] > time.Second || got[2] < time.Second || got[2] > 2*time.Second {
		t.Fatalf("waits %v; want Retry-After's 7s, then backoff of about 1s and 2s", got)
	}
}

func TestAPostThatKeepsFailingIsLoggedWithTheQuestion(t *testing.T) {
	fs := newFakeSlack(t)
	var fails []failure
	for range 10 {
		fails = append(fails, failure{status: http.StatusBadGateway})
	}
	fs.failNext("chat.postMessage", fails...)
	h := newHarness(t, fs, newMemStore(), newFakeBot(), func(c *Config) { c.Retries = 2 })
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> is anyone there?"))
	fs.waitFor("chat.postMessage (failed)")
	fs.waitFor("chat.postMessage (failed)")
	fs.waitFor("chat.postMessage (failed)")
	h.stop()
	logs := h.logs.String()
	if !strings.Contains(logs, "question not answered") || !strings.Contains(logs, "is anyone there?") {
		t.Fatalf("the lost question was not logged:\n%s", logs)
	}
	if strings.Contains(logs, testBotToken) || strings.Contains(logs, testSecret) {
		t.Fatal("a secret reached the logs")
	}
}

func TestErrorsAndRateLimitNoticesAreShownOnlyToTheAsker(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer {
		return bot.Answer{Kind: bot.KindRateLimited, Headline: "You have asked 20 questions in the last hour; the limit resets at 14:00 UTC."}
	}
	h := newHarness(t, fs, newMemStore(), fb)
	h.event(mentionEvent("Ev1", "C1", "U7", "1700000001.000100", "", "<@UBOT> again"))
	c := fs.waitFor("chat.postEphemeral", "chat.postMessage")
	if c.Method != "chat.postEphemeral" || c.Form.Get("user") != "U7" || c.Form.Get("thread_ts") != "1700000001.000100" {
		t.Fatalf("%s %v", c.Method, c.Form)
	}
}

func TestADirectMessageIsOneConversationPerDM(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	h.event(messageEvent("Ev1", "D1", "im", "U1", "1700000001.000100", "", "Dragonfly at 8 cores", ""))
	posts := fs.waitAnswer()
	top := posts[0]
	if top.Form.Get("channel") != "D1" || top.Form.Get("thread_ts") != "" {
		t.Fatalf("DM answer %v", top.Form)
	}
	h.showEvidence(top, "U1")
	if ev := fs.waitEvidence(); ev[len(ev)-1].Form.Get("thread_ts") != top.TS {
		t.Fatal("sources not in the answer's thread")
	}
	h.event(messageEvent("Ev2", "D1", "im", "U1", "1700000003.000100", "", "what about valkey?", ""))
	next := fs.waitFor("chat.postMessage")
	if !strings.Contains(next.textOf(t), "“Dragonfly at 8 cores” kept from the previous question") {
		t.Fatalf("the DM's second message lost the conversation:\n%s", next.textOf(t))
	}
	if m := fb.messages(); m[0].Thread != "D1" || m[1].Thread != "D1" {
		t.Fatalf("bot got %+v", m)
	}
}

func TestAnExampleButtonInHelpAsksItsQuestion(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	h := newHarness(t, fs, newMemStore(), fb)
	payload := `{"type":"block_actions","trigger_id":"TR1","user":{"id":"U1"},"channel":{"id":"C1"},"response_url":"` + fs.responseURL("btn") + `",` +
		`"actions":[{"type":"button","action_id":"oracle_ask_2","block_id":"oracle_examples","value":"What's Garnet's peak throughput?"}]}`
	form := "payload=" + urlEscape(payload)
	resp := h.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	c := fs.waitFor("chat.postMessage")
	if !strings.Contains(c.textOf(t), "<@U1> asked:* What's Garnet's peak throughput?") {
		t.Fatalf("button question not asked in the channel:\n%s", c.textOf(t))
	}
}

// A flood of forged requests — 10,000 bad signatures from ten sources,
// well inside ten seconds — is counted exactly and logs a line per source,
// not a line a request.
func TestAFloodOfBadSignaturesIsCountedExactlyAndLoggedSampled(t *testing.T) {
	var logs bytes.Buffer
	a, err := New(Config{BotToken: NewSecret(testBotToken), SigningSecret: NewSecret(testSecret),
		Handler: newFakeBot(), Store: newMemStore(), Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	if err := a.Mount(mux); err != nil {
		t.Fatal(err)
	}
	body := `{"type":"event_callback"}`
	hdr := signed("not-the-secret", time.Now(), body)
	start := time.Now()
	for i := range 10_000 {
		req := httptest.NewRequest(http.MethodPost, EventsPath, strings.NewReader(body))
		req.Header = hdr.Clone()
		req.RemoteAddr = fmt.Sprintf("203.0.113.%d:4000", i%10)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("request %d: %d", i, rec.Code)
		}
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Logf("the flood took %v (a slow machine); the sampling is per minute either way", took)
	}
	if a.Rejected() != 10_000 {
		t.Errorf("counted %d rejections, want 10000", a.Rejected())
	}
	if n := strings.Count(logs.String(), "slack request rejected"); n > 20 || n == 0 {
		t.Errorf("%d log lines for 10,000 rejections, want at most 20", n)
	}
}

func TestAReplayedButtonClickIsAnsweredOnce(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	store := newMemStore()
	h := newHarness(t, fs, store, fb)
	other := newHarness(t, fs, store, fb) // a second replica on the same store
	click := func(trigger, actionTS string) string {
		payload := `{"type":"block_actions","trigger_id":"` + trigger + `","user":{"id":"U1"},"channel":{"id":"C1"},"response_url":"` + fs.responseURL("btn") + `",` +
			`"actions":[{"type":"button","action_id":"oracle_ask_2","block_id":"oracle_examples","action_ts":"` + actionTS + `","value":"What's Garnet's peak throughput?"}]}`
		return "payload=" + urlEscape(payload)
	}
	for _, hh := range []*harness{h, h, other} {
		form := click("TR1", "1700000000.1")
		if resp := hh.send(InteractivityPath, "application/x-www-form-urlencoded", form, signed(testSecret, time.Now(), form)); resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	fresh := click("TR2", "1700000001.1")
	h.send(InteractivityPath, "application/x-www-form-urlencoded", fresh, signed(testSecret, time.Now(), fresh))
	fs.waitAnswer()
	fs.waitAnswer()
	h.stop()
	other.stop()
	if n := len(fb.messages()); n != 2 {
		t.Fatalf("the bot was asked %d times; want the replayed click once and the fresh one once", n)
	}
}
