// Package planner turns a question (plus the thread's previous plan) into a
// Plan: an intent, slots, the defaults it applied, a one-line interpretation
// and the expr filters to run. It never produces numbers.
package planner

import "github.com/memdb-oracle/memdb-oracle/analytics"

// Intent is what the question asks for.
type Intent string

// The intents a plan can carry.
const (
	IntentLookup     Intent = "lookup"       // the numbers of one or more cells
	IntentCompare    Intent = "compare"      // which is fastest / lowest p99 / X vs Y / how many times
	IntentScaling    Intent = "scaling"      // a metric over cores
	IntentEffect     Intent = "effect"       // what one knob (pipeline, value size, ratio) does
	IntentMemory     Intent = "memory"       // bytes per key (measured table in knowledge)
	IntentFailover   Intent = "failover"     // Sentinel outage (measured table in knowledge)
	IntentCrossSlot  Intent = "crossslot"    // the cross-slot demo: multi-key commands accepted or rejected (table in knowledge)
	IntentDiagnostic Intent = "diagnostics"  // the author's one-off runs, outside the dataset (table in knowledge)
	IntentClaim      Intent = "claim"        // a vendor or third-party claim checked against runs
	IntentDefine     Intent = "define"       // a glossary term
	IntentHelp       Intent = "help"         // what the bot can answer
	IntentOutOfScope Intent = "out_of_scope" // not about the five engines' measurements
	IntentNoData     Intent = "no_data"      // a combination that was never measured
	IntentClarify    Intent = "clarify"      // genuinely ambiguous: ask back with options
	// IntentChatter marks a message that asks the bot nothing ("thanks",
	// "lol", "+1", a message addressed to another person): chat adapters
	// stay silent on it inside a thread.
	IntentChatter Intent = "chatter"

	// The kinds below answer questions the ones above cannot (issue 19).
	IntentSearch     Intent = "search"     // an extreme or a threshold over every measured cell or run
	IntentRecommend  Intent = "recommend"  // every series measured under stated conditions, ranked on one metric
	IntentSpread     Intent = "spread"     // each repetition of the cells asked, with min, max and spread
	IntentProvenance Intent = "provenance" // machines, versions, load tool, durations, repetitions, dates
	IntentCompound   Intent = "compound"   // two or more asks in one message: Parts holds one plan each
)

// Slots are the knobs a question set (or inherited, or defaulted). Zero
// values mean "not set". Engine, mode and ratio values use the filter
// vocabulary ("dragonfly", "cluster-sat", "1:10", "mget10").
type Slots struct {
	Engines []string `json:"engines,omitempty"`
	Modes   []string `json:"modes,omitempty"`
	Cores   []int    `json:"cores,omitempty"`
	// CoresRange means Cores holds the two ends of a range ("from 4 to 48
	// cores") rather than a list of core counts.
	CoresRange bool   `json:"cores_range,omitempty"`
	Ratio      string `json:"ratio,omitempty"`
	ValueBytes int    `json:"value_bytes,omitempty"`
	Pipeline   int    `json:"pipeline,omitempty"`
	Session    int    `json:"session,omitempty"`
	// Metric is a filter-vocabulary metric (ops_per_sec, p50_ms, p99_ms,
	// p999_ms, ops_per_core, hit_rate, kb_per_sec) or a measured-table
	// metric (bytes_per_key, outage_s).
	Metric string `json:"metric,omitempty"`
	// Knob is what an effect or scaling plan varies: "cores", "pipeline",
	// "value_bytes" or "ratio".
	Knob string `json:"knob,omitempty"`
	// DownAfterMs is the Sentinel down-after-milliseconds of a failover question.
	DownAfterMs int `json:"down_after_ms,omitempty"`
	// TermID and ClaimID name knowledge entries ("term:pipelining", "claim:dragonfly-25x").
	TermID  string `json:"term_id,omitempty"`
	ClaimID string `json:"claim_id,omitempty"`
	// Labels are the diagnostic runs asked about ("check48"); Keys the
	// cross-slot demo's keys whose hash slot is asked ("bravo").
	Labels []string `json:"labels,omitempty"`
	Keys   []string `json:"keys,omitempty"`
	// Versions are engine versions the user mentioned ("Redis 9"), which
	// are not necessarily the versions tested.
	Versions []string `json:"versions,omitempty"`
}

