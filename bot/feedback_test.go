package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestFeedbackKeepsTheLastClickPerUserAndAnswer stores votes over the
// in-memory KV and over Badger: a second click by the same user on the
// same answer replaces the first, a repeated click changes nothing, other
// users and answers count apart, and the corpus line names the question,
// its reading and its filter.
func TestFeedbackKeepsTheLastClickPerUserAndAnswer(t *testing.T) {
	for name, kv := range map[string]bot.FeedbackKV{
		"memory": bottest.NewMemKV(time.Now),
		"badger": analyticstest.OpenStore(t).KV("slack"),
	} {
		t.Run(name, func(t *testing.T) {
			fs := bot.NewFeedbackStore(kv)
			at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			shown := bot.Shown{Card: bot.Card{ID: "abc123abc123"}, Question: "Dragonfly at 8 cores", Thread: "T1", Channel: "C1",
				Answer: bot.Answer{Kind: bot.KindAnswer, Interpretation: "Throughput of Dragonfly, 8 cores",
					Sources: bot.Sources{Filters: []string{`engine == "dragonfly" && cores == 8`}}}}
			steps := []struct {
				user    string
				up      bool
				changed bool
			}{{"U1", true, true}, {"U1", true, false}, {"U1", false, true}, {"U2", true, true}}
			for i, s := range steps {
				changed, err := fs.Record(t.Context(), bot.VoteFor(shown, "slack", s.user, s.up, at.Add(time.Duration(i)*time.Minute)))
				if err != nil || changed != s.changed {
					t.Fatalf("step %d: changed %v, %v; want %v", i, changed, err, s.changed)
				}
			}
			votes, err := fs.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if up, down := bot.Tally(votes); len(votes) != 2 || up != 1 || down != 1 {
				t.Fatalf("votes %+v: want U1 👎 (the last click) and U2 👍", votes)
			}
			if votes[0].User != "U1" || votes[0].Up {
				t.Errorf("oldest vote %+v, want U1's 👎", votes[0])
			}
			line := bot.CorpusLine(votes[0])
			for _, want := range []string{"👎", "Dragonfly at 8 cores", "⇒ answer", "Throughput of Dragonfly", `engine == "dragonfly"`} {
				if !strings.Contains(line, want) {
					t.Errorf("corpus line %q lacks %q", line, want)
				}
			}
			if _, err := fs.Record(t.Context(), bot.Vote{Platform: "slack", User: "U1"}); err == nil {
				t.Error("a vote without its answer was stored")
			}
		})
	}
}

func TestCardMemoryRecallsAShownAnswerAndItsEvidenceOnce(t *testing.T) {
	m := bot.NewCardMemory(bottest.NewMemKV(time.Now), 0)
	a := bot.Answer{Kind: bot.KindAnswer, Headline: "Dragonfly: 3.7M ops/s."}
	s := bot.Shown{Card: bot.NewCard(a), Question: "Dragonfly at 8 cores", Answer: a}
	if err := m.Remember(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	got, ok, err := m.Recall(t.Context(), s.Card.ID)
	if err != nil || !ok || got.Question != s.Question || got.Answer.Headline != a.Headline {
		t.Fatalf("recalled %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := m.Recall(t.Context(), "unknown"); ok {
		t.Error("an unknown card was recalled")
	}
	first, _ := m.FirstEvidence(t.Context(), "C1/1700.1")
	again, _ := m.FirstEvidence(t.Context(), "C1/1700.1")
	if !first || again {
		t.Errorf("evidence first %v, again %v", first, again)
	}
}
