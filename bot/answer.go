package bot

import (
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// The answer model lives in package compose, which writes it; these names
// keep bot the one entry point adapters import.
type (
	Kind         = compose.Kind
	Answer       = compose.Answer
	Row          = compose.Row
	RowCell      = compose.RowCell
	Table        = compose.Table
	ClaimContext = compose.ClaimContext
	TermGist     = compose.TermGist
	Sources      = compose.Sources
	SourceEntry  = compose.SourceEntry
	Chart        = compose.Chart
	ChartKind    = compose.ChartKind
	ChartSeries  = compose.ChartSeries
	ChartPoint   = compose.ChartPoint
	AskJSON      = compose.AskJSON
	JSONRow      = compose.JSONRow
	Querier      = compose.Querier
	Knowledge    = compose.Knowledge
)

// Answer kinds.
const (
	KindAnswer      = compose.KindAnswer
	KindClaim       = compose.KindClaim
	KindDefinition  = compose.KindDefinition
	KindNoData      = compose.KindNoData
	KindOutOfScope  = compose.KindOutOfScope
	KindHelp        = compose.KindHelp
	KindClarify     = compose.KindClarify
	KindRateLimited = compose.KindRateLimited
	KindError       = compose.KindError
	KindChatter     = compose.KindChatter
)

// Chart kinds.
const (
	ChartLine = compose.ChartLine
	ChartBar  = compose.ChartBar
)

// Markdown renders an answer as the canonical Markdown text (compose.Markdown).
func Markdown(a Answer) string { return compose.Markdown(a) }

// JSON converts an answer into the docs/design.md#json-answers object (compose.JSON).
func JSON(a Answer) AskJSON { return compose.JSON(a) }

// RowFromCell turns an analytics cell into an answer row (compose.RowFromCell).
func RowFromCell(c analytics.Cell) Row { return compose.RowFromCell(c) }

// Layers is an answer split into its reply and its evidence (compose.Layers).
type (
	Layers = compose.Layers
	Reply  = compose.Reply
)

// Split decides an answer's reply and evidence, once, for every surface.
func Split(a Answer) Layers { return compose.Split(a) }
