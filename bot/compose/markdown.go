package compose

import (
	"strconv"
	"strings"
)

// maxTextRunIDs is how many run IDs the text lists before "and N more"
// (JSON always carries all of them).
const maxTextRunIDs = 8

// Markdown renders an answer as the canonical Markdown text: what the CLI
// prints, what HTTP returns and the "text" field of the JSON object: the
// reply layer, then the evidence (Split).
func Markdown(a Answer) string { return markdownOf(Split(a)) }

// markdownOf is Markdown of an answer already split into its layers.
func markdownOf(l Layers) string {
	reply := ReplyMarkdown(l.Reply, "below")
	if l.EvidenceEmpty() {
		return reply
	}
	return reply + "\n" + EvidenceMarkdown(l.Evidence)
}

// EvidenceMarkdown renders the evidence layer (or a whole answer) as
// Markdown: headline, interpretation, claim block, body, table, caveats,
// terms, examples, plain words, sources.
func EvidenceMarkdown(a Answer) string {
	var b strings.Builder
	para := func(s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	if a.Headline != "" {
		para("**" + a.Headline + "**")
	}
	if a.Interpretation != "" {
		para("_Read as: " + a.Interpretation + "_")
	}
	// A claim's own statement comes first, labelled, then the measurements.
	if a.Claim != nil {
		para(markdownClaim(*a.Claim))
	}
	for _, p := range a.Body {
		para(p)
	}
	if a.Table != nil && len(a.Table.Rows) > 0 {
		para(markdownTable(*a.Table))
	}
	if len(a.Caveats) > 0 {
		para("**Caveats**\n" + bullets(a.Caveats))
	}
	if len(a.Terms) > 0 {
		var lines []string
		for _, t := range a.Terms {
			lines = append(lines, "**"+t.Name+"** ("+t.ID+"): "+t.Gist)
		}
		para("**Terms used**\n" + bullets(lines))
	}
	if len(a.Examples) > 0 {
		var lines []string
		for _, e := range a.Examples {
			lines = append(lines, "“"+e+"”")
		}
		para("**Try asking**\n" + bullets(lines))
	}
	if a.PlainWords != "" {
		para("**In plain words:** " + a.PlainWords)
	}
	para(markdownSources(a.Sources))
	return b.String() + "\n"
}

func markdownClaim(c ClaimContext) string {
	var lines []string
	head := "**The claim — " + c.StatementLabel() + ", not measured here:** " + c.Statement
	lines = append(lines, head)
	if c.Setup != "" {
		lines = append(lines, "**Their setup:** "+c.Setup)
	}
	if c.URL != "" {
		lines = append(lines, "**Their source:** "+c.URL)
	}
	if c.Measured != "" {
		lines = append(lines, "**Measured here (ground truth in this dataset):** "+c.Measured)
	}
	if c.Verdict != "" {
		lines = append(lines, "**Verdict:** "+c.Verdict)
	}
	if c.WhyDiffer != "" {
		lines = append(lines, "**Why the two differ:** "+c.WhyDiffer)
	}
	return strings.Join(lines, "\n\n")
}

func markdownSources(s Sources) string {
	var lines []string
	for _, f := range s.Filters {
		lines = append(lines, "Filter: `"+f+"`")
	}
	if len(s.RunIDs) > 0 {
		lines = append(lines, "Runs: "+runIDListOf(s.RunIDs, s.RunCount))
	}
	for _, e := range s.Entries {
		line := e.ID
		if e.Title != "" {
			line += " — " + e.Title
		}
		if e.URL != "" {
			line += " — " + e.URL
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return ""
	}
	return "**Sources**\n" + bullets(lines)
}

// runIDList lists up to maxTextRunIDs run IDs in code spans, then "and N more".
func runIDList(ids []string) string { return runIDListOf(ids, len(ids)) }

// runIDListOf is runIDList for the named ids of total runs.
func runIDListOf(ids []string, total int) string {
	shown := ids
	if len(shown) > maxTextRunIDs {
		shown = shown[:maxTextRunIDs]
	}
	parts := make([]string, len(shown))
	for i, id := range shown {
		parts[i] = "`" + id + "`"
	}
	out := strings.Join(parts, ", ")
	if more := max(total, len(ids)) - len(shown); more > 0 {
		out += " and " + strconv.Itoa(more) + " more"
	}
	return out
}

func bullets(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- ")
		b.WriteString(l)
	}
	return b.String()
}

// numbered lists lines as "1. …", for choices picked by number.
func numbered(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". ")
		b.WriteString(l)
	}
	return b.String()
}

func markdownTable(t Table) string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" ")
			b.WriteString(strings.ReplaceAll(c, "|", "\\|"))
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	row(t.Columns)
	sep := make([]string, len(t.Columns))
	for i := range sep {
		sep[i] = "---"
	}
	row(sep)
	for _, r := range t.Rows {
		row(r)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
