package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// A card is what a chat posts for an answer before anyone asks for more:
// a few lines that answer, the choices of a clarify, and the controls
// (Show evidence, Open on the web, 👍/👎). It is derived here from the
// answer's structured fields — headline, verdict, interpretation, nearest
// rows, caveat entries — so it does not depend on how the composer words
// its reply layer, and every chat surface shows the same card.

// Card limits: a phone shows four short lines without "more".
const (
	CardMaxLines = 4
	CardMaxChars = 600
)

// line budgets, in characters.
const (
	cardLeadBudget    = 300
	cardAssumedBudget = 210
	cardNoteBudget    = 160
)

// Card is the compact form of one answer.
type Card struct {
	// ID fingerprints the answer (kind, headline, filters, run IDs): the
	// same answer to the same data has the same ID, which evidence and
	// feedback are keyed by.
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Verdict is the answer's verdict in a word people use: "yes", "no",
	// "about the same", "partly", or "" when the answer is not a verdict.
	Verdict string `json:"verdict,omitempty"`
	// Lead answers; Lines follow it (how it was read when a default
	// decided it, the nearest measured row, the caveat not to miss). All
	// are plain text: no Markdown markers, so a surface can set the lead
	// in bold without literal asterisks.
	Lead  string   `json:"lead"`
	Lines []string `json:"lines,omitempty"`
	// Choices are a clarify's readings, as questions to ask.
	Choices []string `json:"choices,omitempty"`
	// Evidence says there is more to show (rows, filters, run IDs,
	// sources) behind "Show evidence".
	Evidence bool `json:"evidence,omitempty"`
	// Rated says the card takes feedback (every answer that asks
	// something; not notices).
	Rated bool `json:"rated,omitempty"`
}

// Text is the card's lines in order, the lead first.
func (c Card) Text() []string {
	if c.Lead == "" {
		return c.Lines
	}
	return append([]string{c.Lead}, c.Lines...)
}

// NewCard derives the card of an answer.
func NewCard(a Answer) Card {
	c := Card{ID: Fingerprint(a), Kind: a.Kind, Choices: a.Choices, Verdict: verdictWord(a)}
	c.Evidence = len(a.Rows) > 0 || len(a.Nearest) > 0 || a.Table != nil || a.Claim != nil ||
		len(a.Sources.Filters) > 0 || len(a.Sources.RunIDs) > 0 || len(a.Sources.Entries) > 0
	switch a.Kind {
	case KindError, KindRateLimited, KindChatter, KindHelp:
	default:
		c.Rated = true
	}
	left := CardMaxChars
	add := func(line string, budget int) {
		line = fitWhole(plainCardText(line), min(budget, left))
		if line == "" || len(c.Text()) == CardMaxLines {
			return
		}
		if c.Lead == "" {
			c.Lead = line
		} else {
			c.Lines = append(c.Lines, line)
		}
		left -= utf8.RuneCountInString(line)
	}
	add(cardLead(a, c.Verdict), cardLeadBudget)
	switch a.Kind {
	case KindClarify:
		if len(a.Body) > 0 && !strings.HasPrefix(strings.TrimSpace(a.Body[0]), "1.") {
			add(a.Body[0], cardNoteBudget)
		}
		if len(a.Choices) > 0 {
			add("Pick one below, or reply with its number.", cardNoteBudget)
		}
		return c
	case KindHelp, KindChatter, KindError, KindRateLimited, KindOutOfScope, KindDefinition:
		if c.Lead == "" && len(a.Body) > 0 {
			add(a.Body[0], cardLeadBudget)
		}
		return c
	}
	if a.Parts >= 2 {
		// A compound answer: the lead answers the first ask, the body
		// opens with one line for each next one.
		for i := 0; i < a.Parts-1 && i < len(a.Body); i++ {
			add(flattenParagraph(a.Body[i]), cardLeadBudget)
		}
	} else if as := assumed(a.Interpretation, c.Lead); as != "" {
		add(as, cardAssumedBudget)
	}
	if cost := latencyCost(a); cost != "" {
		add(cost, cardNoteBudget)
	}
	if a.Kind == KindNoData && len(a.Nearest) > 0 {
		add("Nearest measured: "+nearestLine(nearestTo(a.Headline, a.Nearest))+".", cardNoteBudget)
	}
	if note := mustNotMiss(a, c.Lead); note != "" {
		add(note, cardNoteBudget)
	}
	return c
}

