package compose

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// The two layers of every answer (docs/design.md#answers): the reply, which a chat
// shows first and alone, and the evidence, which follows in the thread (or
// below it in a terminal). They are decided here, once, from the answer
// model; surfaces only lay them out.

// Reply limits: the whole reply, the details line included.
const (
	MaxReplyLines   = 4
	MaxReplyVisible = 600
)

// budgets of the reply's lines, in visible characters.
const (
	firstLineBudget  = 280
	readAsBudget     = 230
	thirdLineBudget  = 150
	detailsReserve   = 70
	minUsefulBudget  = 40
	replyBudgetTotal = MaxReplyVisible - detailsReserve
)

// Reply is the reply layer: the lines in reading order (Markdown, one line
// each: line 1 answers, line 2 says how the question was read, at most one
// more) and Details, what the evidence holds ("Details, filters and 10 run
// IDs"), which each surface closes with where to find it. Details is empty
// when the reply says everything.
type Reply struct {
	Lines   []string `json:"lines"`
	Details string   `json:"details,omitempty"`
}

// Layers is one answer split into its reply and its evidence. Evidence is
// the answer without what the reply already says in full; everything else
// of the answer (headline with full series names, reading, claim setup,
// body, table, caveats, terms, examples, plain words, sources) is there.
type Layers struct {
	Reply    Reply
	Evidence Answer
}

// EvidenceEmpty reports whether the evidence has nothing left to show.
func (l Layers) EvidenceEmpty() bool { return EvidenceMarkdown(l.Evidence) == "\n" }

// Split decides an answer's two layers.
func Split(a Answer) Layers {
	ev := a
	var lines []string
	first := replyFirstLine(a)
	lines = append(lines, first)
	if first == boldLine(a.Headline) {
		ev.Headline = ""
	}
	used := Visible(first)
	if second, whole := replyReading(a, replyBudgetTotal-used); second != "" {
		lines = append(lines, second)
		used += Visible(second)
		if whole == "interpretation" {
			ev.Interpretation = ""
		}
		if whole == "body" {
			ev.Body = ev.Body[1:]
		}
	}
	if third := replyThirdLine(a, min(thirdLineBudget, replyBudgetTotal-used)); third != "" {
		lines = append(lines, third)
	}
	l := Layers{Reply: Reply{Lines: lines}, Evidence: ev}
	if !l.EvidenceEmpty() {
		l.Reply.Details = details(ev)
	}
	return l
}

func boldLine(s string) string {
	if s == "" {
		return ""
	}
	return "**" + s + "**"
}

// replyFirstLine answers: the verdict first for a claim, the headline in
// short series names otherwise, a title-only headline (a definition, "never
// measured, on more than one count:") joined to what it introduces.
func replyFirstLine(a Answer) string {
	head := a.Headline
	if a.Kind == KindClaim && a.Claim != nil && a.Claim.Verdict != "" && !strings.HasPrefix(head, "Verdict") {
		measured := strings.TrimSpace(head)
		if _, rest, ok := strings.Cut(measured, "): "); ok && strings.HasPrefix(measured, "Measured here") {
			measured = "measured " + rest
		}
		verdict := strings.TrimSuffix(strings.TrimSpace(a.Claim.Verdict), ".")
		return "**" + verdict + "** — " + fitClauses(shortText(measured), firstLineBudget-Visible(verdict)-3)
	}
	if head == "" {
		return ""
	}
	short := shortText(head)
	if titleOnly(short) && len(a.Body) > 0 {
		rest := flatten(a.Body[0])
		if strings.HasSuffix(short, ":") {
			return "**" + short + "** " + fitClauses(shortText(rest), firstLineBudget-Visible(short)-1)
		}
		return "**" + short + "** — " + fitClauses(shortText(rest), firstLineBudget-Visible(short)-3)
	}
	if short == head && Visible(head) <= firstLineBudget {
		return boldLine(head)
	}
	if lead := shortText(a.reading); lead != "" && Visible(short) > firstLineBudget {
		// "Left out … ; I don't know …. KeyDB: 636K ops/s …": a long
		// reading gives way to the figure, keeping half the line at most.
		if answer, ok := strings.CutPrefix(short, lead+" "); ok {
			room := max(firstLineBudget-Visible(answer)-1, min(Visible(lead), firstLineBudget/2))
			lead = fitClauses(lead, room)
			return boldLine(lead + " " + fitClauses(answer, firstLineBudget-Visible(lead)-1))
		}
	}
	return boldLine(fitClauses(short, firstLineBudget))
}

