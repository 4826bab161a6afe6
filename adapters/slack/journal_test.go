package slack

import (
	"encoding/json"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// A card read back from the journal (after a restart) is posted exactly
// as it would have been: the same blocks, the same fallback.
func TestACardReadBackFromTheJournalIsTheSameCard(t *testing.T) {
	for _, tc := range []struct {
		name  string
		where shown
	}{
		{name: "with its chart block and the plain fallback", where: shown{InlineChart: true, Web: "https://oracle.example.com"}},
		{name: "asked by a slash command", where: shown{Asker: "U1", Question: "How does Dragonfly scale?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ans := scalingAnswer()
			m := renderCard(ans, bot.NewCard(ans), tc.where, "How does Dragonfly scale?")
			job, err := answerJob(place{channel: "C1", thread: "1.2"}, m, ans.Chart)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(job)
			if err != nil {
				t.Fatal(err)
			}
			var back bot.PostJob
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			var jm journalMessage
			if err := json.Unmarshal(back.Posts[0].Body, &jm); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(journalMessageOf(m))
			got, _ := json.Marshal(journalMessageOf(jm.message()))
			if string(got) != string(want) {
				t.Fatalf("read back:\n%s\nwant:\n%s", got, want)
			}
			if len(back.Posts) != 2 || back.Posts[1].Kind != postChart {
				t.Fatalf("posts %+v: want the card, then the chart", back.Posts)
			}
		})
	}
}