// cardLead is the line that answers: the verdict for a claim (with what
// was measured), the headline otherwise; a title-only headline (a term's
// name, "never measured, on more than one count:") joined to what it
// introduces.
func cardLead(a Answer, verdict string) string {
	head := strings.TrimSpace(a.Headline)
	if a.Kind == KindClaim && a.Claim != nil && strings.TrimSpace(a.Claim.Verdict) != "" {
		v := strings.TrimSuffix(strings.TrimSpace(a.Claim.Verdict), ".")
		if verdict != "" && !strings.HasPrefix(strings.ToLower(v), verdict) {
			v = capitalise(verdict) + " — " + lowerFirst(v)
		}
		measured := head
		if _, rest, ok := strings.Cut(measured, "): "); ok && strings.HasPrefix(measured, "Measured here") {
			measured = "measured " + rest
		}
		return v + ". " + capitalise(strings.TrimSpace(measured))
	}
	if head == "" && len(a.Body) > 0 {
		return flattenParagraph(a.Body[0])
	}
	if spread, ok := spreadWords(head); ok {
		return spread
	}
	head = ordinaryClientFirst(head)
	if titleOnlyHeadline(head) && len(a.Body) > 0 {
		sep := " — "
		if strings.HasSuffix(head, ":") {
			sep = " "
		}
		return head + sep + flattenParagraph(a.Body[0])
	}
	return head
}

// verdictWord reads a claim's verdict (or a premise's headline) as one of
// the words people answer with.
func verdictWord(a Answer) string {
	text := a.Headline
	if a.Claim != nil && a.Claim.Verdict != "" {
		text = a.Claim.Verdict
	}
	t := strings.ToLower(strings.TrimSpace(text))
	switch {
	case a.Kind != KindClaim && a.Kind != KindAnswer:
		return ""
	case hasWordPrefix(t, "no conflict", "not comparable", "not testable"):
		return "" // not a verdict on the claim: the card says why in its own words
	case hasWordPrefix(t, "no — about the same", "yes — about the same", "no, about the same", "yes, about the same"):
		return "about the same" // "is A faster?" answered "No — about the same": level, not behind
	case hasWordPrefix(t, "partly", "partially", "in part", "mostly", "holds only", "direction agrees"):
		return "partly"
	case hasWordPrefix(t, "yes", "true", "confirmed", "supported", "holds", "consistent", "reproduced"):
		return "yes"
	case hasWordPrefix(t, "no", "false", "not true", "refuted", "contradicted", "not supported", "does not hold",
		"not reproduced", "inconsistent"):
		return "no"
	case hasWordPrefix(t, "about the same", "roughly equal", "level"):
		return "about the same"
	}
	return ""
}

func hasWordPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok && (rest == "" || !unicode.IsLetter([]rune(rest)[0])) {
			return true
		}
	}
	return false
}

// assumed is, in a few words, what defaults decided: the "defaults: …"
// part of an interpretation, without the notes on where a session's
// engines were measured. Empty when the question set everything.
func assumed(interpretation, lead string) string {
	corrected := ""
	if rest, ok := strings.CutPrefix(interpretation, "Corrected ("); ok {
		if i := strings.Index(rest, "): "); i >= 0 {
			corrected, interpretation = "corrected "+rest[:i], rest[i+3:]
		}
	}
	// The conditions the question stated that the lead does not name.
	var stated []string
	for _, item := range strings.Split(strings.SplitN(interpretation, "; ", 2)[0], ", ") {
		item = strings.TrimSpace(item)
		if conditionItem().MatchString(item) && !strings.Contains(lead, item) {
			stated = append(stated, strings.TrimSpace(item))
		}
	}
	line := assumedDefaults(interpretation, lead)
	if line == "" && corrected == "" {
		return ""
	}
	var parts []string
	if corrected != "" {
		parts = append(parts, corrected)
	}
	if len(stated) > 0 {
		parts = append(parts, strings.Join(stated, ", "))
	}
	if line != "" {
		parts = append(parts, line)
	}
	return "Read as: " + strings.Join(parts, "; ") + "."
}