// QueryPlan is the structured query a data question compiles to, shown
// by plan --json: the table it reads, the filters (one per series, each
// verbatim and reproducible with `runs`), what a group is, the measure and
// how a cell summarises it, and the shape of the result (order, the place
// or count asked for, a bound to cross).
type QueryPlan struct {
	Dataset   string   `json:"dataset"`
	Filters   []string `json:"filters,omitempty"`
	GroupBy   []string `json:"group_by"`
	Measure   string   `json:"measure,omitempty"`
	Aggregate string   `json:"aggregate"`
	Order     Order    `json:"order,omitempty"`
	Offset    int      `json:"offset,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	Bound     *Bound   `json:"bound,omitempty"`
}

// Bound is a bound on a metric: Op is ">", ">=", "<" or "<=", Value in the
// metric's filter unit.
type Bound struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Value  float64 `json:"value"`
}

// Query is one filter the bot runs through analytics, with the metric it
// reads from the resulting cells and the series label answers show.
type Query struct {
	Label  string `json:"label"`
	Filter string `json:"filter"`
	Metric string `json:"metric"`
	// Engine, Mode and Session name the series the query selects.
	Engine  string `json:"engine,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Session int    `json:"session,omitempty"`
}

// Order says how compare plans rank cells: "desc" (higher is better, e.g.
// throughput) or "asc" (lower is better, e.g. latency).
type Order string

// Ranking orders.
const (
	OrderDesc Order = "desc"
	OrderAsc  Order = "asc"
)

