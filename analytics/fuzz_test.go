package analytics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzCompileFilter checks that any text either compiles into a filter that
// evaluates without panicking on real runs, or fails with a *FilterError.
func FuzzCompileFilter(f *testing.F) {
	for _, seed := range []string{
		`engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
		`hit_rate > 0.9`, `hit_rate == nil`, `hit_rate * 2 > 1 || !(rep == 1)`,
		`core == 4`, `cores == "48"`, `cores`, `cores = 48`, `engine == "redis`,
		`repeat("a", 1e9) == ""`, `map(1..3, #) == [1]`, `cores in 1..1000000000`,
		`let x = 1; x == cores`, `upper(engine) == "REDIS" and len(note) > 3`,
		`ops_per_sec / cores > 1e5 ? true : false`, `engine in ["redis", "valkey"]`,
		`"é" == note || corez == 1`, `((((cores))))`, `-cores < 0`, `1/0 == 1`,
		`id matches "^run-s1"`, `ratio contains ":"`, `engine[0:2] == "re"`,
		`session == 1 && mode == "cluster"&&pipeline==16`, `cores == 4 && ratio == "mset10"`,
	} {
		f.Add(seed)
	}
	runs := fuzzRuns()
	f.Fuzz(func(t *testing.T, filter string) {
		if _, ok := exactPins(filter); ok {
			checkExactAgreesWithExpr(t, filter, runs) // read without expr: must agree with it
		}
		flt, err := CompileFilter(filter)
		if err != nil {
			var fe *FilterError
			if !errors.As(err, &fe) {
				t.Fatalf("CompileFilter(%q) error %T %v, want *FilterError", filter, err, err)
			}
			if fe.Msg == "" || fe.Pos > len(filter) || fe.Filter != filter {
				t.Fatalf("bad FilterError %+v for %q", fe, filter)
			}
			_ = fe.Column()
			return
		}
		for i := range runs {
			_, _ = flt.Match(&runs[i]) // runtime errors are allowed; panics are not
		}
	})
}

// fuzzRuns are two real runs: one with reads, one without (hit_rate nil).
func fuzzRuns() []Run {
	h := 0.9996
	return []Run{
		{ID: "run-s1-x-redis-cluster-48c-p16-1-10-d100-rep1", Session: 1, Engine: "redis", Mode: "cluster",
			Cores: 48, Pipeline: 16, Ratio: "1:10", ValueBytes: 100, Rep: 1, OpsPerSec: 4.5e6, HitRate: &h},
		{ID: "run-s2-x-garnet-single-4c-p1-mset10-d100-rep2", Session: 2, Engine: "garnet", Mode: "single",
			Cores: 4, Pipeline: 1, Ratio: "mset10", ValueBytes: 100, Rep: 2, OpsPerSec: 1e5},
	}
}

// FuzzParseRow checks that any data line either parses into a valid run or
// yields problems on that line, never a panic.
func FuzzParseRow(f *testing.F) {
	recs := sessionOneRecords(f)
	head := strings.Join(recs[0], ",")
	for _, r := range recs[1:4] {
		f.Add(strings.Join(r, ","))
	}
	f.Add("20260901-083406,scale-4c,dragonfly,single,4,4,1,4,0-3,0-95,48,20,1,mset10,100,1000000,20,1,1,1,1,1,1,1,,0,0,0,1")
	f.Add("x,scale-4c,memcached,single,4,4,1,0,0-3,0-95,48,20,1,1:10,100,1000000,20,1,1,NaN,1,1,1,1,1.5,0,0,0,1")
	f.Add(`"a""b",scale-4c,dragonfly`)
	f.Add("")
	f.Add(",,,,,,,,,,,,,,,,,,,,,,,,,,,,")
	f.Fuzz(func(t *testing.T, line string) {
		rows, probs := readCSV(strings.NewReader(head+"\r\n"+line), 1, "fuzz.csv")
		for _, p := range probs {
			if p.Line < 1 || p.Reason == "" {
				t.Fatalf("bad problem %+v for %q", p, line)
			}
		}
		for _, row := range rows {
			if row.probs != nil {
				continue
			}
			r := row.run
			if r.ID == "" || r.Cores < 1 || r.Pipeline < 1 || r.Rep < 1 || r.ValueBytes < 1 {
				t.Fatalf("accepted an invalid run %+v from %q", r, line)
			}
			for _, v := range []float64{r.OpsPerSec, r.P50Ms, r.P99Ms, r.P999Ms, r.KBPerSec} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("accepted a bad number in %+v from %q", r, line)
				}
			}
			if r.HitRate != nil && (*r.HitRate < 0 || *r.HitRate > 1) {
				t.Fatalf("accepted hit rate %v from %q", *r.HitRate, line)
			}
		}
	})
}