// conditionItem is one condition of a reading ("8 cores", "pipeline 1",
// "SET:GET 1:1 (mixed)", "1 KB (1024 B) values", "session 2").
// Compiled on first use: a process that never needs it does not pay for it at start.
var conditionItem = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\d+ cores|pipeline \d+|SET:GET [\d:]+(?: \([a-z-]+\))?|[\d.]+ K?B(?: \(\d+ B\))? values|session \d+|MGET of \d+ keys|MSET of \d+ keys)$`)
})

// assumedDefaults is the defaults and kept slots part of a reading.
func assumedDefaults(interpretation, lead string) string {
	kept := ""
	if _, k, ok := strings.Cut(interpretation, "kept from the previous question: "); ok {
		kept = strings.TrimSuffix(strings.TrimSpace(strings.SplitN(k, "; ", 2)[0]), ".")
	}
	_, defaults, ok := strings.Cut(interpretation, "defaults: ")
	if !ok {
		if kept != "" {
			return kept + " kept from the previous question"
		}
		return ""
	}
	if i := strings.Index(defaults, "; "); i >= 0 {
		defaults = defaults[:i]
	}
	defaults = strings.TrimSpace(whereMeasuredNote().ReplaceAllString(defaults, ""))
	defaults = strings.TrimSuffix(strings.TrimSuffix(defaults, ")"), "_")
	if defaults == "" {
		return ""
	}
	said := true // the lead may already name every default (a spread's conditions)
	for _, d := range strings.Split(defaults, ", ") {
		said = said && strings.Contains(lead, d)
	}
	line := strings.TrimSuffix(defaults, ".") + " (defaults)"
	if said {
		line = ""
	}
	if kept != "" {
		if line == "" {
			return kept + " kept from the previous question"
		}
		line += "; " + kept + " kept from the previous question"
	}
	return line
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var whereMeasuredNote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(where [^)]*\)`) })

// mustNotMiss is the caveat that changes how the lead reads, when the
// lead does not say it already.
func mustNotMiss(a Answer, lead string) string {
	low := strings.ToLower(lead)
	for _, e := range a.Sources.Entries {
		switch e.ID {
		case "caveat:cross-session":
			if !strings.Contains(low, "session") {
				return "Two capture sessions (different machines and dates): treat the gap as indicative."
			}
		case "caveat:garnet-floor":
			if !strings.Contains(low, "at least") && !strings.Contains(low, "floor") {
				return "Garnet's figures are floors: its client machine ran out of CPU first."
			}
		}
	}
	return ""
}

// effectHeadline is the headline of an answer about what one knob does to
// throughput.
// Compiled on first use: a process that never needs it does not pay for it at start.
var effectHeadline = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Effect of [^:]* on throughput`) })

// latencyCost is, for an answer about what a knob does to throughput, the
// p99 latency it costs, from the same measured rows: "p99 cost:
// Dragonfly 0.547 ms → 2.423 ms." The gain alone would hide the price.
func latencyCost(a Answer) string {
	if !effectHeadline().MatchString(a.Headline) || len(a.Rows) < 2 {
		return ""
	}
	type series struct{ engine, mode string }
	first := map[series]Row{}
	last := map[series]Row{}
	var order []series
	for _, r := range a.Rows {
		k := series{r.Engine, r.Mode}
		if _, ok := first[k]; !ok {
			first[k] = r
			order = append(order, k)
		}
		last[k] = r
	}
	var parts []string
	for _, k := range order {
		lo, hi := first[k], last[k]
		// Pipeline depth and value size are two-valued here: their first
		// and last rows are the headline's "from" and "to".
		if lo.P99Ms <= 0 || hi.P99Ms <= 0 || lo.Ratio != hi.Ratio || lo.Pipeline == hi.Pipeline && lo.ValueBytes == hi.ValueBytes {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s ms → %s ms", cardSeries(k.engine, k.mode), compactValue(lo.P99Ms), compactValue(hi.P99Ms)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "p99 latency cost: " + strings.Join(parts, "; ") + "."
}

// coresAsked is the core count a refusal names ("at 128 cores").
// Compiled on first use: a process that never needs it does not pay for it at start.
var coresAsked = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bat (\d+) cores\b`) })