// titleOnly reports a headline that names rather than answers: no full
// stop at its end (a term's name) or a colon introducing a list.
func titleOnly(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, ":") || !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && Visible(s) < 80
}

// replyReading is how the question was read: the interpretation, compact,
// or, for answers without one and compound answers (whose body opens with
// the next ask's answer), the first paragraph of the body. whole says
// which part the line carries in full ("interpretation", "body" or "").
func replyReading(a Answer, budget int) (line, whole string) {
	budget = min(budget, readAsBudget+max(0, firstLineBudget-budget))
	if budget < minUsefulBudget {
		return "", ""
	}
	if a.Interpretation != "" && a.Parts < 2 {
		fit := compactReading(shortText(a.Interpretation), budget-len("Read as: "))
		if fit == a.Interpretation {
			whole = "interpretation"
		}
		return "_Read as: " + fit + "_", whole
	}
	if len(a.Body) == 0 || titleOnly(shortText(a.Headline)) {
		return "", ""
	}
	body := flatten(a.Body[0])
	fit := fitClauses(shortText(body), budget)
	if fit == a.Body[0] {
		whole = "body"
	}
	return fit, whole
}

// whereMeasured is the note on a default session, which the evidence keeps.
// Compiled on first use: a process that never needs it does not pay for it at start.
var whereMeasured = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(where [^)]*\)`) })

// compactReading fits an interpretation into budget: first without the
// notes on where a session's engines were measured, then without the list
// of series compared (line 1 names them), so that the defaults and the
// slots kept from the thread stay in the line; then cut.
func compactReading(s string, budget int) string {
	if Visible(s) <= budget {
		return s
	}
	s = whereMeasured().ReplaceAllString(s, "")
	if Visible(s) > budget {
		parts := strings.Split(s, "; ")
		vs := strings.Index(parts[0], " vs ")
		colon := strings.LastIndex(parts[0][:max(vs, 0)], ": ")
		if head, list := parts[0][:max(colon, 0)], parts[0][max(colon, 0):]; vs > 0 && colon > 0 {
			list = strings.TrimPrefix(list, ": ")
			if _, conds, ok := strings.Cut(list, ", "); ok && !strings.Contains(conds, " vs ") {
				parts[0] = head + ", " + conds
			} else {
				parts[0] = head
			}
		}
		s = strings.Join(parts, "; ")
	}
	return fitClauses(s, budget)
}

// replyThirdLine is the one more line that changes the meaning: for a
// refusal its nearest measured row, else the caveat a reader must not miss
// when line 1 does not say it already.
func replyThirdLine(a Answer, budget int) string {
	if budget < minUsefulBudget {
		return ""
	}
	if a.Kind == KindNoData && len(a.Nearest) > 0 {
		return fitClauses("Nearest measured: "+nearestWords(a.Nearest[0]), budget)
	}
	first := strings.ToLower(a.Headline)
	for _, e := range a.Sources.Entries {
		switch e.ID {
		case "caveat:cross-session":
			if !strings.Contains(first, "session") {
				return fitClauses("Two capture sessions (different machines and dates): treat the gap as indicative.", budget)
			}
		case "caveat:garnet-floor":
			if !strings.Contains(first, "at least") && !strings.Contains(first, "floor") {
				return fitClauses("Garnet's figures are floors: its client machine ran out of CPU first.", budget)
			}
		}
	}
	return ""
}

// nearestWords is a nearest row in one line: series, conditions, median
// throughput.
func nearestWords(r Row) string {
	return fmt.Sprintf("%s, %d cores, pipeline %d, SET:GET %s, %s — %s", ShortSeriesLabel(r.Engine, r.Mode),
		r.Cores, r.Pipeline, r.Ratio, formatValueBytes(r.ValueBytes), formatMetric("ops_per_sec", r.OpsPerSec, r.Floor))
}

// details names what the evidence holds, for the reply's last line.
func details(ev Answer) string {
	var parts []string
	if f := len(ev.Sources.Filters); f > 0 {
		parts = append(parts, countWord(f, "filter", "filters"))
	}
	if n := len(ev.Sources.RunIDs); n > 0 {
		parts = append(parts, countWord(n, "run ID", "run IDs"))
	}
	if len(parts) == 0 && len(ev.Sources.Entries) > 0 {
		parts = append(parts, "sources")
	}
	if len(parts) == 0 {
		return "Details"
	}
	return "Details, " + joinAnd(parts)
}

func countWord(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ReplyMarkdown is the reply layer as Markdown, its details line saying
// where the evidence is ("below" in a terminal, "in the thread" in chat).
func ReplyMarkdown(r Reply, where string) string {
	lines := append([]string(nil), r.Lines...)
	if r.Details != "" {
		lines = append(lines, "_"+r.Details+" "+where+"._")
	}
	return strings.Join(lines, "\n") + "\n"
}

// entryIDs are knowledge ids in parentheses, which the reply leaves to the
// evidence ("Ceiling series (term:ceiling)" → "Ceiling series").
// Compiled on first use: a process that never needs it does not pay for it at start.
var entryIDs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(` \((?:term|engine|claim|finding|trap|session|setup|failover|caveat|series|scope|conflict|rule|memory):[a-z0-9:-]+\)`)
})

// shortText is a text in the reply's words: short series labels, no
// knowledge ids, one space between words.
func shortText(s string) string {
	s = entryIDs().ReplaceAllString(s, "")
	for _, p := range seriesShortening() {
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	return strings.Join(strings.Fields(s), " ")
}

// flatten joins a Markdown paragraph's lines (a list becomes "a; b").
func flatten(md string) string {
	var parts []string
	for _, l := range strings.Split(md, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if l != "" {
			parts = append(parts, strings.TrimSuffix(l, "."))
		}
	}
	out := strings.Join(parts, "; ")
	if strings.HasSuffix(strings.TrimSpace(md), ".") {
		out += "."
	}
	return out
}

// fitClauses keeps s within budget visible characters, cutting at the
// last sentence or clause end that fits and marking the cut with "…". The
// evidence always carries the text in full.
func fitClauses(s string, budget int) string {
	if Visible(s) <= budget {
		return s
	}
	if budget < 2 {
		return "…"
	}
	cut := runePrefix(s, budget-1)
	for _, sep := range []string{". ", "; ", " — ", ", ", " "} {
		if i := strings.LastIndex(cut, sep); i > len(cut)/3 {
			return strings.TrimRight(cut[:i], " ,;—") + " …"
		}
	}
	return cut + "…"
}

func runePrefix(s string, n int) string {
	i := 0
	for off := range s {
		if i == n {
			return s[:off]
		}
		i++
	}
	return s
}

// markup is what Markdown adds that readers do not see.
var markup = strings.NewReplacer("**", "", "`", "")

// Visible is the number of characters a reader sees of a Markdown text:
// emphasis and code markers do not count, nor line breaks.
func Visible(md string) int {
	s := markup.Replace(md)
	s = strings.ReplaceAll(s, "\n", "")
	n := utf8.RuneCountInString(s)
	// _emphasis_ around a whole line
	for _, l := range strings.Split(md, "\n") {
		if len(l) > 1 && strings.HasPrefix(l, "_") && strings.HasSuffix(l, "_") {
			n -= 2
		}
	}
	return n
}
