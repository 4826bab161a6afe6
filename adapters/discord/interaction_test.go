package discord

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// interaction decodes a command payload the way discordgo does, and tells
// the fake which channel its token belongs to.
func interaction(t testing.TB, fd *fakeDiscord, id, token, channel, guild string, question *string) *discordgo.Interaction {
	t.Helper()
	fd.mu.Lock()
	fd.tokenChan[token] = channel
	fd.mu.Unlock()
	var i discordgo.Interaction
	if err := json.Unmarshal(mustJSON(commandEvent(id, token, channel, guild, question)), &i); err != nil {
		t.Fatal(err)
	}
	return &i
}

func paths(fd *fakeDiscord) string {
	var b strings.Builder
	for _, r := range fd.requests() {
		b.WriteString(r.Method + " " + strings.TrimPrefix(r.Path, apiPath("")) + "\n")
	}
	return b.String()
}

func TestTheCommandAnswersInPlaceInADirectMessageOrAThread(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		channel   string
		guild     string
		setup     func(fd *fakeDiscord)
		want      bot.Message
		wantCalls string
	}{
		{name: "a direct message is its own conversation", channel: "55",
			want: bot.Message{Platform: "discord", Channel: "55", Thread: "55", User: "300", Text: "how fast is KeyDB?"},
			wantCalls: "POST /interactions/5001/tok/callback\n" +
				"PATCH /webhooks/800/tok/messages/@original\n"},
		{name: "a thread keeps its memory", channel: "41", guild: "700",
			setup: func(fd *fakeDiscord) { fd.addChannel("41", 11, "100", "900") },
			want:  bot.Message{Platform: "discord", Channel: "100", Thread: "41", User: "300", Text: "how fast is KeyDB?"},
			wantCalls: "POST /interactions/5001/tok/callback\n" +
				"GET /channels/41\n" +
				"PATCH /webhooks/800/tok/messages/@original\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newMemoryHandler(nil)
			a, fd := restOnly(t, h, nil)
			if tt.setup != nil {
				tt.setup(fd)
			}
			a.onInteraction(t.Context(), interaction(t, fd, "5001", "tok", tt.channel, tt.guild, ptr("how fast is KeyDB?")))
			wantMessages(t, h.messages(), tt.want)
			if got := paths(fd); got != tt.wantCalls {
				t.Errorf("requests:\n%s\nwant:\n%s", got, tt.wantCalls)
			}
		})
	}
}

func TestALongCommandAnswerContinuesInItsThread(t *testing.T) {
	t.Parallel()
	big := hugeAnswer()
	a, fd := restOnly(t, newMemoryHandler(func(bot.Message, []string) bot.Answer { return big }), nil)
	a.onInteraction(t.Context(), interaction(t, fd, "5001", "tok", "100", "700", ptr("everything")))
	parts := len(evidenceMessages(big, ""))
	edit := fd.waitFor(t, "the card edited in", is(http.MethodPatch, "/@original"))
	th := fd.waitFor(t, "the thread", is(http.MethodPost, "/threads"))
	threadID := strings.Split(strings.TrimPrefix(th.Path, apiPath("/channels/100/messages/")), "/")[0]
	if len(buttonsOf(edit)) == 0 {
		t.Fatal("the command's card has no buttons")
	}
	// Show evidence on the card, which sits in the channel: the evidence
	// goes into the thread started from it.
	a.onComponent(t.Context(), &discordgo.Interaction{ID: "5002", AppID: "800", Token: "tok-2", Type: discordgo.InteractionMessageComponent,
		ChannelID: "100", GuildID: "700", Message: &discordgo.Message{ID: threadID},
		Data: discordgo.MessageComponentInteractionData{CustomID: evidencePrefix + bot.NewCard(big).ID, ComponentType: discordgo.ButtonComponent}})
	for range parts {
		fd.waitFor(t, "the next part in the thread", isMessagePost(threadID))
	}
}

func TestWithoutThreadPermissionTheCommandSaysSoOnceAndFollowsUp(t *testing.T) {
	t.Parallel()
	big := hugeAnswer()
	a, fd := restOnly(t, newMemoryHandler(func(bot.Message, []string) bot.Answer { return big }), nil)
	fd.failNext(2, is(http.MethodPost, "/threads"), http.StatusForbidden, `{"message":"Missing Permissions","code":50013}`, nil)

	a.onInteraction(t.Context(), interaction(t, fd, "5001", "tok-a", "100", "700", ptr("everything")))
	notice := fd.waitFor(t, "the notice", is(http.MethodPost, "/webhooks/800/tok-a"))
	if notice.JSON["flags"] != float64(64) || !strings.Contains(notice.JSON["content"].(string), "/oracle") {
		t.Errorf("notice %v, want an ephemeral note naming /oracle", notice.JSON)
	}
	a.onInteraction(t.Context(), interaction(t, fd, "5002", "tok-b", "100", "700", ptr("everything")))
	for _, r := range fd.requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/webhooks/800/tok-b") {
			t.Errorf("the notice was repeated: %v", r.JSON)
		}
	}
}