// nearestTo is, of the nearest measured rows, the one closest to the
// core count the refusal names (128 cores asked: the 48-core row, not the
// first listed); the first row when it names none.
func nearestTo(headline string, rows []Row) Row {
	m := coresAsked().FindStringSubmatch(headline)
	if m == nil {
		return rows[0]
	}
	want, _ := strconv.Atoi(m[1])
	best := rows[0]
	for _, r := range rows[1:] {
		if abs(r.Cores-want) < abs(best.Cores-want) {
			best = r
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// ordinaryClientSentence is a ranking's sentence about the series an
// ordinary client sees, which the card puts before the ceiling's.
// Compiled on first use: a process that never needs it does not pay for it at start.
var ordinaryClientSentence = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:Of the series an ordinary client sees|What an ordinary client sees)`)
})

// ordinaryClientFirst reorders a ranking headline so that what an
// ordinary client sees comes first and the fully driven ceiling second.
func ordinaryClientFirst(head string) string {
	parts := sentences(head)
	for i, p := range parts {
		if i > 0 && ordinaryClientSentence().MatchString(p) {
			rest := append(append([]string{}, parts[:i]...), parts[i+1:]...)
			return strings.Join(append([]string{p}, rest...), " ")
		}
	}
	return head
}

// spreadHeadline is a spread answer's headline: the conditions, the
// repetitions, their lowest and highest values and their spread.
// Compiled on first use: a process that never needs it does not pay for it at start.
var spreadHeadline = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.*?): (\d+) repetitions, .*lowest ([\d,.]+), highest ([\d,.]+), spread ([\d.]+)%`)
})

// spreadWords says a spread in words people use: "very consistent: 2
// reps 0.4% apart (15.44M / 15.50M)".
func spreadWords(head string) (string, bool) {
	m := spreadHeadline().FindStringSubmatch(head)
	if m == nil {
		return "", false
	}
	lo, err1 := strconv.ParseFloat(strings.ReplaceAll(m[3], ",", ""), 64)
	hi, err2 := strconv.ParseFloat(strings.ReplaceAll(m[4], ",", ""), 64)
	spread, err3 := strconv.ParseFloat(m[5], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return "", false
	}
	word := "varies a lot"
	switch {
	case spread < 1:
		word = "very consistent"
	case spread < 5:
		word = "consistent"
	case spread < 15:
		word = "somewhat variable"
	}
	return fmt.Sprintf("%s: %s — %s reps %s%% apart (%s / %s).", m[1], word, m[2], m[5], compactValue(lo), compactValue(hi)), true
}

// compactValue writes a measured value with three or four significant
// digits: 15.44M, 636.2K, 2.42.
func compactValue(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1fK", v/1e3)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// nearestLine is a nearest measured row in one line.
func nearestLine(r Row) string {
	ops := fmt.Sprintf("%s ops/s", shortOps(r.OpsPerSec))
	if r.Floor {
		ops = "at least " + ops
	}
	return fmt.Sprintf("%s, %d cores, pipeline %d, SET:GET %s — %s", cardSeries(r.Engine, r.Mode), r.Cores, r.Pipeline, r.Ratio, ops)
}

func shortOps(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0fK", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// ShortSeries is a series as cards and chart legends name it: "Dragonfly",
// "Redis Cluster (realistic)", "Redis Cluster (ceiling)", "Garnet (floor)".
func ShortSeries(engine, mode string) string { return cardSeries(engine, mode) }

// cardSeries is a series as a card names it: "Dragonfly", "Redis Cluster
// (realistic)", "Redis Cluster (ceiling)", "Garnet (floor)" — the
// composer's short label.
func cardSeries(engine, mode string) string { return compose.ShortSeriesLabel(engine, mode) }

// seriesShort pairs every full series name with the card's name for it,
// longest first.
var seriesShort = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for _, e := range analytics.Engines {
		for _, m := range []string{"cluster-sat", "cluster", "single"} {
			pairs = append(pairs, analytics.SeriesName(e, m), cardSeries(e, m))
		}
	}
	return strings.NewReplacer(pairs...)
})

