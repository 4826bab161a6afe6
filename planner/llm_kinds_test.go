package planner_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// asReading is a plan without who wrote it and for which wording: what
// remains is the reading, which the model's plan and the rules' plan for
// an equivalent question must share.
func asReading(pl planner.Plan) planner.Plan {
	pl.Question, pl.Source, pl.UnboundReading, pl.Unbound, pl.ThreadEngines = "", "", "", nil, nil
	pl.Parts = slices.Clone(pl.Parts)
	for i := range pl.Parts {
		pl.Parts[i] = asReading(pl.Parts[i])
	}
	return pl
}

// A question the rules cannot place, mapped by the model onto each of the
// newer kinds, is planned exactly as the rules plan an equivalent
// question they can place (same filters, slots, search, topics, reading),
// and its first line says the model read it, with a search's threshold
// as the model read it.
func TestTheModelCanChooseEveryKind(t *testing.T) {
	for _, tt := range []struct {
		name, vague, reply, rules string
		intent                    planner.Intent
		firstLine                 string
	}{
		{"an extreme over everything", "across the whole lot, where did the tail get ugliest at the 99.9 mark",
			`{"intent":"search","metric":"p999_ms","extreme":"highest"}`, "what's the slowest p99.9 anywhere",
			planner.IntentSearch, "Read by the language model as a dataset-wide search"},
		{"a threshold over single runs", "did any attempt keep its p99 inside a millisecond",
			`{"intent":"search","metric":"p99_ms","threshold_op":"<","threshold":1,"over":"runs"}`, "which runs had p99 under 1 ms",
			planner.IntentSearch, "Read by the language model as p99 latency (ms) < 1 ms"},
		{"a latency above a threshold", "tries where the tail went out past the five-millisecond mark",
			`{"intent":"search","metric":"p99_ms","threshold_op":">","threshold":5,"over":"runs"}`, "which runs had p99 over 5 ms",
			planner.IntentSearch, "Read by the language model as p99 latency (ms) > 5 ms"},
		{"a hit-rate threshold in percent", "did the cache ever come up short",
			`{"intent":"search","metric":"hit_rate","threshold_op":"<","threshold":100,"over":"runs"}`, "were there ever misses",
			planner.IntentSearch, "Read by the language model as runs with cache misses (hit rate below 100%)"},
		{"a recommendation under stated conditions", "thoughts on a sixteen-way rig doing kilobyte lookups",
			`{"intent":"recommend","cores":[16],"ratio":"1:10","value_bytes":1024}`, "what should I use for a read-heavy 16-core box with 1 KB values",
			planner.IntentRecommend, "Read by the language model as a recommendation on throughput (ops/s)"},
		{"the repetitions of the cells asked", "how much did the fork we settled on jump around from one attempt to the next",
			`{"intent":"spread","engines":["valkey"]}`, "how noisy were valkey's runs",
			planner.IntentSpread, "Read by the language model as a question on repetitions"},
		{"how the runs were made", "on what metal, and when",
			`{"intent":"provenance","topics":["dates","server"]}`, "when were the runs captured and on what server machines",
			planner.IntentProvenance, "Read by the language model as a question on how the runs were made (server, dates)"},
		{"two asks in one message", "where did the tail get ugliest at the 99.9 mark, and on what metal and when",
			`{"intent":"compound","parts":[{"intent":"search","metric":"p999_ms","extreme":"highest"},{"intent":"provenance","topics":["server","dates"]}]}`,
			"what's the slowest p99.9 anywhere? also, when were the runs captured and on what server machines",
			planner.IntentCompound, "Read by the language model as 2 questions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &scriptedCompleter{reply: tt.reply}
			pl, err := realPlannerWith(t, planner.Options{Completer: c}).Plan(t.Context(), tt.vague, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.calls != 1 || pl.Source != "llm" || pl.Intent != tt.intent {
				t.Fatalf("model asked %d times; got %s from %s, want %s from llm\n%s", c.calls, pl.Intent, pl.Source, tt.intent, pl.Text())
			}
			for _, field := range []string{`"` + string(tt.intent) + `"`, `"threshold_op"`, `"extreme"`, `"over"`, `"topics"`} {
				if !strings.Contains(c.prompts[0], field) {
					t.Errorf("the prompt does not offer %s", field)
				}
			}
			ruled, err := realPlanner(t).Plan(t.Context(), tt.rules, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ruled.Source != "rules" || ruled.Intent != tt.intent {
				t.Fatalf("the rules read %q as %s from %s, want %s\n%s", tt.rules, ruled.Intent, ruled.Source, tt.intent, ruled.Text())
			}
			if !reflect.DeepEqual(asReading(pl), asReading(ruled)) {
				t.Errorf("the model's plan differs from the rules' plan for %q\nmodel:\n%s\nrules:\n%s", tt.rules, pl.Text(), ruled.Text())
			}
			if !strings.HasPrefix(pl.UnboundReading, tt.firstLine) {
				t.Errorf("first line opens %q, want %q", pl.UnboundReading, tt.firstLine)
			}
			for _, part := range append([]planner.Plan{pl}, pl.Parts...) {
				if len(part.Queries) == 0 && part.Intent != planner.IntentCompound {
					t.Errorf("no query in the %s plan: nothing to measure", part.Intent)
				}
			}
		})
	}
}

// A threshold in wording the rules cannot read is a condition the model
// extracts: the matches filter holds it verbatim, and the first
// line shows it.
func TestAModelThresholdIsAConditionShownVerbatim(t *testing.T) {
	c := &scriptedCompleter{reply: `{"intent":"search","metric":"p99_ms","threshold_op":">","threshold":5,"over":"runs"}`}
	pl, err := realPlannerWith(t, planner.Options{Completer: c}).Plan(t.Context(), "tries where the tail went out past the five-millisecond mark", nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Source != "llm" || pl.Intent != planner.IntentSearch || pl.Search == nil {
		t.Fatalf("got %s from %s\n%s", pl.Intent, pl.Source, pl.Text())
	}
	want := []string{`true`, `p99_ms > 5`}
	if got := filtersOf(pl); !reflect.DeepEqual(got, want) {
		t.Errorf("filters %q, want %q", got, want)
	}
	if pl.Search.Op != ">" || pl.Search.Value != 5 || pl.Order != planner.OrderDesc {
		t.Errorf("search %+v, order %s", *pl.Search, pl.Order)
	}
	for _, s := range []string{pl.UnboundReading, pl.Interpretation} {
		if !strings.Contains(s, "p99 latency (ms) > 5 ms") {
			t.Errorf("%q does not show the threshold as read", s)
		}
	}
}

// A threshold is shown in its own metric's unit, as the model read it.
func TestAModelThresholdKeepsItsMetricsUnit(t *testing.T) {
	for _, tt := range []struct{ reply, want string }{
		{`{"intent":"search","metric":"kb_per_sec","threshold_op":">=","threshold":500000}`, "(KB/s) >= 500K KB/s"},
		{`{"intent":"search","metric":"ops_per_core","threshold_op":">","threshold":250000}`, "> 250K ops/s per core"},
		{`{"intent":"search","metric":"ops_per_sec","threshold_op":">=","threshold":20000000,"fewest_cores":true}`, "ops/s) >= 20M ops/s"},
		{`{"intent":"search","metric":"hit_rate","threshold_op":"<=","threshold":99.5}`, "<= 99.5%"},
	} {
		c := &scriptedCompleter{reply: tt.reply}
		pl, err := realPlannerWith(t, planner.Options{Completer: c}).Plan(t.Context(), "tries where the tail went out past the five-millisecond mark", nil)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Source != "llm" || !strings.Contains(pl.UnboundReading, tt.want) || !strings.Contains(pl.Interpretation, tt.want) {
			t.Errorf("%s: got %s from %s, first line %q, reading %q; want %q in both", tt.reply, pl.Intent, pl.Source, pl.UnboundReading, pl.Interpretation, tt.want)
		}
	}
}

// A reply outside the schema of the newer kinds, or asking for a kind
// without what it needs, is rejected whole: the rules' own reading
// stands (here: not understood, with suggestions), never a guess.
func TestIncompleteOrStrayKindRepliesAreRejected(t *testing.T) {
	for _, tt := range []struct{ name, reply string }{
		{"a search without a metric", `{"intent":"search","extreme":"highest"}`},
		{"a search without a threshold or an extreme", `{"intent":"search","metric":"p99_ms"}`},
		{"a comparison without its value", `{"intent":"search","metric":"p99_ms","threshold_op":">"}`},
		{"a value without its comparison", `{"intent":"search","metric":"p99_ms","threshold":5}`},
		{"an unknown comparison", `{"intent":"search","metric":"p99_ms","threshold_op":"=>","threshold":5}`},
		{"a threshold written as text", `{"intent":"search","metric":"p99_ms","threshold_op":">","threshold":"5 ms"}`},
		{"a negative threshold", `{"intent":"search","metric":"ops_per_sec","threshold_op":">=","threshold":-1}`},
		{"a latency threshold out of range", `{"intent":"search","metric":"p99_ms","threshold_op":"<","threshold":5e9}`},
		{"a hit rate above 100 percent", `{"intent":"search","metric":"hit_rate","threshold_op":"<","threshold":150}`},
		{"an unknown extreme", `{"intent":"search","metric":"p99_ms","extreme":"worst"}`},
		{"an unknown search unit", `{"intent":"search","metric":"p99_ms","extreme":"highest","over":"rows"}`},
		{"fewest cores without a threshold", `{"intent":"search","metric":"ops_per_sec","extreme":"highest","fewest_cores":true}`},
		{"a search over a measured table", `{"intent":"search","metric":"bytes_per_key","extreme":"lowest"}`},
		{"search fields on a lookup", `{"intent":"lookup","engines":["dragonfly"],"extreme":"highest"}`},
		{"topics on a lookup", `{"intent":"lookup","engines":["dragonfly"],"topics":["server"]}`},
		{"an unknown topic", `{"intent":"provenance","topics":["price"]}`},
		{"a provenance question ranking a metric", `{"intent":"provenance","metric":"p99_ms"}`},
		{"a recommendation varying a knob", `{"intent":"recommend","cores":[16],"knob":"pipeline"}`},
		{"a recommendation on a measured table", `{"intent":"recommend","metric":"outage_s"}`},
		{"a spread naming no cell", `{"intent":"spread"}`},
		{"a compound without its parts", `{"intent":"compound"}`},
		{"a compound of one ask", `{"intent":"compound","parts":[{"intent":"search","metric":"p99_ms","extreme":"highest"}]}`},
		{"a compound of five asks", `{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"provenance"},{"intent":"provenance"},{"intent":"provenance"},{"intent":"provenance"}]}`},
		{"a compound with fields beside its parts", `{"intent":"compound","engines":["redis"],"parts":[{"intent":"provenance"},{"intent":"spread","engines":["redis"]}]}`},
		{"a compound inside a compound", `{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"provenance"}]}]}`},
		{"a compound with an unclear ask", `{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"unclear"}]}`},
		{"a compound with an ask outside the schema", `{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"search","metric":"p99_ms"}]}`},
		{"a compound with an ask naming no cell", `{"intent":"compound","parts":[{"intent":"provenance"},{"intent":"spread"}]}`},
		{"parts on a lookup", `{"intent":"lookup","engines":["redis"],"parts":[{"intent":"provenance"},{"intent":"provenance"}]}`},
		{"a number of results", `{"intent":"search","metric":"ops_per_sec","extreme":"highest","result":42000000}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &scriptedCompleter{reply: tt.reply}
			pl, err := realPlannerWith(t, planner.Options{Completer: c}).Plan(t.Context(), "the nimble one with the tiny blobs, how did it fare", nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.calls != 1 {
				t.Fatalf("model asked %d times", c.calls)
			}
			if pl.Source != "rules" || pl.Intent != planner.IntentClarify || strings.Contains(pl.UnboundReading, "language model") {
				t.Errorf("got %s from %s (%q), want the rules' not understood\n%s", pl.Intent, pl.Source, pl.UnboundReading, pl.Text())
			}
		})
	}
}

// A follow-up the rules cannot place, read by the model as a kind that
// leaves what it asks about to the thread ("how much did the numbers
// move about?" as a spread of no cell), continues the thread's last
// request through the rules' own follow-up construction: the same plan as
// the rules' plan for a follow-up they can place, after the same first
// question.
func TestAModelFollowUpContinuesTheThread(t *testing.T) {
	for _, tt := range []struct {
		name, first, vague, reply, rules string
		intent                           planner.Intent
	}{
		{"the repetitions of the thread's cells", "dragonfly vs redis at 8 cores", "how much did the numbers move about",
			`{"intent":"spread"}`, "how consistent were those?", planner.IntentSpread},
		{"a recommendation under the thread's conditions", "valkey at 16 cores with 1 KB values, no pipelining", "so which would you put in production then",
			`{"intent":"recommend"}`, "what would you recommend then?", planner.IntentRecommend},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &scriptedCompleter{reply: tt.reply}
			withModel := realPlannerWith(t, planner.Options{Completer: c})
			prev, err := withModel.Plan(t.Context(), tt.first, nil)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := withModel.Plan(t.Context(), tt.vague, &prev)
			if err != nil {
				t.Fatal(err)
			}
			if c.calls != 1 || pl.Source != "llm" || pl.Intent != tt.intent {
				t.Fatalf("model asked %d times; got %s from %s, want %s from llm\n%s", c.calls, pl.Intent, pl.Source, tt.intent, pl.Text())
			}
			rules := realPlanner(t)
			rprev, err := rules.Plan(t.Context(), tt.first, nil)
			if err != nil {
				t.Fatal(err)
			}
			ruled, err := rules.Plan(t.Context(), tt.rules, &rprev)
			if err != nil {
				t.Fatal(err)
			}
			if ruled.Source != "rules" || ruled.Intent != tt.intent {
				t.Fatalf("the rules read %q as %s from %s, want %s\n%s", tt.rules, ruled.Intent, ruled.Source, tt.intent, ruled.Text())
			}
			if !reflect.DeepEqual(asReading(pl), asReading(ruled)) {
				t.Errorf("the model's plan differs from the rules' follow-up %q\nmodel:\n%s\nrules:\n%s", tt.rules, pl.Text(), ruled.Text())
			}
			if len(pl.Queries) == 0 || len(pl.Queries) != len(prev.Queries) && tt.intent == planner.IntentSpread {
				t.Errorf("the spread reads %d queries, the thread's plan %d", len(pl.Queries), len(prev.Queries))
			}
		})
	}
	// With no thread, a spread of no cell is no reading: the rules' own
	// plan (or clarify) stands.
	c := &scriptedCompleter{reply: `{"intent":"spread"}`}
	pl, err := realPlannerWith(t, planner.Options{Completer: c}).Plan(t.Context(), "how much did the numbers move about", nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Source == "llm" {
		t.Errorf("a spread of no cell and no thread was planned from the model:\n%s", pl.Text())
	}
}
