package slack

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// message is one Slack message: the fallback text (notifications, screen
// readers, clients without Block Kit) and its blocks. Plain, for a message
// with a native table, is the same content with the table as monospace
// text: posted only when Slack refuses the table (invalid_blocks).
type message struct {
	Text   string          `json:"text"`
	Blocks []slackgo.Block `json:"blocks"`
	Plain  []message       `json:"-"`
	// Older are alternatives to the whole message for a workspace that
	// refuses its newer blocks, tried in order: each takes fewer of them.
	Older []message `json:"-"`
}

// shown says where an answer appears, which changes what it must repeat.
type shown struct {
	// Asker and Question are set when the channel did not see the
	// question (a slash command or a help button): the answer shows it.
	Asker    string
	Question string
	// Command is the slash command's name, which help mentions.
	Command string
	// Private answers (help, errors) show their evidence right below the
	// reply, not in a thread.
	Private bool
	// Seen are the filters and run IDs this thread's earlier answers
	// already listed: a follow-up's sources list only what is new.
	Seen map[string]bool
	// Web is the public URL of the web pages: run IDs and filters link
	// there, and the card opens its question there. Empty: code text.
	Web string
	// InlineChart draws the chart inside the card as Slack's own chart
	// block (the PNG follows only where the block is refused).
	InlineChart bool
}

// askAction is the action_id of the example-question buttons in help.
const askAction = "oracle_ask"

// runIDsShown is how many run IDs the sources list before "and N more".
const runIDsShown = 8

// render lays out an answer as Slack messages. The first message is the
// reply layer (what the channel sees: at most four short lines and where
// the details are); the rest follow in its thread: the evidence (table,
// claim, caveats, terms, plain words) and its sources. bot.Split decides
// what is reply and what is evidence; this only lays them out. Every
// message has fallback text and keeps to Block Kit's limits; long content
// is split across messages, never cut.
func render(a bot.Answer, where shown) []message {
	l := bot.Split(a)
	out := []message{renderReply(a, l.Reply, where)}
	if l.EvidenceEmpty() {
		return out
	}
	return append(out, evidencePages(l.Evidence, fallbackText(l.Reply), where)...)
}

// evidencePages lays out an evidence layer as messages for the thread:
// its blocks, then the sources the thread has not seen, paginated.
func evidencePages(ev bot.Answer, fallback string, where shown) []message {
	var out []message
	for _, page := range paginate(evidenceBlocks(ev, where, true)) {
		m := message{Text: truncate("Details: "+fallback, maxFallbackText), Blocks: page}
		m.Plain = plainMessages(m)
		out = append(out, m)
	}
	for _, page := range paginate(sources(ev.Sources, where)) {
		out = append(out, message{Text: truncate("Sources: "+fallback, maxFallbackText), Blocks: page})
	}
	return out
}

// renderReply is the reply layer as one message: the question when the
// channel did not see it, the reply's lines, the example buttons of help
// and clarify, and a context line saying where the details are.
func renderReply(a bot.Answer, r bot.Reply, where shown) message {
	var b builder
	if where.Question != "" {
		asker := "Asked"
		if where.Asker != "" {
			asker = "<@" + where.Asker + "> asked"
		}
		b.context("*" + asker + ":* " + escape(where.Question))
	}
	lines := make([]string, 0, len(r.Lines))
	for _, l := range r.Lines {
		lines = append(lines, mrkdwnText(l))
	}
	if text := strings.Join(lines, "\n"); text != "" {
		b.section(text)
	}
	switch {
	case len(a.Choices) > 0:
		b.choices(a.Choices)
	case a.Kind == bot.KindHelp && len(a.Examples) > 0:
		b.buttons(a.Examples)
	}
	if r.Details != "" {
		place := "in the thread"
		if where.Private {
			place = "below"
		}
		b.context(escape(r.Details) + " " + place + ".")
	}
	fallback := fallbackText(r)
	if len(b.blocks) == 0 {
		b.section(escape(fallback)) // an answer with nothing else still says something
	}
	return message{Text: truncate(fallback, maxFallbackText), Blocks: b.blocks}
}

