package planner_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// kindCheck is what every plan of a kind family must carry beyond its
// labelled fields.
var kindCheck = map[string]func(planner.Plan) bool{
	"kind-search":      func(p planner.Plan) bool { return p.Search != nil && len(p.Queries) > 0 },
	"kind-recommend":   func(p planner.Plan) bool { return p.Intent == planner.IntentRecommend },
	"kind-spread":      func(p planner.Plan) bool { return p.Intent == planner.IntentSpread },
	"kind-provenance":  func(p planner.Plan) bool { return len(p.Topics) > 0 && len(p.Queries) > 0 },
	"kind-compound":    func(p planner.Plan) bool { return len(p.Parts) >= 2 },
	"kind-correction":  func(p planner.Plan) bool { return len(p.Corrected) > 0 },
	"kind-extrapolate": func(p planner.Plan) bool { return p.Prediction != nil && len(p.Missing) > 0 },
	"kind-leading":     func(p planner.Plan) bool { return p.Premise != nil },
	"kind-units":       func(p planner.Plan) bool { return p.Units != nil },
	"kind-greeting": func(p planner.Plan) bool {
		return p.Greeting || p.Intent == planner.IntentHelp
	},
}

// TestKindCorpus plans every phrasing of testdata/corpus/kind-*.txt (the
// corpus format of testdata/corpus/README.md) and checks the labelled
// fields and what the kind must carry; each kind needs 30 phrasings and
// every one must plan as labelled.
func TestKindCorpus(t *testing.T) {
	st := analyticstest.OpenStore(t)
	kb, err := knowledge.Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	p := planner.New(st, kb, planner.Options{})
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "kind-*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, f := range files {
		for _, c := range readKindCorpus(t, f) {
			count[c.family]++
			var prev *planner.Plan
			for _, q := range c.thread {
				pl, err := p.Plan(t.Context(), q, prev)
				if err != nil {
					t.Fatal(err)
				}
				prev = &pl
			}
			pl, err := p.Plan(t.Context(), c.q, prev)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.line, err)
			}
			var bad []string
			for k, want := range c.want {
				if got := kindField(pl, k); got != want {
					bad = append(bad, k+"="+got+" (want "+want+")")
				}
			}
			if check := kindCheck[c.family]; check != nil && !check(pl) {
				bad = append(bad, "not a plan of "+c.family)
			}
			if len(bad) > 0 {
				t.Errorf("%s:%d %q: %s", c.file, c.line, c.q, strings.Join(bad, ", "))
			}
		}
	}
	for family := range kindCheck {
		if count[family] < 30 {
			t.Errorf("%s has %d phrasings; want at least 30", family, count[family])
		}
	}
}

type kindCase struct {
	file, family string
	line         int
	thread       []string
	q            string
	want         map[string]string
}

func readKindCorpus(t *testing.T, path string) []kindCase {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	family := strings.TrimSuffix(filepath.Base(path), ".txt")
	var out []kindCase
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "family:"):
			family = strings.TrimSpace(strings.TrimPrefix(line, "family:"))
			continue
		}
		q, fields, ok := strings.Cut(line, " => ")
		if !ok {
			t.Fatalf("%s:%d: no \" => \"", path, n)
		}
		c := kindCase{file: filepath.Base(path), family: family, line: n, want: map[string]string{}}
		turns := strings.Split(q, " >> ")
		c.thread, c.q = turns[:len(turns)-1], strings.TrimSpace(turns[len(turns)-1])
		for _, f := range strings.Fields(fields) {
			k, v, _ := strings.Cut(f, "=")
			c.want[k] = v
		}
		out = append(out, c)
	}
	return out
}

// kindField renders one plan field in the corpus vocabulary.
func kindField(pl planner.Plan, k string) string {
	s := pl.Slots
	ints := func(ns []int) string { return strings.Join(strings.Fields(strings.Trim(fmt.Sprint(ns), "[]")), ",") }
	switch k {
	case "intent":
		return string(pl.Intent)
	case "requested":
		return string(pl.Requested)
	case "engines":
		return strings.Join(s.Engines, ",")
	case "modes":
		return strings.Join(s.Modes, ",")
	case "cores":
		return ints(s.Cores)
	case "ratio":
		return s.Ratio
	case "value":
		return strconv.Itoa(s.ValueBytes)
	case "pipeline":
		return strconv.Itoa(s.Pipeline)
	case "session":
		return strconv.Itoa(s.Session)
	case "metric":
		return s.Metric
	case "knob":
		return s.Knob
	}
	return "unknown field " + k + " in " + strings.Join(slices.Sorted(slices.Values([]string{"intent", "requested", "engines", "modes", "cores", "ratio", "value", "pipeline", "session", "metric", "knob"})), ",")
}
