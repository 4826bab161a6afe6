package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm/llmtest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// figureRe finds a measured figure with its unit on an answer's first line.
var figureRe = regexp.MustCompile(`(\d[\d,]*(?:\.\d+)?)(?: ms|M ops/s|K ops/s)`)

// Questions the rules cannot place, read by a model behind the real
// langchaingo client (a loopback fake of the OpenAI-compatible API), are
// answered as a search, a recommendation, a spread, provenance or two of
// them at once: the first line says the model read the question (with a
// threshold as read) and answers from the runs, the evidence names the
// filters and run IDs.
func TestAskAnswersTheNewerKindsThroughTheModel(t *testing.T) {
	for _, tt := range []struct {
		name, question, reply string
		firstLine             string   // the reply's first line opens with it
		filters               []string // nil: any, at least one
		figure                bool     // the first line carries a measured figure shown again in the evidence
		rows                  bool
	}{
		{"a threshold over single runs", "tries where the tail went out past the five-millisecond mark",
			`{"intent":"search","metric":"p99_ms","threshold_op":">","threshold":5,"over":"runs"}`,
			"**Read by the language model as p99 latency (ms) > 5 ms. 330 of the 478 runs searched had p99 latency above 5 ms, the highest: ",
			[]string{"true", "p99_ms > 5"}, true, true},
		{"an extreme over every cell", "across the whole lot, where did the tail get ugliest at the 99.9 mark",
			`{"intent":"search","metric":"p999_ms","extreme":"highest"}`,
			"**Read by the language model as a dataset-wide search. The highest p99.9 latency measured: ",
			[]string{"true"}, true, true},
		{"a recommendation under stated conditions", "thoughts on a sixteen-way rig doing kilobyte lookups",
			`{"intent":"recommend","cores":[16],"ratio":"1:10","value_bytes":1024}`,
			"**Read by the language model as a recommendation on throughput (ops/s). The measurements put Redis Cluster (ceiling) and Valkey Cluster (ceiling) about level on throughput under these conditions, within 5% of each other: ",
			nil, true, true},
		{"the repetitions of one engine's cells", "how much did the fork we settled on jump around from one attempt to the next on the eight-way rig",
			`{"intent":"spread","engines":["valkey"],"cores":[8]}`,
			"**Read by the language model as a question on repetitions. Repetitions of each cell asked",
			nil, false, true},
		{"how the runs were made", "on what metal, and when",
			`{"intent":"provenance","topics":["server","dates"]}`,
			"**Read by the language model as a question on how the runs were made (server, dates). ",
			[]string{"session == 1", "session == 2"}, false, false},
		{"two asks in one message", "tries where the tail went out past the five-millisecond mark, and on what metal and when",
			`{"intent":"compound","parts":[{"intent":"search","metric":"p99_ms","threshold_op":">","threshold":5,"over":"runs"},{"intent":"provenance","topics":["server","dates"]}]}`,
			"**Read by the language model as 2 questions. 1) Read as p99 latency (ms) > 5 ms. 330 of the 478 runs searched had p99 latency above 5 ms, the highest: ",
			[]string{"true", "p99_ms > 5", "session == 1", "session == 2"}, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fp := llmtest.New(t, llmtest.OpenAI, tt.reply)
			getenv := env("HOME", t.TempDir(), "MEMDB_ORACLE_LLM", "openai", "MEMDB_ORACLE_LLM_BASE_URL", fp.URL())
			stdout, stderr, err := runInProcess(t, getenv, "", "--data", t.TempDir(), "ask", "--json", tt.question)
			if err != nil {
				t.Fatalf("ask exited with %v\nstderr: %s", err, stderr)
			}
			if fp.Requests() != 1 || !strings.Contains(fp.Last(t).Prompt(), tt.question) {
				t.Fatalf("the model was asked %d times, or not about the question", fp.Requests())
			}
			var a bot.AskJSON
			if err := json.Unmarshal([]byte(stdout), &a); err != nil {
				t.Fatalf("no JSON answer: %v\n%s", err, stdout)
			}
			first, _, _ := strings.Cut(a.Reply, "\n")
			if a.Kind != bot.KindAnswer || !strings.HasPrefix(first, tt.firstLine) {
				t.Fatalf("kind %s, first line\n%s\nwant it to open with\n%s", a.Kind, first, tt.firstLine)
			}
			if tt.filters != nil && !slices.Equal(a.Filters, tt.filters) || len(a.Filters) == 0 {
				t.Errorf("filters %q, want %q", a.Filters, tt.filters)
			}
			if len(a.RunIDs) == 0 {
				t.Error("no run IDs")
			}
			if tt.rows && len(a.Rows) == 0 {
				t.Error("no measured rows")
			}
			if tt.figure {
				m := figureRe.FindStringSubmatch(first)
				if m == nil || !strings.Contains(a.Text[len(a.Reply):], m[1]) {
					t.Errorf("the first line's figure %q is not in the evidence:\n%s", m, a.Text)
				}
			}
		})
	}
}