// evidenceBlocks lays out the evidence layer: the full headline and
// reading, the body, the table (native, or monospace when tables is
// false), the claim, caveats, terms, examples and plain words.
func evidenceBlocks(a bot.Answer, where shown, tables bool) []slackgo.Block {
	var b builder
	if a.Headline != "" {
		b.section("*" + mrkdwnText(a.Headline) + "*")
	}
	if a.Interpretation != "" {
		b.context("Read as: " + mrkdwnText(a.Interpretation))
	}
	b.markdown(strings.Join(a.Body, "\n\n"))
	switch {
	case a.Table != nil && len(a.Table.Rows) > 0:
		b.table(a.Table.Columns, a.Table.Rows)
	case len(a.Rows) > 0:
		b.dataTable(rowsCaption("Measured rows", a.Rows), a.Rows)
	case len(a.Nearest) > 0:
		b.section("*Nearest measured rows* (medians across repetitions)")
		b.dataTable(rowsCaption("Nearest measured rows", a.Nearest), a.Nearest)
	}
	if c := a.Claim; c != nil {
		b.claim(*c)
	}
	if len(a.Caveats) > 0 {
		b.section("*Caveats*\n" + bullets(a.Caveats))
	}
	if len(a.Terms) > 0 {
		terms := make([]string, 0, len(a.Terms))
		for _, t := range a.Terms {
			terms = append(terms, "*"+escape(t.Name)+"* — "+mrkdwnText(t.Gist))
		}
		b.context(terms...)
	}
	if len(a.Examples) > 0 {
		b.section("*Try asking:*\n" + bullets(a.Examples))
	}
	if a.Kind == bot.KindHelp && where.Command != "" {
		b.context("In Slack: `" + escape(where.Command) + " QUESTION` anywhere, a mention in a channel (answered in a thread), or a direct message. Follow-ups in my threads need no mention when they ask something; thanks and chatter get no reply.")
	}
	if a.PlainWords != "" {
		b.section("*In plain words:* " + mrkdwnText(a.PlainWords))
	}
	return b.blocks
}

// sources lays out the filters (verbatim), the run IDs (the first eight,
// then "and N more") and the knowledge entries an answer rests on.
func sources(s bot.Sources, where shown) []slackgo.Block {
	s = unseen(s, where.Seen)
	web := strings.TrimRight(where.Web, "/")
	if len(s.Filters) == 0 && len(s.RunIDs) == 0 && len(s.Entries) == 0 {
		return nil
	}
	var b builder
	b.section("*Sources*")
	if len(s.Filters) > 0 {
		elems := make([]string, 0, len(s.Filters))
		for _, f := range s.Filters {
			if web != "" {
				elems = append(elems, "<"+web+"/runs?filter="+url.QueryEscape(f)+"|Filter>: `"+escape(f)+"`")
				continue
			}
			elems = append(elems, "Filter: `"+escape(f)+"`")
		}
		b.context(elems...)
	}
	if n := len(s.RunIDs); n > 0 {
		shownIDs := s.RunIDs[:min(n, runIDsShown)]
		ids := make([]string, len(shownIDs))
		for i, id := range shownIDs {
			ids[i] = "`" + escape(id) + "`"
			if web != "" {
				ids[i] = "<" + web + "/runs/" + url.PathEscape(id) + "|" + escape(id) + ">"
			}
		}
		text := fmt.Sprintf("%d %s: %s", n, plural(n, "run", "runs"), strings.Join(ids, ", "))
		if n > runIDsShown {
			text += fmt.Sprintf(" and %d more", n-runIDsShown)
		}
		b.context(text)
	}
	if len(s.Entries) > 0 {
		elems := make([]string, 0, len(s.Entries))
		for _, e := range s.Entries {
			title := escape(e.Title)
			if e.URL != "" {
				title = "<" + escape(e.URL) + "|" + title + ">"
			}
			elems = append(elems, title+" (`"+escape(e.ID)+"`)")
		}
		b.context(elems...)
	}
	return b.blocks
}

