package discord

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestAMentionStartsAThreadAndAFollowUpThereIsAnsweredWithItsContext(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil, func(c *Config) { c.MessageContent = true })
	fd := h.fd

	fd.dispatch("MESSAGE_CREATE", messageEvent("1001", "100", "700", human, "<@900> How does Dragonfly scale?", "900"))
	th := fd.waitFor(t, "a thread started from the mention", is(http.MethodPost, "/channels/100/messages/1001/threads"))
	if th.JSON["name"] != "How does Dragonfly scale?" {
		t.Errorf("thread name %q, want the question", th.JSON["name"])
	}
	first := fd.waitFor(t, "the answer in the thread", isMessagePost("1001"))
	embeds := embedsOf(t, first)
	if len(embeds) == 0 || embeds[0]["title"] != "Measured answer" {
		t.Fatalf("answer embeds %v, want a titled embed", embeds)
	}
	if d := descriptions(t, first); !strings.Contains(d, "Answer to “How does Dragonfly scale?”") {
		t.Errorf("answer description %q does not carry the answer", d)
	}

	// A follow-up in the thread, without a mention.
	fd.dispatch("MESSAGE_CREATE", messageEvent("1002", "1001", "700", human, "what about Valkey?"))
	second := fd.waitFor(t, "the follow-up answer in the thread", isMessagePost("1001"))
	if d := descriptions(t, second); !strings.Contains(d, "following up on “How does Dragonfly scale?”") {
		t.Errorf("follow-up answer %q was not answered with the thread's context", d)
	}
	wantMessages(t, h.h.messages(),
		bot.Message{Platform: "discord", Channel: "100", Thread: "1001", User: "300", Text: "How does Dragonfly scale?"},
		bot.Message{Platform: "discord", Channel: "100", Thread: "1001", User: "300", Text: "what about Valkey?"},
	)
}

func TestAThreadTheBotStartedBeforeARestartIsRecognisedByItsOwner(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil, func(c *Config) { c.MessageContent = true })
	fd := h.fd
	fd.addChannel("2002", 11, "100", fd.selfID) // started by the bot, unknown to this process
	fd.addChannel("2003", 11, "100", "300")     // started by a person

	fd.dispatch("MESSAGE_CREATE", messageEvent("1003", "2003", "700", human, "a chat between people"))
	fd.dispatch("MESSAGE_CREATE", messageEvent("1004", "2002", "700", human, "and at 24 cores?"))
	fd.waitFor(t, "the channel lookup", is(http.MethodGet, "/channels/2002"))
	fd.waitFor(t, "the answer in the bot's thread", isMessagePost("2002"))
	wantMessages(t, h.h.messages(),
		bot.Message{Platform: "discord", Channel: "100", Thread: "2002", User: "300", Text: "and at 24 cores?"})
}

