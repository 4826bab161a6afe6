package knowledge

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// factsIDs reads testdata/facts-ids.txt, the ids FACTS.md defines for the
// kinds the knowledge base covers.
func factsIDs(tb testing.TB) []string {
	tb.Helper()
	f, err := os.Open("testdata/facts-ids.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			ids = append(ids, line)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return ids
}

func TestEveryFactsIDHasAnEntry(t *testing.T) {
	b := loadBase(t)
	ids := factsIDs(t)
	want := map[string]int{}
	for _, id := range ids {
		kind, _, _ := strings.Cut(id, ":")
		want[kind]++
		e, ok := b.Entry(id)
		if !ok {
			t.Errorf("no entry for %s", id)
			continue
		}
		if e.Title == "" || e.Text == "" || len(e.Sources) == 0 {
			t.Errorf("%s: title, text and sources must all be set", id)
		}
	}
	got := b.Counts()
	for kind, n := range want {
		if got[kind] != n {
			t.Errorf("%d %s entries, FACTS.md defines %d", got[kind], kind, n)
		}
	}
	if got["term"] < 50 {
		t.Errorf("%d terms, want at least 50", got["term"])
	}
	if got["claim"] < 12 {
		t.Errorf("%d claims, want at least 12", got["claim"])
	}
}

func TestLookupsFindEntriesByIDNameAndAlias(t *testing.T) {
	b := loadBase(t)
	if _, ok := b.Term("term:pipelining"); !ok {
		t.Error("Term(term:pipelining) not found")
	}
	if _, ok := b.Claim("claim:dragonfly-25x"); !ok {
		t.Error("Claim(claim:dragonfly-25x) not found")
	}
	if _, ok := b.Finding("finding:headline-48c"); !ok {
		t.Error("Finding(finding:headline-48c) not found")
	}
	if r, ok := b.Rule("caveat:garnet-floor"); !ok || r.Kind != "caveat" {
		t.Errorf("Rule(caveat:garnet-floor) = %+v, %v", r, ok)
	}
	if r, ok := b.Rule("trap:cache-misses"); !ok || r.Kind != "trap" || r.Number != 4 {
		t.Errorf("Rule(trap:cache-misses) = kind %q number %d, %v", r.Kind, r.Number, ok)
	}
	for _, name := range []string{"keydb", "KeyDB", "engine:keydb", "KEYDB"} {
		if e, ok := b.Engine(name); !ok || e.Key != "keydb" {
			t.Errorf("Engine(%q) = %q, %v", name, e.Key, ok)
		}
	}
	if e, ok := b.Engine("DF"); !ok || e.Key != "dragonfly" {
		t.Errorf("Engine(DF) = %q, %v", e.Key, ok)
	}
	if _, ok := b.Engine("memcached"); ok {
		t.Error("Engine(memcached) found an engine")
	}
	if s, ok := b.Session(2); !ok || !slices.Equal(s.Engines, []string{"keydb", "garnet"}) {
		t.Errorf("Session(2) = %+v, %v", s, ok)
	}
	if _, ok := b.Session(3); ok {
		t.Error("Session(3) exists")
	}
	if _, ok := b.Entry("term:nope"); ok {
		t.Error("Entry(term:nope) exists")
	}
}

func TestSessionsAndEnginesCountTheirRunsFromTheStore(t *testing.T) {
	b := loadBase(t)
	s1, _ := b.Session(1)
	s2, _ := b.Session(2)
	if s1.Runs != 350 || s2.Runs != 128 {
		t.Errorf("runs per session = %d, %d; want 350, 128", s1.Runs, s2.Runs)
	}
	if s1.Cells+s2.Cells != 254 {
		t.Errorf("cells = %d + %d, want 254 in all", s1.Cells, s2.Cells)
	}
	total := 0
	for _, e := range b.Engines() {
		total += e.Runs
	}
	if total != 478 {
		t.Errorf("runs over all engines = %d, want 478", total)
	}
}

func TestClaimsFilterByEngineAndTopic(t *testing.T) {
	b := loadBase(t)
	for _, tc := range []struct {
		name, engine, topic string
		must                string
		mustNot             string
	}{
		{"memory claims about Dragonfly include the memory claim", "dragonfly", "memory", "claim:dragonfly-memory", "claim:dragonfly-25x"},
		{"throughput claims about KeyDB include the per-node claim", "keydb", "throughput", "claim:keydb-per-node", "claim:dragonfly-memory"},
		{"an empty engine and topic match every claim", "", "", "claim:thirdparty-redis9-df120", ""},
		{"engine names are case-insensitive", "Garnet", "", "claim:garnet-resp-bench", "claim:valkey-8-0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []string
			for _, c := range b.Claims(tc.engine, tc.topic) {
				ids = append(ids, c.ID)
			}
			if !slices.Contains(ids, tc.must) {
				t.Errorf("Claims(%q, %q) = %v, missing %s", tc.engine, tc.topic, ids, tc.must)
			}
			if tc.mustNot != "" && slices.Contains(ids, tc.mustNot) {
				t.Errorf("Claims(%q, %q) = %v, should not hold %s", tc.engine, tc.topic, ids, tc.mustNot)
			}
		})
	}
	if n := len(b.Claims("", "")); n != 20 {
		t.Errorf("Claims(\"\", \"\") has %d entries, want all 20 (19 claims and one engine status)", n)
	}
}

func TestCaveatsFollowTheSituation(t *testing.T) {
	b := loadBase(t)
	ids := func(rs []Rule) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		s    Situation
		want []string
	}{
		{"a Garnet latency answer carries the floor and client-side caveats",
			Situation{Engines: []string{"garnet"}, Sessions: []int{2}, Metrics: []string{"ops_per_sec", "p99_ms"}},
			[]string{"caveat:garnet-floor", "caveat:pipeline-size", "caveat:client-side-latency"}},
		{"a Dragonfly vs Garnet comparison is cross-session",
			Situation{Engines: []string{"dragonfly", "garnet"}, Sessions: []int{1, 2}, Metrics: []string{"ops_per_sec"}},
			[]string{"caveat:garnet-floor", "caveat:cross-session", "caveat:pipeline-size"}},
		{"a ceiling figure names its series and its single run",
			Situation{Engines: []string{"redis"}, Modes: []string{"cluster-sat"}, Sessions: []int{1}, Metrics: []string{"ops_per_sec"}},
			[]string{"caveat:cluster-series", "caveat:pipeline-size", "caveat:single-rep"}},
		{"a never-measured answer says not to interpolate",
			Situation{Kind: "no_data"}, []string{"caveat:not-measured"}},
		{"a memory answer carries the no-memory caveat",
			Situation{Topics: []string{"memory"}}, []string{"caveat:no-memory"}},
		{"a claim answer sets vendor and measurement side by side",
			Situation{Kind: "claim"}, []string{"caveat:vendor-vs-measured"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(b.Caveats(tc.s))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Caveats = %v, want %v", got, want)
			}
		})
	}
}