// fallbackText is the message text Slack shows in notifications: the
// reply's first line, which answers.
func fallbackText(r bot.Reply) string {
	for _, s := range r.Lines {
		if s = strings.TrimSpace(s); s != "" {
			return mrkdwnText(s)
		}
	}
	return "memdb-oracle answer"
}

// unseen is the part of a follow-up's sources this thread has not listed
// yet: filters and run IDs already shown are not repeated.
func unseen(s bot.Sources, seen map[string]bool) bot.Sources {
	if len(seen) == 0 {
		return s
	}
	out := bot.Sources{Entries: s.Entries}
	for _, f := range s.Filters {
		if !seen[f] {
			out.Filters = append(out.Filters, f)
		}
	}
	for _, id := range s.RunIDs {
		if !seen[id] {
			out.RunIDs = append(out.RunIDs, id)
		}
	}
	var entries []bot.SourceEntry
	for _, e := range s.Entries {
		if !seen[e.ID] {
			entries = append(entries, e)
		}
	}
	out.Entries = entries
	return out
}

// mrkdwnText converts a one-paragraph Markdown string.
func mrkdwnText(s string) string { return mrkdwn(strings.TrimSpace(s)) }

func bullets(items []string) string {
	lines := make([]string, len(items))
	for i, it := range items {
		lines[i] = "• " + mrkdwnText(it)
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// builder accumulates blocks, splitting any text that would exceed a
// block's limit into several blocks.
type builder struct {
	blocks []slackgo.Block
}

func (b *builder) section(text string) {
	for _, c := range chunks(text, maxSectionText) {
		b.blocks = append(b.blocks, slackgo.NewSectionBlock(
			slackgo.NewTextBlockObject(slackgo.MarkdownType, c, false, false), nil, nil))
	}
}

func (b *builder) context(texts ...string) {
	var elems []slackgo.MixedElement
	flush := func() {
		if len(elems) > 0 {
			b.blocks = append(b.blocks, slackgo.NewContextBlock("", elems...))
			elems = nil
		}
	}
	for _, t := range texts {
		for _, c := range chunks(t, maxContextText) {
			if len(elems) == maxContextElems {
				flush()
			}
			elems = append(elems, slackgo.NewTextBlockObject(slackgo.MarkdownType, c, false, false))
		}
	}
	flush()
}

// code shows lines monospace; a table longer than one section continues
// in the next with its header (the first two lines) repeated.
func (b *builder) code(lines []string) {
	if len(lines) == 0 {
		return
	}
	var head []string
	if len(lines) > 2 && strings.HasPrefix(lines[1], "─") {
		head, lines = lines[:2], lines[2:]
	}
	const fence = "```"
	// A raw line of maxCodeLine characters escapes to at most five times
	// as many, so any line fits a section next to the header.
	const maxCodeLine = 400
	budget := maxSectionText - 2*len(fence)
	var cur []string
	size := 0
	start := func() {
		cur, size = nil, 0
		for _, h := range head {
			cur = append(cur, escape(h))
			size += utf8.RuneCountInString(escape(h)) + 1
		}
	}
	flush := func() {
		b.blocks = append(b.blocks, slackgo.NewSectionBlock(slackgo.NewTextBlockObject(
			slackgo.MarkdownType, fence+strings.Join(cur, "\n")+fence, false, false), nil, nil))
	}
	start()
	for _, raw := range lines {
		for _, piece := range chunks(raw, maxCodeLine) {
			l := escape(piece)
			n := utf8.RuneCountInString(l) + 1
			if len(cur) > len(head) && size+n > budget {
				flush()
				start()
			}
			cur = append(cur, l)
			size += n
		}
	}
	flush()
}

// claim shows a vendor or third-party claim labelled as the claimant's
// statement, next to what the measurements give (the bot's wording).
func (b *builder) claim(c bot.ClaimContext) {
	who := "The claim — " + escape(c.StatementLabel())
	text := "*" + who + ", not measured here:* " + mrkdwnText(c.Statement)
	if c.Setup != "" {
		text += "\n*Their setup:* " + mrkdwnText(c.Setup)
	}
	if c.URL != "" {
		text += "\n*Their source:* <" + escape(c.URL) + ">"
	}
	b.section(text)
	if c.Measured != "" {
		b.section("*Measured here (ground truth in this dataset):* " + mrkdwnText(c.Measured))
	}
	if c.Verdict != "" {
		b.section("*Verdict:* " + mrkdwnText(c.Verdict))
	}
	if c.WhyDiffer != "" {
		b.section("*Why the two differ:* " + mrkdwnText(c.WhyDiffer))
	}
}

// buttons offers example questions as buttons that ask them (handled by
// the interactivity endpoint).
func (b *builder) buttons(questions []string) {
	var elems []slackgo.BlockElement
	for i, q := range questions {
		if len(elems) == maxButtons {
			break
		}
		if len(q) > maxButtonValue {
			continue
		}
		btn := slackgo.NewButtonBlockElement(askAction+"_"+strconv.Itoa(i), q,
			slackgo.NewTextBlockObject(slackgo.PlainTextType, truncate(q, maxButtonLabel), false, false))
		elems = append(elems, btn)
	}
	if len(elems) > 0 {
		b.blocks = append(b.blocks, slackgo.NewActionBlock("oracle_examples", elems...))
	}
}

// choiceAction is the action_id prefix of a clarify's choice buttons; it
// starts with askAction, so a click asks the choice's question.
const choiceAction = askAction + "_choice_"

// choices offers a clarify's readings as numbered buttons that ask them;
// typing the number in the thread does the same.
func (b *builder) choices(questions []string) {
	var elems []slackgo.BlockElement
	for i, q := range questions {
		if len(elems) == maxButtons || len(q) > maxButtonValue {
			break
		}
		label := truncate(strconv.Itoa(i+1)+". "+q, maxButtonLabel)
		elems = append(elems, slackgo.NewButtonBlockElement(choiceAction+strconv.Itoa(i+1), q,
			slackgo.NewTextBlockObject(slackgo.PlainTextType, label, false, false)))
	}
	if len(elems) > 0 {
		b.blocks = append(b.blocks, slackgo.NewActionBlock("oracle_choices", elems...))
	}
}

// markdown lays out a Markdown text: fenced code and pipe tables become
// monospace blocks, the prose between them sections.
func (b *builder) markdown(md string) {
	var prose, code, table []string
	inFence := false
	flushProse := func() {
		text := strings.TrimSpace(strings.Join(prose, "\n"))
		prose = nil
		if text != "" {
			b.section(mrkdwn(text))
		}
	}
	flushTable := func() {
		if rows := pipeRows(table); len(rows) > 0 {
			b.table(rows[0], rows[1:])
		}
		table = nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			if inFence {
				b.code(code)
				code = nil
			} else {
				flushProse()
				flushTable()
			}
			inFence = !inFence
		case inFence:
			code = append(code, line)
		case len(trimmed) > 1 && strings.HasPrefix(trimmed, "|") && strings.HasSuffix(trimmed, "|"):
			flushProse()
			table = append(table, trimmed)
		case trimmed == "" && len(prose) > 0 && utf8.RuneCountInString(strings.Join(prose, "\n")) > maxSectionText/2:
			flushTable()
			flushProse() // start a new section at a paragraph break once this one is long
		default:
			flushTable()
			prose = append(prose, line)
		}
	}
	if inFence {
		b.code(code) // an unclosed fence still shows its code
	}
	flushTable()
	flushProse()
}