// knowledgeIDs are the ids in parentheses the evidence keeps.
// Compiled on first use: a process that never needs it does not pay for it at start.
var knowledgeIDs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(` ?\((?:term|engine|claim|finding|trap|session|setup|failover|caveat|series|scope|conflict|rule|memory):[a-z0-9:-]+\)`)
})

// plainCardText is a Markdown text as one plain line: no bold or code
// markers, no knowledge ids, short series names, one space between words.
func plainCardText(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '_' && s[len(s)-1] == '_' {
		s = s[1 : len(s)-1]
	}
	s = knowledgeIDs().ReplaceAllString(s, "")
	s = seriesShort().Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	for strings.HasSuffix(s, "…") {
		s = strings.TrimSpace(strings.TrimSuffix(s, "…"))
	}
	return s
}

// flattenParagraph joins a Markdown paragraph's lines; a list becomes
// "a; b".
func flattenParagraph(md string) string {
	var parts []string
	for _, l := range strings.Split(md, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if l != "" && !strings.HasPrefix(l, "|") {
			parts = append(parts, strings.TrimSuffix(l, "."))
		}
	}
	out := strings.Join(parts, "; ")
	if out != "" && strings.HasSuffix(strings.TrimSpace(md), ".") {
		out += "."
	}
	return out
}

func titleOnlyHeadline(s string) bool {
	return strings.HasSuffix(s, ":") || !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && utf8.RuneCountInString(s) < 80
}

// fitWhole keeps s within budget characters by whole pieces: whole
// sentences first; when even the first sentence is too long, whole items
// of it (separated by "; ", then ", " or " — "), ended with a full stop.
// It never marks a cut with "…": what is left out is in the evidence.
func fitWhole(s string, budget int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= budget {
		return s
	}
	if budget < 20 {
		return ""
	}
	if out := takeWhole(sentences(s), " ", budget); out != "" {
		return out
	}
	first := sentences(s)[0]
	for _, sep := range []string{"; ", " — ", ", "} {
		parts := splitOutside(first, sep)
		if len(parts) < 2 {
			continue
		}
		if out := takeWhole(parts, sep, budget-1); out != "" {
			return strings.TrimRight(out, ".,;: —") + "."
		}
	}
	// One unbroken clause longer than the budget: keep whole words.
	words := strings.Fields(first)
	out := ""
	for _, w := range words {
		next := strings.TrimSpace(out + " " + w)
		if utf8.RuneCountInString(next) > budget-1 {
			break
		}
		out = next
	}
	return strings.TrimRight(out, ".,;: —") + "."
}

// takeWhole joins the leading parts that fit in budget.
func takeWhole(parts []string, sep string, budget int) string {
	out := ""
	for _, p := range parts {
		next := p
		if out != "" {
			next = out + sep + p
		}
		if utf8.RuneCountInString(next) > budget {
			break
		}
		out = next
	}
	return out
}

// sentences splits at ". " between sentences (not inside parentheses).
func sentences(s string) []string {
	var out []string
	for _, p := range splitOutside(s, ". ") {
		if !strings.HasSuffix(p, ".") && !strings.HasSuffix(p, "?") && !strings.HasSuffix(p, "!") {
			p += "."
		}
		out = append(out, p)
	}
	if len(out) > 0 && !strings.HasSuffix(s, ".") {
		out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], ".")
	}
	return out
}

// splitOutside splits s at sep where sep is outside parentheses and
// quotes, keeping a "." separator's full stop with the piece before it.
func splitOutside(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		}
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			piece := s[start:i]
			if strings.TrimSpace(sep) == "." {
				piece += "."
			}
			out = append(out, strings.TrimSpace(piece))
			start = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || len(s) > n && unicode.IsUpper([]rune(s[n:])[0]) {
		return s // an acronym ("KeyDB", "P99") keeps its case
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// Fingerprint identifies an answer by what it says and rests on: its
// kind, headline, reading, claim, filters and run IDs (12 hex digits).
func Fingerprint(a Answer) string {
	h := sha256.New()
	claim := ""
	if a.Claim != nil {
		claim = a.Claim.ID
	}
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s", a.Kind, a.Headline, a.Interpretation, claim,
		strings.Join(a.Sources.Filters, "\x01"), strings.Join(a.Sources.RunIDs, "\x01"))
	return hex.EncodeToString(h.Sum(nil))[:12]
}
