package planner_test

import (
	"path/filepath"
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
		for _, c := range readCorpusFile(t, f) {
			count[c.family]++
			pl := planThread(t, p, c.thread, c.q)
			bad := c.mismatches(pl)
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
