package compose

import "strings"

// Kind is what sort of answer this is (docs/design.md#answers).
type Kind string

// Answer kinds.
const (
	KindAnswer      Kind = "answer"
	KindClaim       Kind = "claim"
	KindDefinition  Kind = "definition"
	KindNoData      Kind = "no_data"
	KindOutOfScope  Kind = "out_of_scope"
	KindHelp        Kind = "help"
	KindClarify     Kind = "clarify"
	KindRateLimited Kind = "rate_limited"
	KindError       Kind = "error"
	// KindChatter answers a message that asks nothing (a greeting,
	// "thanks", "+1", a message to someone else): one line when the bot
	// is addressed; chat surfaces stay silent on it in a thread.
	KindChatter Kind = "chatter"
)

// Answer is the platform-neutral reply. Adapters render it; Markdown(a) is
// the canonical text form (CLI, HTTP, the JSON "text" field).
type Answer struct {
	Kind           Kind   `json:"kind"`
	Interpretation string `json:"interpretation"`
	Headline       string `json:"headline"`
	// Body holds further paragraphs in Markdown, in reading order.
	Body    []string      `json:"body,omitempty"`
	Table   *Table        `json:"table,omitempty"`
	Rows    []Row         `json:"rows"`
	Nearest []Row         `json:"nearest"`
	Claim   *ClaimContext `json:"claim,omitempty"`
	Caveats []string      `json:"caveats,omitempty"`
	Terms   []TermGist    `json:"terms,omitempty"`
	// PlainWords is one line for a newcomer.
	PlainWords string  `json:"plain_words,omitempty"`
	Sources    Sources `json:"sources"`
	Chart      *Chart  `json:"chart,omitempty"`
	// Ephemeral answers (errors, rate-limit notices, help) are shown only
	// to the asker where the platform allows.
	Ephemeral bool `json:"ephemeral,omitempty"`
	// Examples are questions that really work (help, clarify).
	Examples []string `json:"examples,omitempty"`
	// Choices are a clarify answer's readings of the question, each a
	// question ready to ask; chat surfaces let the user pick one by number.
	Choices []string `json:"choices,omitempty"`
	// Parts is, for a compound answer, how many asks it answers: the
	// headline answers the first, the body opens with one line for each
	// next one, so the reply shows those before the reading.
	Parts int `json:"parts,omitempty"`
	// reading is the reading the headline opens with (withUnboundReading):
	// a first line too long for its budget shortens it, not the answer.
	reading string
}

// Row is one measured cell as an answer shows it: the series name users
// see, the conditions, the medians and the run IDs behind them.
type Row struct {
	Series string `json:"series"` // e.g. "Redis Cluster — realistic (one normal client)"
	RowCell
	OpsPerCore float64  `json:"ops_per_core,omitempty"`
	KBPerSec   float64  `json:"kb_per_sec,omitempty"`
	HitRate    *float64 `json:"hit_rate,omitempty"`
	Floor      bool     `json:"floor,omitempty"`   // Garnet: "at least", client-limited
	Differs    []string `json:"differs,omitempty"` // nearest rows: knobs that differ from the request
	// RunIDs are the first analytics.ShownRunIDs runs behind the row;
	// RunCount counts them all and, when some are not named, RunsFilter
	// is the exact filter that lists every one.
	RunIDs     []string `json:"run_ids"`
	RunCount   int      `json:"run_count"`
	RunsFilter string   `json:"runs_filter,omitempty"`
}

