package discord

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestACardsVotesAreStoredLastClickWins posts a card over a store that
// keeps feedback, then clicks 👍 and 👎 as one user and 👍 as another: each
// click is acknowledged privately, and the store keeps each user's last.
// With a public URL the card opens its question on the web.
func TestACardsVotesAreStoredLastClickWins(t *testing.T) {
	t.Parallel()
	fd := newFakeDiscord(t)
	kv := bottest.NewMemKV(time.Now)
	a, err := New(Config{Token: "test-token", AppID: "800", HTTPClient: fd.serve(), Deliveries: kv, PublicURL: "https://oracle.example.com"},
		newMemoryHandler(echoAnswer), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.s.State.Lock()
	a.s.State.User = &discordgo.User{ID: fd.selfID, Username: "oracle", Bot: true}
	a.s.State.Unlock()
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	card := fd.waitFor(t, "the card", isMessagePost("1001"))
	if !isV2(card) || len(v2Embeds(card)) != 1 {
		t.Errorf("the card is not laid out in components v2: %v", card.JSON)
	}
	var up, down, web string
	rows, _ := card.JSON["components"].([]any)
	for _, row := range rows {
		for _, k := range row.(map[string]any)["components"].([]any) {
			b := k.(map[string]any)
			id, _ := b["custom_id"].(string)
			switch {
			case strings.HasPrefix(id, votePrefix+"up:"):
				up = id
			case strings.HasPrefix(id, votePrefix+"down:"):
				down = id
			case b["url"] != nil:
				web = b["url"].(string)
			}
		}
	}
	if up == "" || down == "" || web != "https://oracle.example.com/?q=how+fast+is+Redis%3F" {
		t.Fatalf("card buttons: up %q down %q web %q", up, down, web)
	}
	for n, c := range []struct{ user, id string }{{"301", up}, {"301", down}, {"302", up}} {
		i := &discordgo.Interaction{ID: "v" + string(rune('1'+n)), AppID: "800", Token: "tok-v", Type: discordgo.InteractionMessageComponent,
			ChannelID: "1001", GuildID: "700", Member: &discordgo.Member{User: &discordgo.User{ID: c.user}},
			Data: discordgo.MessageComponentInteractionData{CustomID: c.id, ComponentType: discordgo.ButtonComponent}}
		a.onComponent(t.Context(), i)
		ack := fd.waitFor(t, "the vote acknowledged", is(http.MethodPost, "/callback"))
		data, _ := ack.JSON["data"].(map[string]any)
		if data["flags"] != float64(64) || !strings.Contains(data["content"].(string), "noted") {
			t.Errorf("vote %d acknowledged with %v, want a private thanks", n, ack.JSON)
		}
	}
	votes, err := bot.NewFeedbackStore(kv).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]bool{}
	for _, v := range votes {
		last[v.User] = v.Up
		if v.Question != "how fast is Redis?" || v.Platform != "discord" {
			t.Errorf("vote %+v lacks its question", v)
		}
	}
	if len(votes) != 2 || last["301"] || !last["302"] {
		t.Errorf("votes %+v: want 301's last click 👎 and 302's 👍", votes)
	}
}
