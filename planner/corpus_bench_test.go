package planner_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// BenchmarkPlanCorpus plans every question of the labelled corpus (the
// held-back slice aside), each after its thread's previous plan, and
// reports the per-question latency: p50, p99 and max over every question
// of every pass (ns/op is one pass). It is the planner's share of an
// answer over the phrasings people type, not six chosen ones.
func BenchmarkPlanCorpus(b *testing.B) {
	p := realPlanner(b)
	cases := readCorpus(b, filepath.Join("testdata", "corpus"))
	prevs := make([]*planner.Plan, len(cases))
	for i, c := range cases {
		if len(c.thread) > 0 {
			prev := planThread(b, p, c.thread[:len(c.thread)-1], c.thread[len(c.thread)-1])
			prevs[i] = &prev
		}
	}
	var lat []time.Duration
	for b.Loop() {
		for i, c := range cases {
			start := time.Now()
			if _, err := p.Plan(b.Context(), c.q, prevs[i]); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	at := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	b.ReportMetric(us(at(0.50)), "p50-µs")
	b.ReportMetric(us(at(0.99)), "p99-µs")
	b.ReportMetric(us(lat[len(lat)-1]), "max-µs")
}
