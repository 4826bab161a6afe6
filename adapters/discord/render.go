package discord

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Discord's message limits
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
const (
	maxTitle       = 256
	maxDescription = 4096
	maxFields      = 25
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFooter      = 2048
	maxEmbeds      = 10
	maxEmbedChars  = 6000 // all embeds of one message together
	maxContent     = 2000
	maxThreadName  = 100
	maxAltText     = 1024
)

// maxRunIDs is how many run IDs an answer lists before "and N more".
const maxRunIDs = 8

// chartFile is the name the chart is attached under; the first embed's
// image points at it.
const chartFile = "chart.png"

// outMessage is one Discord message of a rendered answer.
type outMessage struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	// Flags carries MessageFlagsIsComponentsV2 for a card laid out in
	// components (a container and text displays: no content, no embeds).
	Flags discordgo.MessageFlags
}

// field is an embed field before it is cut to Discord's limits.
type field struct{ name, value string }

// maxCodeWidth is the widest line a code block may have: wider lines wrap
// into noise on a phone. A wider table is laid out as one line per row.
const maxCodeWidth = 60

// renderAnswer lays an answer out as Discord messages. The first is the
// reply layer (bot.Split): one embed with the reply's lines and, in its
// footer, what the evidence holds. The evidence follows in the next
// messages: the full headline and reading, body and table in
// descriptions; claim, caveats, terms, examples, plain words and sources
// in fields; everything within Discord's limits, split across embeds and
// messages when longer. With chart set the first embed shows the
// attached chart image.
func renderAnswer(a bot.Answer, chart bool) []outMessage {
	l := bot.Split(a)
	title, color := kindStyle(a.Kind)
	reply := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Title: title, Color: color,
		Description: truncate(strings.Join(l.Reply.Lines, "\n"), maxDescription)}
	if l.Reply.Details != "" {
		reply.Footer = &discordgo.MessageEmbedFooter{Text: l.Reply.Details + " below."}
	}
	if chart {
		reply.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + chartFile}
	}
	out := []outMessage{{Embeds: []*discordgo.MessageEmbed{reply}, Components: choiceButtons(a.Choices)}}
	if l.EvidenceEmpty() {
		return out
	}
	ev := l.Evidence
	var footer string
	if len(ev.Rows) > 0 || len(ev.Nearest) > 0 || ev.Table != nil {
		footer = "memdb-oracle · numbers are medians across repetitions of measured runs"
	}
	embeds := packEmbeds("Details", color, descriptionParts(ev), answerFields(ev), footer)
	return append(out, packMessages(embeds)...)
}

// kindStyle is the embed title and colour for each kind of answer.
func kindStyle(k bot.Kind) (title string, color int) {
	switch k {
	case bot.KindAnswer:
		return "Measured answer", 0x2B6CB0
	case bot.KindClaim:
		return "Claim check", 0xD69E2E
	case bot.KindDefinition:
		return "Definition", 0x38A169
	case bot.KindNoData:
		return "Never measured", 0xDD6B20
	case bot.KindOutOfScope:
		return "Outside what this bot covers", 0x718096
	case bot.KindHelp:
		return "memdb-oracle help", 0x5A67D8
	case bot.KindClarify:
		return "Which did you mean?", 0x805AD5
	case bot.KindRateLimited:
		return "Please slow down", 0x718096
	case bot.KindError:
		return "Something went wrong", 0xC53030
	}
	return "memdb-oracle", 0x2B6CB0
}

// descriptionParts are the paragraphs that go into embed descriptions, in
// reading order.
func descriptionParts(a bot.Answer) []string {
	var parts []string
	if a.Headline != "" {
		parts = append(parts, "**"+a.Headline+"**")
	}
	if a.Interpretation != "" {
		parts = append(parts, "_Read as: "+a.Interpretation+"_")
	}
	for _, p := range a.Body {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, withNarrowTables(p))
		}
	}
	if a.Table != nil && len(a.Table.Rows) > 0 {
		parts = append(parts, narrowTable(*a.Table))
	}
	return parts
}

