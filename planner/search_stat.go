package planner

import (
	"regexp"
	"strings"
	"sync"
)

// A statistic of one metric over the runs a threshold on another keeps
// ("median p50 of the runs whose p99 stays under 1 ms", "for runs over
// 10M ops/s, what's their p99"): every threshold is a condition on the
// runs, shown as the filter it is, and the statistic is the median of the
// asked metric across the runs the filter keeps. Reading it as a search
// for "p50 under 1 ms" drops both the statistic and the condition.

// statRx finds a statistic word; "median latency" is also the p50 metric.
var statRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(median|average|avg|mean|typical|typically)\b`)
})

// statSetRx finds the runs a figure is asked of without a statistic word:
// "their p99", "p99 of the fastest runs", "how fast are the runs that…".
var statSetRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:their|those runs'?|these runs'?)\b|\b(?:of|for|among|across) (?:the |those |these |all )?(?:\w+ ){0,2}?(?:runs|repetitions|reps)\b|\bhow fast (?:are|were|is|was|do|did)\b`)
})

// pooledRx finds a question asking for one figure over every kept run
// rather than one per series.
var pooledRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:overall|pooled|all together|altogether|combined|in total|across (?:all|every) (?:the )?(?:runs|repetitions|reps|engines))\b`)
})

// metricMentionRx finds the metrics a question names, each with where it
// is, so the one not bound to a threshold can be told from the ones that
// are.
var metricMentionRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:p99\.9|p999|p99|p50|median latency|hit (?:rate|ratio)|ops per core|per[- ]core throughput|throughput per core|kb/s|throughput|ops/s|ops per sec(?:ond)?|qps|how fast)`)
})

func mentionField(m string) string {
	switch m {
	case "p99.9", "p999":
		return "p999_ms"
	case "p99":
		return "p99_ms"
	case "p50", "median latency":
		return "p50_ms"
	case "hit rate", "hit ratio":
		return "hit_rate"
	case "ops per core", "per-core throughput", "per core throughput", "throughput per core":
		return "ops_per_core"
	case "kb/s":
		return "kb_per_sec"
	}
	return "ops_per_sec"
}

// searchStat reads a statistic asked of the runs a metric threshold keeps;
// ok is false for a plain threshold search ("which runs had p99 over 5
// ms"), which asks for the runs, not a figure of them.
func (p *Planner) searchStat(r reading) (Search, bool) {
	t := r.text
	cs := p.comparisons(r)
	bound := map[string]bool{}
	for _, c := range cs {
		if c.metric() {
			bound[c.field] = true
		}
	}
	if len(bound) == 0 {
		return Search{}, false
	}
	stat := statRx().FindStringIndex(t)
	if stat == nil && !statSetRx().MatchString(t) {
		return Search{}, false
	}
	metric := ""
	for _, m := range metricMentionRx().FindAllStringIndex(t, -1) {
		f := mentionField(t[m[0]:m[1]])
		// A metric a threshold is on is the figure asked only where a
		// statistic names it ("median throughput of runs over 10M").
		afterStat := stat != nil && (stat[0] == m[0] || m[0] >= stat[1] && strings.TrimSpace(t[stat[1]:m[0]]) == "")
		if bound[f] && !afterStat {
			continue
		}
		metric = f
		break
	}
	if metric == "" {
		return Search{}, false
	}
	s := Search{Limit: searchLimit, Over: "runs", Order: OrderAsc, Metric: metric, Stat: "median", Pooled: pooledRx().MatchString(t)}
	if !lowerIsBetter(metric) {
		s.Order = OrderDesc
	}
	if stat != nil {
		if w := t[stat[0]:stat[1]]; w == "average" || w == "avg" || w == "mean" {
			s.StatWord = w
		}
	}
	for _, c := range cs {
		s.Conditions = append(s.Conditions, Condition{Field: c.field, Op: c.op, Value: c.value})
	}
	return s, true
}