func TestTheSlashCommandIsDeferredThenEditedAndStartsAThread(t *testing.T) {
	t.Parallel()
	mh := newMemoryHandler(nil)
	h := startBot(t, mh, pngCharts{}, func(c *Config) { c.MessageContent = true })
	fd := h.fd
	mh.onHandle = func(bot.Message) {
		for _, r := range fd.requests() {
			if strings.HasSuffix(r.Path, "/interactions/5001/tok-1/callback") {
				return
			}
		}
		t.Error("the handler ran before the interaction was acknowledged")
	}
	mh.answer = func(m bot.Message, earlier []string) bot.Answer {
		a := echoAnswer(m, earlier)
		a.Chart = &bot.Chart{Title: "Throughput by cores", AltText: "Dragonfly climbs from 2.0M to 15.5M ops/s."}
		return a
	}

	h.command("5001", "tok-1", "100", "700", ptr("How does Dragonfly scale?"))
	cb := fd.waitFor(t, "the deferred response", is(http.MethodPost, "/interactions/5001/tok-1/callback"))
	if cb.JSON["type"] != float64(5) {
		t.Errorf("callback type %v, want 5 (deferred channel message)", cb.JSON["type"])
	}
	if data, _ := cb.JSON["data"].(map[string]any); data["flags"] != nil {
		t.Errorf("deferred response flags %v, want a public response", data["flags"])
	}
	orig := fd.waitFor(t, "reading the deferred response", is(http.MethodGet, "/webhooks/800/tok-1/messages/@original"))
	_ = orig
	edit := fd.waitFor(t, "the answer edited in", is(http.MethodPatch, "/webhooks/800/tok-1/messages/@original"))
	if d := descriptions(t, edit); !strings.Contains(d, "Answer to “How does Dragonfly scale?”") {
		t.Errorf("edited answer %q", d)
	}
	assertChartAttached(t, edit, "Dragonfly climbs from 2.0M to 15.5M ops/s.")
	th := fd.waitFor(t, "a thread from the answer", is(http.MethodPost, "/threads"))
	threadID := strings.Split(strings.TrimPrefix(th.Path, apiPath("/channels/100/messages/")), "/")[0]
	if threadID == "" || th.JSON["name"] != "How does Dragonfly scale?" {
		t.Fatalf("thread request %s %v", th.Path, th.JSON)
	}

	fd.dispatch("MESSAGE_CREATE", messageEvent("1005", threadID, "700", human, "and Valkey?"))
	follow := fd.waitFor(t, "the follow-up answer in the command's thread", isMessagePost(threadID))
	if d := descriptions(t, follow); !strings.Contains(d, "following up on “How does Dragonfly scale?”") {
		t.Errorf("follow-up answer %q lost the command's context", d)
	}
	wantMessages(t, mh.messages(),
		bot.Message{Platform: "discord", Channel: "100", Thread: threadID, User: "300", Text: "How does Dragonfly scale?"},
		bot.Message{Platform: "discord", Channel: "100", Thread: threadID, User: "300", Text: "and Valkey?"},
	)
}

func TestTheSlashCommandWithoutAQuestionShowsHelpOnlyToTheAsker(t *testing.T) {
	t.Parallel()
	mh := newMemoryHandler(func(m bot.Message, _ []string) bot.Answer { return helpAnswer() })
	h := startBot(t, mh, nil)
	fd := h.fd

	h.command("5002", "tok-2", "100", "700", nil)
	cb := fd.waitFor(t, "the deferred response", is(http.MethodPost, "/interactions/5002/tok-2/callback"))
	data, _ := cb.JSON["data"].(map[string]any)
	if data["flags"] != float64(64) {
		t.Errorf("deferred help flags %v, want 64 (ephemeral)", data["flags"])
	}
	edit := fd.waitFor(t, "the help edited in", is(http.MethodPatch, "/webhooks/800/tok-2/messages/@original"))
	if e := embedsOf(t, edit); len(e) == 0 || e[0]["title"] != "memdb-oracle help" {
		t.Errorf("help embeds %v", e)
	}
	wantMessages(t, mh.messages(), bot.Message{Platform: "discord", Channel: "100", User: "300", Text: "help"})
	for _, r := range fd.requests() {
		if strings.HasSuffix(r.Path, "/threads") {
			t.Errorf("help started a thread: %s", r.Path)
		}
	}
}

func TestAnEphemeralAnswerToTheCommandReplacesThePublicPlaceholder(t *testing.T) {
	t.Parallel()
	mh := newMemoryHandler(func(bot.Message, []string) bot.Answer {
		return bot.Answer{Kind: bot.KindRateLimited, Ephemeral: true,
			Headline: "You have asked 20 questions in the last hour; the next one is accepted in 4 minutes."}
	})
	h := startBot(t, mh, nil)
	h.command("5003", "tok-3", "100", "700", ptr("and at 8 cores?"))
	h.fd.waitFor(t, "the placeholder deleted", is(http.MethodDelete, "/webhooks/800/tok-3/messages/@original"))
	f := h.fd.waitFor(t, "a private follow-up", is(http.MethodPost, "/webhooks/800/tok-3"))
	if f.JSON["flags"] != float64(64) {
		t.Errorf("follow-up flags %v, want 64 (ephemeral)", f.JSON["flags"])
	}
}

