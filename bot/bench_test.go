package bot_test

import (
	"slices"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// BenchmarkHandleGoldenQuestions answers every golden question in-process
// (planner + queries + composition + Markdown) on the embedded data. Beyond
// ns/op (one pass over all questions) it reports the median and the worst
// per-question time (each question's own median over the iterations).
func BenchmarkHandleGoldenQuestions(b *testing.B) {
	env := bottest.NewEnv(b, nil)
	cases := readGolden(b)
	per := make([][]time.Duration, len(cases))
	for b.Loop() {
		for i, c := range cases {
			start := time.Now()
			for _, q := range c.questions {
				a := env.Ask(b, "bench-"+c.name, q)
				_ = bot.Markdown(a)
			}
			per[i] = append(per[i], time.Since(start)/time.Duration(len(c.questions)))
		}
	}
	var meds []time.Duration
	for _, d := range per {
		slices.Sort(d)
		meds = append(meds, d[len(d)/2])
	}
	slices.Sort(meds)
	b.ReportMetric(float64(meds[len(meds)/2].Nanoseconds()), "ns/question-median")
	b.ReportMetric(float64(meds[len(meds)-1].Nanoseconds()), "ns/question-worst")
}

// BenchmarkMarkdown renders the biggest golden answer kind (a claim with a
// table) alone.
func BenchmarkMarkdown(b *testing.B) {
	env := bottest.NewEnv(b, nil)
	a := env.Ask(b, "", "Is Dragonfly 25x faster than Redis?")
	for b.Loop() {
		_ = bot.Markdown(a)
	}
}
