package discord

import (
	"encoding/json"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// A card read back from the journal (after a restart) is sent exactly as
// it would have been: the same payload, components v2 included.
func TestACardReadBackFromTheJournalIsTheSameCard(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, q := range []string{"Is Dragonfly 25x faster than Redis?", "How does Dragonfly scale with cores?"} {
		t.Run(q, func(t *testing.T) {
			ans := env.Ask(t, "", q)
			chart := &chartImage{png: []byte("png"), alt: "alt"}
			for _, m := range []outMessage{
				renderCardV2(ans, bot.NewCard(ans), chart, noticeFollowUps, "", "https://oracle.example.com", q),
				renderCard(ans, bot.NewCard(ans), true, noticeFollowUps, "https://oracle.example.com", q),
			} {
				body, err := journalMessageOf("100", m, ans.Chart, nil)
				if err != nil {
					t.Fatal(err)
				}
				var jm journalMessage
				if err := json.Unmarshal(body, &jm); err != nil {
					t.Fatal(err)
				}
				back, err := jm.message()
				if err != nil {
					t.Fatal(err)
				}
				if got, want := payload(t, back), payload(t, m); got != want {
					t.Fatalf("read back:\n%s\nwant:\n%s", got, want)
				}
				if got, want := payload(t, withoutChart(back)), payload(t, withoutChart(m)); got != want {
					t.Fatalf("without its chart, read back:\n%s\nwant:\n%s", got, want)
				}
			}
		})
	}
}

func payload(t *testing.T, m outMessage) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"content": m.Content, "embeds": m.Embeds, "components": m.Components, "flags": m.Flags})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
