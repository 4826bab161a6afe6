package analytics_test

import (
	"bufio"
	"flag"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

var update = flag.Bool("update", false, "regenerate testdata/medians.golden by running testdata/medians.py")

// TestGoldenMedians checks every cell's medians against
// testdata/medians.golden. That file is NOT produced by this Go code: it is
// the output of testdata/medians.py, a separate Python script that reads the
// same CSVs with Python's csv module, applies the keep rule and takes exact
// decimal medians (decimal.Decimal). Run with -update to regenerate it from
// the script (needs python3), then review the diff.
func TestGoldenMedians(t *testing.T) {
	const golden = "testdata/medians.golden"
	if *update {
		out, err := exec.Command("python3", "testdata/medians.py").Output()
		if err != nil {
			t.Fatalf("running testdata/medians.py: %v", err)
		}
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	cells := map[analytics.CellKey]analytics.Cell{}
	for _, c := range analyticstest.OpenStore(t).Cells() {
		cells[c.CellKey] = c
	}
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 13 {
			t.Fatalf("bad golden line %q", line)
		}
		k := analytics.CellKey{Session: atoi(t, fs[0]), Engine: fs[1], Mode: fs[2], Cores: atoi(t, fs[3]),
			Ratio: fs[4], ValueBytes: atoi(t, fs[5]), Pipeline: atoi(t, fs[6])}
		c, ok := cells[k]
		if !ok {
			t.Errorf("cell %+v missing from the store", k)
			continue
		}
		delete(cells, k)
		if c.Reps != atoi(t, fs[7]) {
			t.Errorf("%+v: reps %d, want %s", k, c.Reps, fs[7])
		}
		for i, got := range []float64{c.OpsPerSec, c.P50Ms, c.P99Ms, c.P999Ms, c.KBPerSec} {
			want, err := strconv.ParseFloat(fs[8+i], 64)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("%+v: metric %d = %v, want %v", k, i, got, want)
			}
		}
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked != 254 || len(cells) != 0 {
		t.Errorf("checked %d golden cells, %d store cells not in the golden file; want 254 and 0", checked, len(cells))
	}
}

// TestTheIssuesNamedMediansComeOutExactly pins the figures the issue
// lists (all SET:GET 1:10, 100 B, pipeline 16 unless said), checked against
// the store directly.
func TestTheIssuesNamedMediansComeOutExactly(t *testing.T) {
	s := analyticstest.OpenStore(t)
	key := func(session int, engine, mode string, cores, pipeline int) analytics.CellKey {
		return analytics.CellKey{Session: session, Engine: engine, Mode: mode, Cores: cores, Ratio: "1:10", ValueBytes: 100, Pipeline: pipeline}
	}
	tests := []struct {
		name   string
		key    analytics.CellKey
		metric string
		want   float64
		reps   int
	}{
		{"Dragonfly 48c", key(1, "dragonfly", "single", 48, 16), "ops_per_sec", 15473658.395, 2},
		{"Redis cluster 48c", key(1, "redis", "cluster", 48, 16), "ops_per_sec", 4578516.24, 2},
		{"Redis cluster-sat 48c (one rep)", key(1, "redis", "cluster-sat", 48, 16), "ops_per_sec", 40576639.07, 1},
		{"Valkey cluster 48c", key(1, "valkey", "cluster", 48, 16), "ops_per_sec", 4496839.105, 2},
		{"Valkey cluster-sat 48c", key(1, "valkey", "cluster-sat", 48, 16), "ops_per_sec", 40183221.4, 1},
		{"Dragonfly 16c p99", key(1, "dragonfly", "single", 16, 16), "p99_ms", 4.847, 2},
		{"Redis cluster 16c p99", key(1, "redis", "cluster", 16, 16), "p99_ms", 59.007, 2},
		{"Garnet 48c", key(2, "garnet", "single", 48, 16), "ops_per_sec", 21356216.815, 2},
		{"KeyDB 16c", key(2, "keydb", "single", 16, 16), "ops_per_sec", 635598.77, 2},
		{"Valkey cluster 24c pipeline 1", key(1, "valkey", "cluster", 24, 1), "ops_per_sec", 1480605.365, 2},
	}
	cells := map[analytics.CellKey]analytics.Cell{}
	for _, c := range s.Cells() {
		cells[c.CellKey] = c
	}
	for _, tt := range tests {
		t.Run(tt.name+" has the documented median", func(t *testing.T) {
			c, ok := cells[tt.key]
			if !ok {
				t.Fatalf("no cell %+v", tt.key)
			}
			got, _ := c.Metric(tt.metric)
			if got != tt.want || c.Reps != tt.reps {
				t.Errorf("%s = %v over %d reps, want %v over %d", tt.metric, got, c.Reps, tt.want, tt.reps)
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