// RowCell is what a row and a row of the JSON object (JSONRow) share:
// the cell's conditions, its repetitions and its exact medians.
type RowCell struct {
	Engine     string  `json:"engine"`
	Mode       string  `json:"mode"`
	Session    int     `json:"session"`
	Cores      int     `json:"cores"`
	Ratio      string  `json:"ratio"`
	ValueBytes int     `json:"value_bytes"`
	Pipeline   int     `json:"pipeline"`
	Reps       int     `json:"reps"`
	OpsPerSec  float64 `json:"ops_per_sec"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	P999Ms     float64 `json:"p999_ms"`
}

// Table is a rendered-agnostic grid: header and cells as display strings.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// ClaimContext is a claim labelled as the claimant's statement, next to
// what the measurements give.
type ClaimContext struct {
	ID        string `json:"id"`
	Claimant  string `json:"claimant"` // vendor or third party
	Statement string `json:"statement"`
	Setup     string `json:"setup"`
	URL       string `json:"url"`
	// Measured is what this dataset gives (e.g. "3.4× a realistic Redis
	// Cluster; 0.38× the fully driven ceiling").
	Measured  string `json:"measured"`
	Verdict   string `json:"verdict"`
	WhyDiffer string `json:"why_differ"`
}

// TermGist is a glossary term used in the answer with its one-line gist.
type TermGist struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Gist string `json:"gist"`
}

// Sources are what every number rests on. RunIDs names at most
// analytics.ShownRunIDs runs per cell; RunCount counts every run behind the
// answer, which its filters list.
type Sources struct {
	Filters  []string      `json:"filters"`
	RunIDs   []string      `json:"run_ids"`
	RunCount int           `json:"run_count"`
	Entries  []SourceEntry `json:"entries"`
	// unnamed counts, per exact filter that lists them (a row's
	// RunsFilter), the runs RunIDs leaves out: answers merged into one
	// count each filter's runs once.
	unnamed map[string]int
}

// SourceEntry is a knowledge-base entry with its title and URL.
type SourceEntry struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Chart is a platform-neutral chart description built from the same rows
// as the table.
type Chart struct {
	Kind  ChartKind `json:"kind"` // line (over cores) or grouped bars
	Title string    `json:"title"`
	// Subtitle carries the notes a reader needs for the values (medians,
	// single runs, floors, separate sessions).
	Subtitle string `json:"subtitle,omitempty"`
	XLabel   string `json:"x_label"`
	// XCategorical says the x values are categories, shown evenly spaced
	// by their XLabel in order of X.
	XCategorical bool          `json:"x_categorical,omitempty"`
	YLabel       string        `json:"y_label"`
	YUnit        string        `json:"y_unit"`
	LogY         bool          `json:"log_y"`
	Series       []ChartSeries `json:"series"`
	AltText      string        `json:"alt_text"`
	// Cost is, for an effect on throughput, the latency paid for it: the
	// p99 of the same measured cells at each knob value, as a second panel
	// with the same series and x values. Nil for other charts.
	Cost *Chart `json:"cost,omitempty"`
}

// ChartSeries is one line or set of points.
type ChartSeries struct {
	Name    string       `json:"name"`
	Engine  string       `json:"engine,omitempty"`  // filter vocabulary, for colours
	Mode    string       `json:"mode,omitempty"`    // filter vocabulary, for markers
	Floor   bool         `json:"floor,omitempty"`   // Garnet: drawn hollow, "≥" in the legend
	Ceiling bool         `json:"ceiling,omitempty"` // fully driven cluster: drawn distinct
	Points  []ChartPoint `json:"points"`
}

// ChartPoint is one x/y value; XLabel is how the x value is shown ("48",
// "1 KB"); Label is the value as written at the point ("15.5M", "≥21.4M").
type ChartPoint struct {
	X      float64 `json:"x"`
	XLabel string  `json:"x_label"`
	Y      float64 `json:"y"`
	Label  string  `json:"label"`
}

// StatementLabel says whose statement a claim is, for its heading:
// "Dragonfly's statement (vendor)", "a third party's statement
// (unverified)", "statements of various third parties".
func (c ClaimContext) StatementLabel() string {
	name, role := strings.TrimSpace(c.Claimant), ""
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		name, role = name[:i], name[i+2:len(name)-1]
	}
	switch {
	case name == "":
		return "the claimant's statement"
	case name == "various":
		return "statements of various third parties"
	case name == "third party":
		name = "a third party"
	}
	label := name + "'s statement"
	if role != "" {
		label += " (" + role + ")"
	}
	return label
}
