package planner_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

var update = flag.Bool("update", false, "rewrite the expected plans in testdata/plans/*.txt")

// caseSeparator divides a case's input (comments, thread, question) from
// the expected plan.
const caseSeparator = "----------"

// planCase is one file of testdata/plans: the earlier questions of the
// thread (each planned in turn, each plan the next one's previous plan),
// the question, and the expected plan as Plan.Text renders it.
type planCase struct {
	header   []string // comment and input lines, kept verbatim on -update
	thread   []string
	question string
	want     string
}

func readCase(tb testing.TB, path string) planCase {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	head, want, found := strings.Cut(string(data), "\n"+caseSeparator+"\n")
	if !found {
		head = strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), caseSeparator)
	}
	var c planCase
	c.want = want
	hasQuestion := false
	for _, line := range strings.Split(head, "\n") {
		c.header = append(c.header, line)
		switch {
		case strings.HasPrefix(line, "#"), strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "thread:"):
			c.thread = append(c.thread, strings.TrimPrefix(strings.TrimPrefix(line, "thread:"), " "))
		case strings.HasPrefix(line, "question:"):
			c.question = strings.TrimPrefix(strings.TrimPrefix(line, "question:"), " ")
			hasQuestion = true
		default:
			tb.Fatalf("%s: unexpected line %q (want # comment, thread: or question:)", path, line)
		}
	}
	if !hasQuestion {
		tb.Fatalf("%s: no question: line", path)
	}
	return c
}

var (
	sharedOnce    sync.Once
	sharedPlanner *planner.Planner
	// sharedStore and sharedKB are what the shared planner reads, for
	// planners with options of their own (realPlannerWith).
	sharedStore planner.Coverage
	sharedKB    planner.Knowledge
)

// realPlanner is a planner over the embedded dataset and the real
// knowledge base, built once for every test in the package.
func realPlanner(tb testing.TB) *planner.Planner {
	tb.Helper()
	sharedOnce.Do(func() {
		st := analyticstest.OpenStore(&onceTB{TB: tb})
		kb, err := knowledge.Load(tb.Context(), st)
		if err != nil {
			tb.Fatalf("loading knowledge: %v", err)
		}
		sharedStore, sharedKB = st, kb
		sharedPlanner = planner.New(st, kb, planner.Options{})
	})
	if sharedPlanner == nil {
		tb.Fatal("the shared planner could not be built")
	}
	return sharedPlanner
}

// realPlannerWith is a planner over the same dataset and knowledge base
// as realPlanner, with its own options (a Completer).
func realPlannerWith(tb testing.TB, opts planner.Options) *planner.Planner {
	tb.Helper()
	realPlanner(tb)
	return planner.New(sharedStore, sharedKB, opts)
}

// onceTB keeps the shared store open for the whole package: cleanups
// registered while building it are dropped (the process ends with the
// tests), everything else goes to the first test's TB.
type onceTB struct{ testing.TB }

func (onceTB) Cleanup(func()) {}

// planThread plans each question of a thread in turn and returns the last
// plan.
func planThread(tb testing.TB, p *planner.Planner, thread []string, question string) planner.Plan {
	tb.Helper()
	var prev *planner.Plan
	for _, q := range thread {
		pl, err := p.Plan(tb.Context(), q, prev)
		if err != nil {
			tb.Fatalf("planning thread question %q: %v", q, err)
		}
		prev = &pl
	}
	pl, err := p.Plan(tb.Context(), question, prev)
	if err != nil {
		tb.Fatalf("planning %q: %v", question, err)
	}
	return pl
}

// TestPlans runs every case of testdata/plans as a subtest: the question
// (after its thread) must plan exactly as the file says. Run with -update
// to rewrite the expected plans, then review the diff.
func TestPlans(t *testing.T) {
	p := realPlanner(t)
	files, err := filepath.Glob(filepath.Join("testdata", "plans", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 200 {
		t.Errorf("testdata/plans holds %d cases, want at least 200", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			c := readCase(t, f)
			got := planThread(t, p, c.thread, c.question).Text()
			if *update {
				out := strings.Join(c.header, "\n") + "\n" + caseSeparator + "\n" + got
				if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != c.want {
				t.Errorf("plan for %q differs (run with -update and review the diff)\n--- got\n%s--- want\n%s", c.question, got, c.want)
			}
		})
	}
}