// Plan is the planner's output: everything the bot needs to run queries and
// compose an answer, and nothing numeric.
type Plan struct {
	Intent   Intent `json:"intent"`
	Question string `json:"question"`
	Slots    Slots  `json:"slots"`
	// Defaults lists, in words, each default applied ("SET:GET 1:10 (read-heavy)").
	Defaults []string `json:"defaults,omitempty"`
	// Defaulted names the slots (JSON names, e.g. "cores", "ratio") that
	// defaults filled; a follow-up re-derives them instead of inheriting.
	Defaulted []string `json:"defaulted,omitempty"`
	// Inherited lists the slots (JSON names) taken from the thread's
	// previous plan.
	Inherited []string `json:"inherited,omitempty"`
	// Requested is, for no_data and clarify plans, the intent the question
	// would have had (lookup, compare, ...), so follow-ups can continue it.
	Requested Intent `json:"requested,omitempty"`
	// Refusal is the short reason of an out_of_scope or clarify plan.
	Refusal string `json:"refusal,omitempty"`
	// Explain marks a "why?" question: the answer leads with the reasons
	// (findings, terms, caveats) behind the result.
	Explain bool `json:"explain,omitempty"`
	// Multiple marks a "how many times" compare: the answer states each
	// series as a multiple of the first query's.
	Multiple bool `json:"multiple,omitempty"`
	// Crossover marks a "when does X overtake Y" scaling question.
	Crossover bool `json:"crossover,omitempty"`
	// Interpretation is the one-line human reading of the plan, defaults included.
	Interpretation string  `json:"interpretation"`
	Queries        []Query `json:"queries,omitempty"`
	Order          Order   `json:"order,omitempty"`
	// Missing names each requested part that was never measured (no_data),
	// e.g. "pipeline 64 was never measured — only 1 and 16"; for a question
	// about another database (out_of_scope), the databases it names.
	Missing []string `json:"missing,omitempty"`
	// Unmeasured names the server settings or platforms a no_data plan
	// asked for that no run used ("persistence", "replication", "tls",
	// "eviction", "arm"; FACTS.md §1.2, §1.3), so the answer can say what
	// they would do without a number.
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Nearest holds the closest measured cells for no_data plans.
	Nearest []analytics.Neighbor `json:"nearest,omitempty"`
	// Notes are remarks the answer must carry (e.g. "Redis 9 is not the
	// version tested: Redis 8.2.8 was").
	Notes []string `json:"notes,omitempty"`
	// Options are the choices a clarify plan offers; Suggestions are example
	// questions for help and "not understood" answers.
	Options     []string `json:"options,omitempty"`
	Suggestions []string `json:"suggestions,omitempty"`
	// Unbound lists the words of the question that name a setting, a
	// workload or a metric but that the rules did not bind to any slot
	// ("heavy writes" while the default ratio was applied). A plan with
	// unbound words goes to the language model when one is configured;
	// otherwise the answer's first line states the default it applied
	// instead of them.
	Unbound []string `json:"unbound,omitempty"`
	// UnboundReading is the sentence an answer opens with when Unbound
	// words stayed unbound (no model, or the model did not place them):
	// the reading applied instead and whether what the words ask for was
	// measured ("Read as read-heavy 1:10 — the question mentioned heavy
	// writes: SET:GET 10:1 was never measured"). A plan the language model
	// read opens with that ("Read by the language model as a search for
	// …", modelReading).
	UnboundReading string `json:"unbound_reading,omitempty"`
	// Unread lists what the question said that the plan does not read:
	// a setting no run varied ("-t 32 (memtier client threads)"), a
	// number no slot holds, a name the bot does not know. The answer names
	// them in its first line (the accounting stage, account.go).
	Unread []string `json:"unread,omitempty"`
	// Position, Limit and Aggregate shape a query's answer: the n-th item
	// of a ranking (1-based), the first n items, or a count / the distinct
	// values instead of a figure. Dataset names the measured table a query
	// reads ("runs", "failover", "memory", "crossslot", "diagnostics").
	Position int `json:"position,omitempty"`
	// Query is the structured query of a data plan (QueryPlan).
	Query *QueryPlan `json:"query,omitempty"`
	// Bound is, for a threshold query (Aggregate "threshold": "the fewest
	// cores for 10M ops/s"), the bound the measure must cross.
	Bound     *Bound `json:"bound,omitempty"`
	Limit     int    `json:"limit,omitempty"`
	Aggregate string `json:"aggregate,omitempty"`
	// CountField is the field a "distinct" query lists ("cores"); CellReps
	// keeps, for a count of cells, those measured that many times
	// ("measured only once": 1).
	CountField string `json:"count_field,omitempty"`
	CellReps   int    `json:"cell_reps,omitempty"`
	Dataset    string `json:"dataset,omitempty"`
	// Source says who produced the plan: "rules" or "llm".
	Source string `json:"source,omitempty"`
	// Parts are, for a compound plan, one plan per ask in the order asked.
	Parts []Plan `json:"parts,omitempty"`
	// PartLabel names, on a compound plan's part, what the part stands
	// for when the message did not ask it in words: one measured value of
	// a range ("At 24 cores" for “more than 16 cores”).
	PartLabel string `json:"part_label,omitempty"`
	// Search is what a dataset-wide search looks for.
	Search *Search `json:"search,omitempty"`
	// Premise is the statement a yes/no question asks the data to confirm
	// ("Dragonfly is always ahead of Redis, isn't it?").
	Premise *Premise `json:"premise,omitempty"`
	// Candidate is the one engine a recommendation was asked about ("is
	// KeyDB a sane choice?"): the ranking is every engine's, and the answer
	// says first where this one stands in it.
	Candidate string `json:"candidate,omitempty"`
	// Units are the units and direction the question asked its figures in.
	Units *Units `json:"units,omitempty"`
	// Prediction is the unmeasured value an extrapolation request asked
	// for ("at 128 cores"); the plan refuses it (no_data).
	Prediction *Prediction `json:"prediction,omitempty"`
	// Corrected says, for a correction ("sorry, I meant Valkey"), what it
	// replaced in the thread's last plan ("engine: Redis → Valkey").
	Corrected []string `json:"corrected,omitempty"`
	// Topics are, for a provenance plan, what it asks about: "server",
	// "client", "versions", "tool", "duration", "repetitions", "dates",
	// "config" (how the engines and the cluster were set up).
	Topics []string `json:"topics,omitempty"`
	// Greeting marks a chatter plan that is a hello: answered in one line
	// when the bot is addressed, silence otherwise.
	Greeting bool `json:"greeting,omitempty"`
	// ThreadEngines are the engines the thread has named so far, this
	// question included, so "compare them" can reach back past the last
	// question.
	ThreadEngines []string `json:"thread_engines,omitempty"`
}
