package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// event decodes a gateway payload the way discordgo does.
func event(t testing.TB, payload map[string]any) *discordgo.Message {
	t.Helper()
	var m discordgo.Message
	if err := json.Unmarshal(mustJSON(payload), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func TestWhichMessagesAreAnswered(t *testing.T) {
	t.Parallel()
	bot1 := map[string]any{"id": "301", "username": "otherbot", "bot": true}
	self := map[string]any{"id": "900", "username": "oracle", "bot": true}
	tests := []struct {
		name  string
		msg   map[string]any
		setup func(fd *fakeDiscord)
		want  []bot.Message
	}{
		{name: "a mention in a channel is answered in a new thread",
			msg:  messageEvent("1", "100", "700", human, "<@900> what is pipelining?", "900"),
			want: []bot.Message{{Platform: "discord", Channel: "100", Thread: "1", User: "300", Text: "what is pipelining?"}}},
		{name: "a mention written as <@!id> counts too",
			msg:  messageEvent("1", "100", "700", human, "<@!900> what is pipelining?", "900"),
			want: []bot.Message{{Platform: "discord", Channel: "100", Thread: "1", User: "300", Text: "what is pipelining?"}}},
		{name: "a bare mention asks for help",
			msg:  messageEvent("1", "100", "700", human, "<@900>", "900"),
			want: []bot.Message{{Platform: "discord", Channel: "100", Thread: "1", User: "300", Text: "help"}}},
		{name: "a message from another bot is ignored",
			msg: messageEvent("1", "100", "700", bot1, "<@900> what is pipelining?", "900")},
		{name: "the bot's own message is ignored",
			msg: messageEvent("1", "100", "700", self, "<@900> what is pipelining?", "900")},
		{name: "a channel message without a mention is ignored",
			msg: messageEvent("1", "100", "700", human, "what is pipelining?")},
		{name: "a message in someone else's thread without a mention is ignored",
			setup: func(fd *fakeDiscord) { fd.addChannel("40", 11, "100", "300") },
			msg:   messageEvent("1", "40", "700", human, "what is pipelining?")},
		{name: "a mention in someone else's thread is answered there with its memory",
			setup: func(fd *fakeDiscord) { fd.addChannel("40", 11, "100", "300") },
			msg:   messageEvent("1", "40", "700", human, "<@900> what is pipelining?", "900"),
			want:  []bot.Message{{Platform: "discord", Channel: "100", Thread: "40", User: "300", Text: "what is pipelining?"}}},
		{name: "a message in the bot's thread is answered without a mention",
			setup: func(fd *fakeDiscord) { fd.addChannel("41", 11, "100", "900") },
			msg:   messageEvent("1", "41", "700", human, "and at 8 cores?"),
			want:  []bot.Message{{Platform: "discord", Channel: "100", Thread: "41", User: "300", Text: "and at 8 cores?"}}},
		{name: "an empty message in the bot's thread (no message-content intent) is ignored",
			setup: func(fd *fakeDiscord) { fd.addChannel("41", 11, "100", "900") },
			msg:   messageEvent("1", "41", "700", human, "")},
		{name: "a direct message is one conversation per DM channel",
			msg:  messageEvent("1", "55", "", human, "how fast is KeyDB?"),
			want: []bot.Message{{Platform: "discord", Channel: "55", Thread: "55", User: "300", Text: "how fast is KeyDB?"}}},
		{name: "a system message (thread created) is ignored",
			msg: func() map[string]any {
				m := messageEvent("1", "100", "700", human, "<@900> what is pipelining?", "900")
				m["type"] = 18
				return m
			}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newMemoryHandler(nil)
			a, fd := restOnly(t, h, nil)
			if tt.setup != nil {
				tt.setup(fd)
			}
			a.onMessage(t.Context(), event(t, tt.msg))
			wantMessages(t, h.messages(), tt.want...)
			posts := 0
			for _, r := range fd.requests() {
				if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/messages") {
					posts++
				}
			}
			if posts != len(tt.want) {
				t.Errorf("%d messages posted, want %d:\n%s", posts, len(tt.want), fd.summary())
			}
		})
	}
}

