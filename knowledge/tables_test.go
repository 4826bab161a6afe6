package knowledge

import (
	"strings"
	"testing"
)

func TestMemoryTableComesFromTheMeasurementFile(t *testing.T) {
	b := loadBase(t)
	mt := b.MemoryTable()
	if mt.Keys != 1_000_000 || mt.ValueBytes != 100 {
		t.Errorf("keys × value = %d × %d, want 1,000,000 × 100", mt.Keys, mt.ValueBytes)
	}
	for _, tc := range []struct {
		engine string
		bpk    float64
		used   int64
	}{{"dragonfly", 146.1, 147_207_200}, {"redis", 165.3, 166_911_048}, {"valkey", 168.7, 169_790_032}} {
		r, ok := mt.Row(tc.engine)
		if !ok || r.BytesPerKey != tc.bpk || r.UsedMemory != tc.used || r.Label != "" {
			t.Errorf("Row(%s) = %+v, %v; want %v bytes/key from %d bytes, unlabelled", tc.engine, r, ok, tc.bpk, tc.used)
		}
	}
	if len(mt.Rows) != 3 {
		t.Errorf("%d measured rows, want 3", len(mt.Rows))
	}
	k, ok := mt.Row("keydb")
	if !ok || k.BytesPerKey != 200.3 {
		t.Fatalf("KeyDB row = %+v, %v", k, ok)
	}
	for _, part := range []string{"from the session-2 write-up", "not in the memory measurement file", "method not published"} {
		if !strings.Contains(k.Label, part) {
			t.Errorf("KeyDB label %q lacks %q", k.Label, part)
		}
	}
	if _, measured := mt.measured("keydb"); measured {
		t.Error("KeyDB is listed as measured")
	}
	if _, ok := mt.Row("garnet"); ok {
		t.Error("Garnet has a bytes-per-key figure")
	}
	if n, ok := mt.Missing("garnet"); !ok || !strings.Contains(n.Reason, "never measured") {
		t.Errorf("Missing(garnet) = %+v, %v", n, ok)
	}
	e, _ := b.Entry("table:memory")
	if !strings.Contains(e.Text, "Garnet: never measured") || !strings.Contains(e.Text, "200.3") {
		t.Errorf("table:memory text does not name Garnet's gap and KeyDB's quote:\n%s", e.Text)
	}
	g, _ := b.Engine("garnet")
	if g.BytesPerKey != nil {
		t.Errorf("engine:garnet has bytes per key %v", *g.BytesPerKey)
	}
}

func TestFailoverTablesKeepEveryRepetition(t *testing.T) {
	b := loadBase(t)
	sweep := b.FailoverSweep()
	if sweep.Title == "" || len(sweep.Sources) == 0 {
		t.Errorf("sweep table has no title or sources: %+v", sweep)
	}
	for _, tc := range []struct {
		downAfter int
		median    float64
		reps      []float64
	}{{1000, 2.54, []float64{2.52, 2.54, 2.56}}, {5000, 7.31, []float64{7.30, 7.37, 7.31}}, {10000, 12.09, []float64{12.09, 12.12, 12.09}}} {
		g, ok := sweep.Group("redis", tc.downAfter)
		if !ok {
			t.Fatalf("no sweep group at %d ms", tc.downAfter)
		}
		if g.MedianOutageS != tc.median {
			t.Errorf("%d ms: median %v, want %v", tc.downAfter, g.MedianOutageS, tc.median)
		}
		if len(g.Reps) != len(tc.reps) {
			t.Fatalf("%d ms: %d reps, want %d", tc.downAfter, len(g.Reps), len(tc.reps))
		}
		for i, r := range g.Reps {
			if r.OutageS != tc.reps[i] || r.Rep != i+1 {
				t.Errorf("%d ms rep %d = %+v, want outage %v", tc.downAfter, i+1, r, tc.reps[i])
			}
		}
	}
	g, _ := sweep.Group("redis", 5000)
	if g.MinOverheadS != 2.30 || g.MaxOverheadS != 2.37 {
		t.Errorf("5000 ms overhead %v–%v, want 2.30–2.37", g.MinOverheadS, g.MaxOverheadS)
	}
	eng := b.FailoverEngines()
	for _, tc := range []struct {
		engine string
		median float64
	}{{"redis", 7.31}, {"valkey", 7.37}, {"dragonfly", 7.36}} {
		g, ok := eng.Group(tc.engine, 5000)
		if !ok || g.MedianOutageS != tc.median || len(g.Reps) != 3 {
			t.Errorf("engines %s = %+v, %v; want median %v over 3 reps", tc.engine, g, ok, tc.median)
		}
	}
	if _, ok := eng.Group("garnet", 5000); ok {
		t.Error("Garnet appears in the failover lab")
	}
}