// answerFields are the embed fields of an answer, in reading order.
func answerFields(a bot.Answer) []field {
	var fs []field
	add := func(name, value string) {
		if strings.TrimSpace(value) != "" {
			fs = append(fs, field{name, value})
		}
	}
	if c := a.Claim; c != nil {
		claim := c.Statement // quoted by the bot as the claimant worded it
		if c.Setup != "" {
			claim += "\n**Their setup:** " + c.Setup
		}
		if c.URL != "" {
			claim += "\n**Their source:** " + c.URL
		}
		add("The claim — "+c.StatementLabel()+", not measured here", claim)
		add("Measured here (ground truth in this dataset)", c.Measured)
		add("Verdict", c.Verdict)
		add("Why the two differ", c.WhyDiffer)
	}
	add("Caveats", bullets(a.Caveats))
	var terms []string
	for _, t := range a.Terms {
		terms = append(terms, "**"+t.Name+"**: "+t.Gist)
	}
	add("Terms used", bullets(terms))
	var examples []string
	for _, e := range a.Examples {
		examples = append(examples, "“"+e+"”")
	}
	add("Try asking", bullets(examples))
	if a.Kind == bot.KindHelp {
		add("In Discord", "Mention me in a channel and I answer in a thread, or use `/oracle`. Follow-ups in my threads need a mention or `/oracle` (unless this server gave me the message-content intent); thanks and chatter get no reply.")
	}
	add("In plain words", a.PlainWords)
	fs = append(fs, sourceFields(a.Sources)...)
	return fs
}

// sourceFields show what the numbers rest on: the filters verbatim, the
// run IDs (the first few, then a count) and the knowledge entries.
func sourceFields(s bot.Sources) []field {
	var fs []field
	if len(s.Filters) > 0 {
		name := "Filter"
		if len(s.Filters) > 1 {
			name = "Filters"
		}
		lines := make([]string, len(s.Filters))
		for i, f := range s.Filters {
			lines[i] = "`" + strings.ReplaceAll(f, "`", "'") + "`" // inline code wraps on a phone
		}
		fs = append(fs, field{name, strings.Join(lines, "\n")})
	}
	if len(s.RunIDs) > 0 {
		fs = append(fs, field{"Runs (" + strconv.Itoa(len(s.RunIDs)) + ")", runIDList(s.RunIDs)})
	}
	var refs []string
	for _, e := range s.Entries {
		line := "`" + e.ID + "`"
		switch {
		case e.Title != "" && e.URL != "":
			line += " [" + escapeLinkText(e.Title) + "](" + e.URL + ")"
		case e.Title != "":
			line += " " + e.Title
		case e.URL != "":
			line += " " + e.URL
		}
		refs = append(refs, line)
	}
	if len(refs) > 0 {
		fs = append(fs, field{"References", strings.Join(refs, "\n")})
	}
	return fs
}

// runIDList lists the first maxRunIDs run IDs, one per line, then
// "and N more".
func runIDList(ids []string) string {
	shown := ids
	if len(shown) > maxRunIDs {
		shown = shown[:maxRunIDs]
	}
	lines := make([]string, 0, len(shown)+1)
	for _, id := range shown {
		lines = append(lines, "`"+id+"`")
	}
	if more := len(ids) - len(shown); more > 0 {
		lines = append(lines, "and "+strconv.Itoa(more)+" more")
	}
	return strings.Join(lines, "\n")
}

func escapeLinkText(s string) string {
	return strings.NewReplacer("[", "\\[", "]", "\\]").Replace(s)
}

func bullets(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "• " + strings.Join(lines, "\n• ")
}

// narrowTable lays a table out for a phone: an aligned grid in a code block
// when it is at most maxCodeWidth wide, else one line per row, its first
// cell in bold and the others labelled by their column.
func narrowTable(t bot.Table) string {
	code := codeTable(t)
	for _, l := range strings.Split(code, "\n") {
		if len([]rune(l)) > maxCodeWidth {
			return rowLines(t)
		}
	}
	return code
}