func TestWithoutThreadPermissionTheBotAnswersInPlaceAndSaysSoOnce(t *testing.T) {
	t.Parallel()
	h := newMemoryHandler(nil)
	a, fd := restOnly(t, h, nil)
	fd.failNext(2, is(http.MethodPost, "/threads"), http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)

	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	first := fd.waitFor(t, "the answer in the channel", isMessagePost("100"))
	if contentOf(first) != noticeNoThreads {
		t.Errorf("first in-place answer content %q, want the notice", contentOf(first))
	}
	ref, _ := first.JSON["message_reference"].(map[string]any)
	if ref["message_id"] != "1001" || ref["fail_if_not_exists"] != false {
		t.Errorf("message_reference %v, want a reply to 1001 that posts even if it is gone", ref)
	}
	if d := descriptions(t, first); !strings.Contains(d, "Answer to “how fast is Redis?”") {
		t.Errorf("answer %q", d)
	}

	a.onMessage(t.Context(), event(t, messageEvent("1002", "100", "700", human, "<@900> and Valkey?", "900")))
	second := fd.waitFor(t, "the second answer in the channel", isMessagePost("100"))
	if c := contentOf(second); c != "" {
		t.Errorf("second in-place answer repeats the notice: %q", c)
	}
	wantMessages(t, h.messages(),
		bot.Message{Platform: "discord", Channel: "100", Thread: "1001", User: "300", Text: "how fast is Redis?"},
		bot.Message{Platform: "discord", Channel: "100", Thread: "1002", User: "300", Text: "and Valkey?"})
}

func TestWithoutPermissionToPostInThreadsTheAnswerGoesToTheChannel(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, newMemoryHandler(nil), nil)
	fd.failNext(1, isMessagePost("1001"), http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	post := fd.waitFor(t, "the answer in the channel", isMessagePost("100"))
	if contentOf(post) != noticeNoThreadPost {
		t.Errorf("content %q, want the notice", contentOf(post))
	}
}

func TestAThreadAlreadyStartedFromTheMessageIsReused(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, newMemoryHandler(nil), nil)
	fd.addChannel("1001", 11, "100", "900")
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	fd.waitFor(t, "the answer in the existing thread", isMessagePost("1001"))
}

func TestAnOversizeAnswerIsSplitAcrossMessagesWithinDiscordsLimits(t *testing.T) {
	t.Parallel()
	big := hugeAnswer()
	a, fd := restOnly(t, newMemoryHandler(func(bot.Message, []string) bot.Answer { return big }), nil)
	want := len(evidenceMessages(big, ""))
	if want < 3 {
		t.Fatalf("the test answer's evidence renders as %d messages; make it bigger", want)
	}
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> tell me everything", "900")))
	card := fd.waitFor(t, "the card", isMessagePost("1001"))
	a.onComponent(t.Context(), &discordgo.Interaction{ID: "i1", AppID: "800", Token: "tok", Type: discordgo.InteractionMessageComponent,
		ChannelID: "1001", GuildID: "700", Message: &discordgo.Message{ID: "card-1"},
		Data: discordgo.MessageComponentInteractionData{CustomID: evidencePrefix + bot.NewCard(big).ID, ComponentType: discordgo.ButtonComponent}})
	if n := len(buttonsOf(card)); n == 0 {
		t.Fatal("the card has no buttons")
	}
	var text strings.Builder
	for i := range want {
		r := fd.waitFor(t, "part of the answer", isMessagePost("1001"))
		var embeds []*discordgo.MessageEmbed
		if err := json.Unmarshal(mustJSON(r.JSON["embeds"]), &embeds); err != nil {
			t.Fatal(err)
		}
		checkLimits(t, "message "+string(rune('1'+i)), embeds)
		for _, e := range embeds {
			text.WriteString(e.Description)
			for _, f := range e.Fields {
				text.WriteString(f.Value)
			}
		}
	}
	all := strings.ReplaceAll(text.String(), "\n", "")
	pos := 0
	for i, p := range big.Body {
		at := strings.Index(all[pos:], strings.ReplaceAll(p, "\n", ""))
		if at < 0 {
			t.Fatalf("body paragraph %d is missing or out of order", i)
		}
		pos += at
	}
	for _, c := range big.Caveats {
		if !strings.Contains(all, c) {
			t.Errorf("caveat %.30q… is missing", c)
		}
	}
	for _, row := range big.Table.Rows {
		if !strings.Contains(all, row[0]) {
			t.Errorf("table row %q is missing", row[0])
		}
	}
}

func TestAHandlerPanicBecomesAnErrorAnswerAndTheNextMessageIsAnswered(t *testing.T) {
	t.Parallel()
	h := newMemoryHandler(func(m bot.Message, e []string) bot.Answer {
		if m.Text == "boom" {
			panic("planner bug")
		}
		return echoAnswer(m, e)
	})
	a, fd := restOnly(t, h, nil)
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> boom", "900")))
	// An error is a notice: answered in place, no public thread opened.
	r := fd.waitFor(t, "the error answer", isMessagePost("100"))
	if e := embedsOf(t, r); e[0]["title"] != "Something went wrong" {
		t.Errorf("error answer title %v", e[0]["title"])
	}
	a.onMessage(t.Context(), event(t, messageEvent("1002", "100", "700", human, "<@900> how fast is Redis?", "900")))
	fd.waitFor(t, "the next answer", isMessagePost("1002"))
}