func TestMessagesFromBotsAreIgnoredAndTheSessionUsesMinimalIntents(t *testing.T) {
	t.Parallel()
	mh := newMemoryHandler(nil)
	h := startBot(t, mh, nil)
	ident := <-h.fd.identify
	if got, want := ident["intents"], float64(1<<9|1<<12); got != want {
		t.Errorf("identify intents %v, want %v (guild messages and direct messages only)", got, want)
	}
	other := map[string]any{"id": "301", "username": "otherbot", "bot": true}
	self := map[string]any{"id": h.fd.selfID, "username": "oracle", "bot": true}
	h.fd.dispatch("MESSAGE_CREATE", messageEvent("1010", "100", "700", other, "<@900> how fast is Redis?", "900"))
	h.fd.dispatch("MESSAGE_CREATE", messageEvent("1011", "100", "700", self, "<@900> how fast is Redis?", "900"))
	h.fd.dispatch("MESSAGE_CREATE", messageEvent("1012", "100", "700", human, "<@900> how fast is Valkey?", "900"))
	h.fd.waitFor(t, "the answer to the person", isMessagePost("1012"))
	wantMessages(t, mh.messages(),
		bot.Message{Platform: "discord", Channel: "100", Thread: "1012", User: "300", Text: "how fast is Valkey?"})
}

func TestTheMessageContentIntentIsRequestedOnlyWhenConfigured(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil, func(c *Config) { c.MessageContent = true })
	ident := <-h.fd.identify
	if got, want := ident["intents"], float64(1<<9|1<<12|1<<15); got != want {
		t.Errorf("identify intents %v, want %v", got, want)
	}
}

func TestTheCommandIsRegisteredGloballyOrInTheConfiguredGuild(t *testing.T) {
	t.Parallel()
	global := startBot(t, newMemoryHandler(nil), nil)
	reg := global.fd.requests()[1]
	if reg.Path != apiPath("/applications/800/commands") || reg.JSON["name"] != "oracle" {
		t.Errorf("global registration %s %v", reg.Path, reg.JSON)
	}
	opts, _ := reg.JSON["options"].([]any)
	if len(opts) != 1 || opts[0].(map[string]any)["name"] != "question" || opts[0].(map[string]any)["type"] != float64(3) {
		t.Errorf("command options %v, want one string option named question", opts)
	}

	guild := startBot(t, newMemoryHandler(nil), nil, func(c *Config) { c.GuildID = "700"; c.Command = "ask-oracle" })
	reg = guild.fd.requests()[1]
	if reg.Path != apiPath("/applications/800/guilds/700/commands") || reg.JSON["name"] != "ask-oracle" {
		t.Errorf("guild registration %s %v", reg.Path, reg.JSON)
	}
}

func TestAQuestionWithEveryoneIsPostedWithMentionsDisabled(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil)
	q := "<@900> @everyone <@&555> is Dragonfly 25x faster than Redis?"
	h.fd.dispatch("MESSAGE_CREATE", messageEvent("1020", "100", "700", human, q, "900"))
	post := h.fd.waitFor(t, "the answer", isMessagePost("1020"))
	if d := descriptions(t, post); !strings.Contains(d, "@everyone") {
		t.Fatalf("the answer %q should repeat the question's @everyone to make the test meaningful", d)
	}
	am, _ := post.JSON["allowed_mentions"].(map[string]any)
	if parse, ok := am["parse"].([]any); !ok || len(parse) != 0 {
		t.Errorf("allowed_mentions %v, want {\"parse\": []}", am)
	}
}

func TestADroppedGatewayConnectionIsResumedAndAnsweringGoesOn(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil)
	h.fd.drop()
	select {
	case r := <-h.fd.resumes:
		if r["session_id"] != "fake-session" || r["token"] != "Bot test-token" {
			t.Errorf("resume %v, want the session id and the bot token", r)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("discordgo did not resume the session")
	}
	h.fd.dispatch("MESSAGE_CREATE", messageEvent("1030", "100", "700", human, "<@900> still there?", "900"))
	h.fd.waitFor(t, "an answer after the resume", isMessagePost("1030"))
}
