package compose

import (
	"bytes"
	"encoding/json"
)

// AskJSON is the object `ask --json` prints and `POST /api/ask` returns,
// exactly as docs/design.md#json-answers specifies. Build it with JSON.
type AskJSON struct {
	Kind           Kind          `json:"kind"`
	Interpretation string        `json:"interpretation"`
	Text           string        `json:"text"`
	Filters        []string      `json:"filters"`
	Rows           []JSONRow     `json:"rows"`
	Nearest        []JSONRow     `json:"nearest"`
	RunIDs         []string      `json:"run_ids"`
	RunCount       int           `json:"run_count"`
	Sources        []SourceEntry `json:"sources"`
	// Reply is the reply layer alone, as Markdown; Text begins with it.
	Reply   string   `json:"reply"`
	Choices []string `json:"choices,omitempty"`
}

// JSONRow is one measured cell in the JSON object, with exact medians:
// its first run IDs, how many runs there are and, when some are not
// named, the exact filter that lists them all.
type JSONRow struct {
	RowCell
	RunIDs     []string `json:"run_ids"`
	RunCount   int      `json:"run_count"`
	RunsFilter string   `json:"runs_filter,omitempty"`
}

// JSON converts an answer into the object docs/design.md#json-answers describes. Slices are never nil,
// so they encode as [] rather than null; "text" is Markdown(a), the reply
// then the evidence; "reply" the reply alone.
func JSON(a Answer) AskJSON {
	// A clarify offers its own readings of the question; one the planner
	// could not read at all offers the first examples.
	choices := a.Choices
	if a.Kind == KindClarify && len(choices) == 0 {
		choices = a.Examples[:min(3, len(a.Examples))]
	}
	l := Split(a) // once for both texts: it was half of the JSON object's cost
	return AskJSON{
		Reply:          ReplyMarkdown(l.Reply, "below"),
		Choices:        choices,
		Kind:           a.Kind,
		Interpretation: a.Interpretation,
		Text:           markdownOf(l),
		Filters:        nonNil(a.Sources.Filters),
		Rows:           jsonRows(a.Rows),
		Nearest:        jsonRows(a.Nearest),
		RunIDs:         nonNil(a.Sources.RunIDs),
		RunCount:       max(a.Sources.RunCount, len(a.Sources.RunIDs)),
		Sources:        nonNil(a.Sources.Entries),
	}
}

// Encode is the object as POST /api/ask sends it: one line of JSON, HTML
// characters left as written, ending in a newline. The error is that of
// encoding/json (a NaN median, say).
func (j AskJSON) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func jsonRows(rows []Row) []JSONRow {
	out := make([]JSONRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, JSONRow{RowCell: r.RowCell, RunIDs: nonNil(r.RunIDs), RunCount: max(r.RunCount, len(r.RunIDs)), RunsFilter: r.RunsFilter})
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
