package bot_test

import (
	"fmt"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// BenchmarkJSONObject builds the JSON object (`ask --json`, POST /api/ask)
// of every golden answer: bot.JSON, which splits an answer into its layers
// once for both texts, next to the baseline in the same run that does what
// it did: the same, and a second split (for "reply"; Markdown made its own
// for "text").
func BenchmarkJSONObject(b *testing.B) {
	env := bottest.NewEnv(b, nil)
	var answers []bot.Answer
	for _, c := range readGolden(b) {
		for _, q := range c.questions {
			answers = append(answers, env.Ask(b, fmt.Sprintf("json-%s", c.name), q))
		}
	}
	b.Run("split-once", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, a := range answers {
				_ = bot.JSON(a)
			}
		}
	})
	b.Run("baseline-split-twice", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, a := range answers {
				_ = bot.JSON(a)
				_ = bot.Split(a)
			}
		}
	})
}