// rowLines is a table as one line per row: "**Dragonfly (single process)**
// — ops/s 15.5M · p50 ms 0.883 · …".
func rowLines(t bot.Table) string {
	lines := make([]string, 0, len(t.Rows))
	for _, r := range t.Rows {
		var cells []string
		for i := 1; i < len(r) && i < len(t.Columns); i++ {
			if strings.TrimSpace(r[i]) != "" {
				cells = append(cells, t.Columns[i]+" "+r[i])
			}
		}
		line := "**" + cellOf(r, 0) + "**"
		if len(cells) > 0 {
			line += " — " + strings.Join(cells, " · ")
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func cellOf(r []string, i int) string {
	if i < len(r) {
		return r[i]
	}
	return ""
}

// withNarrowTables lays out the Markdown pipe tables of a paragraph with
// narrowTable (Discord shows no pipe tables).
func withNarrowTables(md string) string {
	var out, table []string
	flush := func() {
		if len(table) == 0 {
			return
		}
		var rows [][]string
		for _, l := range table {
			cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
			sep := true
			for i, c := range cells {
				cells[i] = strings.TrimSpace(c)
				if strings.Trim(cells[i], ":-") != "" {
					sep = false
				}
			}
			if !sep {
				rows = append(rows, cells)
			}
		}
		if len(rows) > 0 {
			out = append(out, narrowTable(bot.Table{Columns: rows[0], Rows: rows[1:]}))
		}
		table = nil
	}
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		if len(t) > 1 && strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") {
			table = append(table, l)
			continue
		}
		flush()
		out = append(out, l)
	}
	flush()
	return strings.Join(out, "\n")
}

// codeTable renders a table as an aligned plain-text grid in a code block.
func codeTable(t bot.Table) string {
	clean := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), fence, "'''")
	}
	widths := make([]int, len(t.Columns))
	measure := func(cells []string) {
		for i, c := range cells {
			if i < len(widths) {
				widths[i] = max(widths[i], len([]rune(clean(c))))
			}
		}
	}
	measure(t.Columns)
	for _, r := range t.Rows {
		measure(r)
	}
	var b strings.Builder
	line := func(cells []string) {
		var l strings.Builder
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = clean(cells[i])
			}
			if i > 0 {
				l.WriteString("  ")
			}
			l.WriteString(c)
			l.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	line(t.Columns)
	rule := make([]string, len(widths))
	for i, w := range widths {
		rule[i] = strings.Repeat("-", w)
	}
	line(rule)
	for _, r := range t.Rows {
		line(r)
	}
	b.WriteString(fence)
	return b.String()
}

// packEmbeds fills embeds in order: description parts (each cut to the
// description limit) then fields (each cut to the field limits), starting
// a new embed whenever one would break a limit. The footer goes on the
// last embed; room for it is kept in every one.
func packEmbeds(title string, color int, parts []string, fields []field, footer string) []*discordgo.MessageEmbed {
	footer = truncate(footer, maxFooter)
	budget := maxEmbedChars - textLen(footer)
	title = truncate(title, maxTitle)
	cur := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Title: title, Color: color}
	size := textLen(title)
	var out []*discordgo.MessageEmbed
	next := func() {
		out = append(out, cur)
		cur = &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Color: color}
		size = 0
	}
	for _, p := range parts {
		for _, piece := range splitText(p, maxDescription) {
			sep := ""
			if cur.Description != "" {
				sep = "\n\n"
			}
			n := textLen(sep) + textLen(piece)
			if textLen(cur.Description)+n > maxDescription || size+n > budget {
				next()
				sep, n = "", textLen(piece)
			}
			cur.Description += sep + piece
			size += n
		}
	}
	for _, f := range fields {
		name := truncate(f.name, maxFieldName)
		for i, value := range splitText(f.value, maxFieldValue) {
			if i > 0 {
				name = truncate(f.name+" (cont.)", maxFieldName)
			}
			n := textLen(name) + textLen(value)
			if len(cur.Fields) == maxFields || size+n > budget {
				next()
			}
			cur.Fields = append(cur.Fields, &discordgo.MessageEmbedField{Name: name, Value: value})
			size += n
		}
	}
	if cur.Description == "" && len(cur.Fields) == 0 && (len(out) > 0 || cur.Title == "") {
		cur.Description = "…" // Discord refuses an empty embed
	}
	out = append(out, cur)
	if footer != "" {
		out[len(out)-1].Footer = &discordgo.MessageEmbedFooter{Text: footer}
	}
	return out
}

// embedChars counts an embed toward the 6,000-character message limit.
func embedChars(e *discordgo.MessageEmbed) int {
	n := textLen(e.Title) + textLen(e.Description)
	for _, f := range e.Fields {
		n += textLen(f.Name) + textLen(f.Value)
	}
	if e.Footer != nil {
		n += textLen(e.Footer.Text)
	}
	if e.Author != nil {
		n += textLen(e.Author.Name)
	}
	return n
}

// packMessages groups embeds into messages of at most 10 embeds and 6,000
// characters.
func packMessages(embeds []*discordgo.MessageEmbed) []outMessage {
	var out []outMessage
	var cur outMessage
	size := 0
	for _, e := range embeds {
		n := embedChars(e)
		if len(cur.Embeds) == maxEmbeds || (len(cur.Embeds) > 0 && size+n > maxEmbedChars) {
			out = append(out, cur)
			cur, size = outMessage{}, 0
		}
		cur.Embeds = append(cur.Embeds, e)
		size += n
	}
	return append(out, cur)
}
