package compose

import (
	"context"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// HelpExamples are questions that really work; a test runs each one through
// Handle and checks the answer is not a refusal.
var HelpExamples = []string{
	"Is Dragonfly 25x faster than Redis?",
	"Which engine is fastest at 48 cores, read-heavy, pipeline 16?",
	"At 16 cores, read-heavy, pipeline 16, which engine has the lower p99?",
	"How does Valkey scale without pipelining?",
	"What does pipelining do to Dragonfly's throughput?",
	"What's Garnet's peak throughput?",
	"How many bytes per key does Redis use?",
	"How long does a Sentinel failover take?",
	"What does 'fully driven ceiling' mean?",
}

// scopeLine says what the bot covers, without a single digit.
const scopeLine = "I answer only from measured benchmark runs of Redis, Valkey, Dragonfly, KeyDB and Garnet: throughput, latency percentiles and hit rate, and how they change with cores, value size, pipelining and the read/write mix; memory per key; Redis Sentinel failover outages; the vendor and third-party claims about these engines; and the glossary of benchmark terms."

// insteadLine follows the planner's reason for a refusal.
const insteadLine = "What I can answer instead: the measured throughput, latency and hit rate of Redis, Valkey, Dragonfly, KeyDB and Garnet and how these change with cores, value size, pipelining and the read/write mix; memory per key; Sentinel failover outages; vendor claims; and the glossary."

// composeOutOfScope declines in one short paragraph with no numbers: the
// planner's reason (when it has no digits), then what the bot covers.
func composeOutOfScope(p planner.Plan) Answer {
	para := scopeLine
	if r := strings.TrimSpace(p.Refusal); r != "" && !strings.ContainsAny(r, "0123456789") {
		para = ensureStop(r) + " " + insteadLine
	}
	headline := "That is outside what I can answer truthfully."
	if len(p.Missing) > 0 {
		// Another database, named: "Never measured here: Kvrocks."
		headline = "Never measured here: " + joinAnd(p.Missing) + "."
	}
	return Answer{Kind: KindOutOfScope, Rows: []Row{}, Nearest: []Row{},
		Headline: headline,
		Body:     []string{para},
		Sources:  Sources{Filters: []string{}, RunIDs: []string{}, Entries: []SourceEntry{}},
	}
}

// composeHelp says what the bot can answer, with examples that work.
func composeHelp(p planner.Plan) Answer {
	headline, about := About()
	return Answer{Kind: KindHelp, Rows: []Row{}, Nearest: []Row{}, Ephemeral: true,
		Headline: headline,
		Body:     append(about, vocabularyLine()),
		Examples: HelpExamples,
		Sources:  Sources{Filters: []string{}, RunIDs: []string{}, Entries: []SourceEntry{}},
	}
}

// About is what the bot answers, in a headline and a few paragraphs: the
// opening of help, and of any surface that introduces the bot.
func About() (headline string, paragraphs []string) {
	return "Ask me about the measured performance of Redis, Valkey, Dragonfly, KeyDB and Garnet.", []string{scopeLine,
		"Every number I give is the median of measured runs (or a measured table), with its conditions, the filter that selected it and the run IDs. Combinations that were never measured are named as such, with the nearest measured rows — never guessed. In a thread, follow-ups such as “what about Valkey?” or “and the p99?” keep the earlier settings."}
}

// vocabularyLine lists the words the planner reads, per slot, from its
// own lexicon tables, so help never promises a word the reader does not
// know and a synonym added there shows up here.
func vocabularyLine() string {
	var b strings.Builder
	b.WriteString("Words I read")
	for i, s := range planner.Vocabulary() {
		if i == 0 {
			b.WriteString(" — ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(s.Name)
		b.WriteString(": ")
		b.WriteString(strings.Join(s.Words, ", "))
	}
	b.WriteString(".")
	return b.String()
}

// composeClarify asks back: the planner's reason first (why the question
// could not be placed, or what is ambiguous), then the options it offers,
// with its suggestions as example questions that work. A "Not understood"
// interpretation only repeats the reason, so it is not shown as a reading.
func composeClarify(p planner.Plan) Answer {
	a := Answer{Kind: KindClarify, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}, Ephemeral: true,
		Headline: "Which did you mean?",
		Sources:  Sources{Filters: []string{}, RunIDs: []string{}, Entries: []SourceEntry{}},
	}
	r := strings.TrimSpace(p.Refusal)
	refusal := r
	if len(p.Options) == 0 {
		a.Headline = "I could not place that question."
		if len(p.Unread) > 0 && r != "" {
			// The first line names what was not read: "I don't know
			// “redict”."
			head, rest, ok := strings.Cut(r, ":")
			a.Headline = ensureStop(head)
			if rest = strings.TrimSpace(rest); ok && rest != "" {
				r = strings.ToUpper(rest[:1]) + rest[1:]
			}
		}
	}
	if r != "" {
		a.Body = append(a.Body, ensureStop(r))
		if strings.TrimSpace(strings.TrimPrefix(p.Interpretation, "Not understood:")) == refusal {
			a.Interpretation = ""
		}
	}
	if len(p.Options) > 0 {
		a.Choices = p.Options
		a.Body = append(a.Body, numbered(p.Options))
	}
	a.Body = append(a.Body, p.Notes...)
	a.Examples = p.Suggestions
	return a
}

// composeDefinition gives the glossary entry with its id; nothing outside
// the glossary is added.
func (b *Composer) composeDefinition(ctx context.Context, p planner.Plan) (Answer, error) {
	if strings.HasPrefix(p.Slots.TermID, "engine:") {
		return b.composeEngine(ctx, p)
	}
	s := newSourcer(b.cfg.Knowledge)
	t, ok := b.cfg.Knowledge.Term(p.Slots.TermID)
	if !ok {
		a := composeClarify(p)
		a.Headline = "That term is not in the glossary, so I won't define it from memory."
		a.Examples = append(a.Examples, "What does 'fully driven ceiling' mean?", "What is pipelining?")
		return a, nil
	}
	a := Answer{Kind: KindDefinition, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{},
		Headline: t.Name}
	a.Body = append(a.Body, t.Definition)
	if t.Why != "" {
		a.Body = append(a.Body, "**Why it moves the numbers:** "+t.Why)
	}
	if t.ValueHere != "" {
		a.Body = append(a.Body, "**In this benchmark:** "+t.ValueHere)
	}
	var see []string
	for _, id := range t.SeeAlso {
		if o, ok := b.cfg.Knowledge.Term(id); ok {
			see = append(see, o.Name+" ("+id+")")
		}
	}
	if len(see) > 0 {
		a.Body = append(a.Body, "**See also:** "+strings.Join(see, ", ")+".")
	}
	a.Body = append(a.Body, p.Notes...)
	a.Body = append(a.Body, "_Everything above is from the project's glossary entry "+t.ID+"; nothing is added from general knowledge._")
	s.entry(t.ID)
	a.Sources = s.sources()
	return a, nil
}
