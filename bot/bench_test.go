package bot_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// BenchmarkHandleGoldenQuestions answers every golden question in-process
// (planner + queries + composition + Markdown) on the embedded data, each
// conversation in a fresh thread per pass. Beyond ns/op (one pass over all
// questions) it reports the per-question latency: p50, p99 and max over
// every answer of every pass. "composed" turns the answer cache off (every
// answer is planned and composed); "cached" is the default bot, where a
// repeated plan is served from the cache.
func BenchmarkHandleGoldenQuestions(b *testing.B) {
	cases := readGolden(b)
	for _, bc := range []struct {
		name  string
		cache int
	}{{"composed", -1}, {"cached", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			env := bottest.NewEnv(b, func(c *bot.Config) { c.AnswerCacheSize = bc.cache })
			var lat []time.Duration
			pass := 0
			for b.Loop() {
				pass++
				for _, c := range cases {
					thread := fmt.Sprintf("bench-%s-%d", c.name, pass)
					for _, q := range c.questions {
						start := time.Now()
						a := env.Ask(b, thread, q)
						_ = bot.Markdown(a)
						lat = append(lat, time.Since(start))
					}
				}
			}
			reportLatency(b, lat)
		})
	}
}

// reportLatency reports the p50, p99 and max of the samples, in ms.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(ms(at(0.50)), "p50-ms")
	b.ReportMetric(ms(at(0.99)), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
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
