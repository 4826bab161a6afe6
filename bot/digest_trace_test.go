package bot_test

import (
	"fmt"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestDigestNumbersTraceToRuns runs the golden answers' tracer over the
// whole digest: every number must come from a run median it cites, a
// measured table, a ratio of them, a condition or a cited knowledge entry.
func TestDigestNumbersTraceToRuns(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	d, err := bot.NewDigestSource(env.Store, env.Knowledge).Compose(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The run count in the headline is checked here against the store's own
	// count, then allowed like a number from the question.
	runs := len(env.Store.Runs())
	if d.State.TotalRuns() != runs {
		t.Fatalf("digest counts %d runs, the store holds %d", d.State.TotalRuns(), runs)
	}
	a := bot.Answer{Sources: d.Sources}
	tr := newTracer(env.Store.Runs(), env.Knowledge)
	for _, p := range tr.trace(a, d.Markdown(), []string{fmt.Sprint(runs)}) {
		t.Error(p)
	}
}