func TestCrossSlotDemoIsParsedWithoutColourCodes(t *testing.T) {
	b := loadBase(t)
	d := b.CrossSlot()
	if len(d.Systems) != 2 {
		t.Fatalf("%d systems, want 2", len(d.Systems))
	}
	df, rc := d.Systems[0], d.Systems[1]
	if df.Name != "Dragonfly (single process)" || df.Shards != 0 || rc.Shards != 3 {
		t.Errorf("systems = %q (%d shards), %q (%d shards)", df.Name, df.Shards, rc.Name, rc.Shards)
	}
	for _, c := range df.Checks {
		if !c.Accepted {
			t.Errorf("Dragonfly rejected %q", c.Command)
		}
	}
	want := map[string]bool{"MGET 3 plain keys": false, "EVAL over 3 plain keys": false, "MGET 2 hash-tagged keys": true}
	for _, c := range rc.Checks {
		if acc, ok := want[c.Command]; !ok || acc != c.Accepted {
			t.Errorf("cluster check %q accepted=%v", c.Command, c.Accepted)
		}
		if !c.Accepted && c.Reply != "CROSSSLOT Keys in request don't hash to the same slot" {
			t.Errorf("cluster reply %q", c.Reply)
		}
	}
	for key, slot := range map[string]int{"alpha": 865, "bravo": 8623, "charlie": 1769} {
		if got, ok := d.Slot(key); !ok || got != slot {
			t.Errorf("Slot(%s) = %d, %v; want %d", key, got, ok, slot)
		}
	}
	for _, s := range d.Summary {
		if strings.ContainsRune(s, '\x1b') {
			t.Errorf("summary keeps an escape code: %q", s)
		}
	}
	if len(d.Summary) != 2 {
		t.Errorf("%d summary lines, want 2", len(d.Summary))
	}
}

func TestStripANSI(t *testing.T) {
	if got := stripANSI("\x1b[0;36m[bench]\x1b[0m DF: ok"); got != "[bench] DF: ok" {
		t.Errorf("stripANSI = %q", got)
	}
}

func TestFilterFromAtSpellsTheAnalyticsVocabulary(t *testing.T) {
	got, err := filterFromAt("s2 garnet single 48c mget10 100B p1")
	want := `session == 2 && engine == "garnet" && mode == "single" && cores == 48 && ratio == "mget10" && value_bytes == 100 && pipeline == 1`
	if err != nil || got != want {
		t.Errorf("filterFromAt = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"", "dragonfly redis", "48c 16c", "s1 memcached"} {
		if _, err := filterFromAt(bad); err == nil {
			t.Errorf("filterFromAt(%q) accepted", bad)
		}
	}
}

func TestFormatOpsUsesMillionsAndThousands(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{15_473_658.395, "15.5M"}, {635_598.77, "636K"}, {999_960, "1.0M"}, {412_877.635, "413K"}, {950, "950"}} {
		if got := FormatOps(tc.v); got != tc.want {
			t.Errorf("FormatOps(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