func TestAPanicWhileHandlingAnEventIsRecovered(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, newMemoryHandler(nil), nil)
	// An application command whose data is of another kind makes discordgo's
	// accessor panic: recovered, not fatal, and the asker is told the
	// reference of the log line.
	a.onInteraction(t.Context(), &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ModalSubmitInteractionData{}})
	r := fd.waitFor(t, "the failure notice", func(r *request) bool { return strings.HasSuffix(r.Path, "/callback") })
	data, _ := r.JSON["data"].(map[string]any)
	if content, _ := data["content"].(string); !strings.HasPrefix(content, "Something went wrong while answering, ref ") {
		t.Fatalf("the asker was told %v", r.JSON)
	}
}

func TestTheChartIsAttachedToTheAnswerWithAltText(t *testing.T) {
	t.Parallel()
	chartAnswer := func(m bot.Message, e []string) bot.Answer {
		ans := echoAnswer(m, e)
		ans.Chart = &bot.Chart{Title: "ops/s by cores", AltText: "Dragonfly rises from 2.0M ops/s at 4 cores to 15.5M at 48."}
		return ans
	}
	t.Run("in the answer's thread", func(t *testing.T) {
		t.Parallel()
		a, fd := restOnly(t, newMemoryHandler(chartAnswer), pngCharts{})
		a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how does Dragonfly scale?", "900")))
		r := fd.waitFor(t, "the answer with its chart", isMessagePost("1001"))
		assertChartAttached(t, r, "Dragonfly rises from 2.0M ops/s at 4 cores to 15.5M at 48.")
	})
	t.Run("without Attach Files the answer goes out without it, said once", func(t *testing.T) {
		t.Parallel()
		a, fd := restOnly(t, newMemoryHandler(chartAnswer), pngCharts{})
		withFile := func(r *request) bool { return isMessagePost("1001")(r) && len(r.Files) > 0 }
		fd.failNext(1, withFile, http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)
		a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how does Dragonfly scale?", "900")))
		fd.waitFor(t, "the refused upload", isMessagePost("1001"))
		r := fd.waitFor(t, "the answer without the chart", isMessagePost("1001"))
		if len(r.Files) != 0 || embedsOf(t, r)[0]["image"] != nil {
			t.Errorf("the retry still carries the chart")
		}
		if c := contentOf(r); !strings.HasSuffix(c, noticeNoChart) && !strings.HasPrefix(c, noticeNoChart) {
			t.Errorf("content %q, want the notice", contentOf(r))
		}
	})
	t.Run("a chart that fails to draw leaves the text answer", func(t *testing.T) {
		t.Parallel()
		a, fd := restOnly(t, newMemoryHandler(chartAnswer), brokenCharts{})
		a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how does Dragonfly scale?", "900")))
		r := fd.waitFor(t, "the answer", isMessagePost("1001"))
		if len(r.Files) != 0 || embedsOf(t, r)[0]["image"] != nil {
			t.Errorf("an undrawn chart was referenced")
		}
	})
}

func TestTheBotsOwnThreadsAreRememberedWithoutALookup(t *testing.T) {
	t.Parallel()
	a, fd := restOnly(t, newMemoryHandler(nil), nil)
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	a.onMessage(context.Background(), event(t, messageEvent("1002", "1001", "700", human, "and Valkey?")))
	for _, r := range fd.requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/channels/1001") {
			t.Errorf("looked up a thread the bot started itself")
		}
	}
}

// Discord may deliver one MESSAGE_CREATE twice (replayed after a RESUME, or
// to two replicas while the gateway lease changes hands): it is answered
// once, also when the second delivery reaches another adapter sharing the
// store.
func TestAReplayedMessageIsAnsweredOnce(t *testing.T) {
	t.Parallel()
	shared := newRecentDeliveries()
	h := newMemoryHandler(nil)
	first, fd := restOnly(t, h, nil)
	first.cfg.Deliveries = shared
	second, err := New(Config{Token: "test-token", AppID: "800", HTTPClient: fd.serve(), Deliveries: shared}, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	second.s.State.User = first.s.State.User

	msg := func(id string) *discordgo.Message {
		return event(t, messageEvent(id, "100", "", human, "how fast is Redis?"))
	}
	first.onMessage(t.Context(), msg("2001"))
	first.onMessage(t.Context(), msg("2001"))  // a replay after RESUME
	second.onMessage(t.Context(), msg("2001")) // the same event on the next lease holder
	first.onMessage(t.Context(), msg("2002"))  // a new message is still answered
	fd.waitFor(t, "the answer to the new message", func(r *request) bool {
		return isMessagePost("100")(r) && strings.Contains(descriptions(t, r), "how fast is Redis?") && len(h.messages()) == 2
	})
	if got := len(h.messages()); got != 2 {
		t.Errorf("the handler was asked %d times, want 2 (one per distinct message)", got)
	}
	posts := 0
	for _, r := range fd.requests() {
		if isMessagePost("100")(r) {
			posts++
		}
	}
	if posts != 2 {
		t.Errorf("%d answers posted, want 2:\n%s", posts, fd.summary())
	}
}
