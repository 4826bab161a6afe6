package planner

import (
	"slices"
	"testing"
)

// TestSettingsTable: the embedded vocabulary parses, and a bad line is an
// error naming it.
func TestSettingsTable(t *testing.T) {
	if _, err := parseSettings(settingsTable); err != nil {
		t.Fatal(err)
	}
	if _, err := parseSettings("field cores_used sideways {v} cores"); err == nil {
		t.Error("a field with an unknown status parsed")
	}
}

func TestReadSettings(t *testing.T) {
	for _, tc := range []struct {
		in, text string
		fixed    []string // the settings named back, as typed
	}{
		{"valkey cores_used=16 data_bytes: 1024", "valkey 16 cores 1024 byte values", nil},
		{"where engine = 'valkey' and cores_used = 8", "where valkey and 8 cores", nil},
		{"memtier_benchmark -s 10.0.0.1 -p 6379 -t 8 -c 50 --ratio=1:1 --pipeline=16 -d 1024", "SET:GET 1:1 pipeline 16 1024 byte values", []string{"-t 8", "-c 50"}},
		{"dragonfly -p 1 on 48 cores", "dragonfly -p 1 on 48 cores", nil},
		{"docker run --cpuset-cpus=0-7 dragonfly", "run 8 cores dragonfly", nil},
		{"docker run --cpuset-cpus 0,2,4,6 dragonfly", "run 4 cores dragonfly", nil},
		{"keydb io-threads 4 at 8 cores", "keydb at 8 cores", []string{"io-threads 4"}},
		{"valkey io-threads - what is it?", "valkey io-threads - what is it?", nil},
		{"test_time for redis?", "test_time for redis?", nil},
		{"quick q: valkey at 8 cores", "quick q: valkey at 8 cores", nil},
		{"appendonly yes on valkey", "persistence on valkey", nil},
		{"appendonly no on valkey", "on valkey", nil},
		{"redis mode=cluster-sat p999_ms", "redis cluster ceiling p99.9", nil},
		{"which engine is fastest", "which engine is fastest", nil},
		{"memtier --ratio=10:1 on redis", "SET:GET 10:1 on redis", nil},
		{"engine=keydb ratio=mget10", "keydb mget10", nil},
		{"dragonfly --snapshot_cron=\"\" --proactor_threads=8", "dragonfly 8 cores", []string{`--snapshot_cron=""`}},
		{"redis.conf: activedefrag yes, hz 100, 16 shards on 16 cores", "redis.conf: , , 16 shards on 16 cores", []string{"activedefrag yes", "hz 100"}},
		{"activedefrag yes on redis", "activedefrag yes on redis", nil}, // no config file pasted: the rules read it
		{"redis.conf has activedefrag yes and hz 100, 16 shards", "redis.conf has and , 16 shards", []string{"activedefrag yes", "hz 100"}},
	} {
		got := readSettings(tc.in)
		if got.text != tc.text {
			t.Errorf("%q: read as %q, want %q", tc.in, got.text, tc.text)
		}
		var fixed []string
		for _, r := range got.unread() {
			fixed = append(fixed, r.text)
		}
		if !slices.Equal(fixed, tc.fixed) {
			t.Errorf("%q: named back %q, want %q", tc.in, fixed, tc.fixed)
		}
	}
}

func TestNumberToken(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{{"16", 16}, {"1.5e7", 1.5e7}, {"15,5m", 15.5e6}, {"2.6m", 2.6e6}, {"15mil", 15e6}, {"10k", 1e4}, {"1kb", 1024}, {"1,000", 1000}, {"3ms", 3}} {
		vals, ok := numberToken(tc.in)
		if !ok || !slices.Contains(vals, tc.want) {
			t.Errorf("%q: %v %v, want %v among them", tc.in, vals, ok, tc.want)
		}
	}
	for _, w := range []string{"p99", "mget10", "c6i", "run-s1-20260901", "1:10"} {
		if _, ok := numberToken(w); ok {
			t.Errorf("%q read as a number", w)
		}
	}
}

func TestASettingInCodeMarksIsReadAsOne(t *testing.T) {
	got := readSettings("our redis.conf has `io-threads 4` and `appendonly no`")
	if len(got.unread()) != 1 || got.unread()[0].text != "io-threads 4" {
		t.Errorf("named back %+v, want io-threads 4", got.unread())
	}
	if got.text != "our redis.conf has and" {
		t.Errorf("read as %q", got.text)
	}
}
