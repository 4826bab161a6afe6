package planner

import "testing"

// The scorer counts what each reading accounts for: a definition its
// frame and term, a measured answer the engines and settings, the failover
// table its event; a tie where each explains words the other leaves is a
// choice to offer.
func TestReadingsAreScoredByTheWordsTheyExplain(t *testing.T) {
	frame := []reason{{meaning: mKind, value: "define"}}
	term := []reason{{term: "term:latency-percentiles"}, {meaning: mMetric, value: "p99_ms"}}
	engine := []reason{{meaning: mEngine, value: "redis"}}
	cores := []reason{{number: true}}
	event := []reason{{meaning: mFailover}}
	define := Plan{Intent: IntentDefine, Slots: Slots{TermID: "term:latency-percentiles"}}
	lookup := Plan{Intent: IntentLookup, Slots: Slots{Engines: []string{"redis"}, Metric: "p99_ms"}, Queries: []Query{{Filter: `engine == "redis"`}}}
	failover := Plan{Intent: IntentFailover, Slots: Slots{Engines: []string{"redis"}, Metric: "outage_s"}}
	for _, tc := range []struct {
		name  string
		rs    [][]reason
		a, b  Plan
		aWins bool
		apart bool
	}{
		{"explain p99", [][]reason{frame, term}, define, lookup, true, false},
		{"p99 of redis at 16 cores", [][]reason{term, engine, cores, cores}, lookup, define, true, false},
		{"redis failover at 16 cores", [][]reason{engine, event, cores}, failover, lookup, true, true},
		{"redis failover at 16 cores", [][]reason{engine, event, cores, cores}, failover, lookup, false, true},
		{"redis p99", [][]reason{engine, term}, lookup, lookup, false, false},
	} {
		sa, sb := explained(&tc.a, tc.rs), explained(&tc.b, tc.rs)
		if (sa > sb) != tc.aWins {
			t.Errorf("%s: %s scores %d, %s %d", tc.name, tc.a.Intent, sa, tc.b.Intent, sb)
		}
		if got := explainsApart(&tc.a, &tc.b, tc.rs); got != tc.apart {
			t.Errorf("%s: apart = %v, want %v", tc.name, got, tc.apart)
		}
	}
}
