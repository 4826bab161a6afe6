package planner

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// Coverage is what the planner needs from the measured runs to decide what
// exists: *analytics.Store satisfies it.
type Coverage interface {
	// Coverage lists, per (session, engine, mode), the knob values measured.
	Coverage() []analytics.SeriesCoverage
	// Exists reports whether the exact combination was measured.
	Exists(k analytics.CellKey) bool
	// Nearest returns up to n measured cells closest to k.
	Nearest(k analytics.CellKey, n int) []analytics.Neighbor
}

// Knowledge is what the planner needs from the knowledge base: glossary
// terms and claims. *knowledge.Base satisfies it.
type Knowledge interface {
	// Define resolves a term name or alias (typo tolerant).
	Define(text string) (knowledge.Term, bool)
	// Terms lists every glossary term.
	Terms() []knowledge.Term
	// Claim looks a claim up by id.
	Claim(id string) (knowledge.Claim, bool)
	// Claims lists claims about an engine and/or topic ("" matches any).
	Claims(engine, topic string) []knowledge.Claim
}

// Options tune a Planner. The zero value plans with rules only.
type Options struct {
	// Completer, when set, maps questions the rules cannot place onto the
	// plan schema. Its output is validated like any plan.
	Completer Completer
	// CompleterTimeout bounds one Completer call
	// (DefaultCompleterTimeout when ≤ 0); a context deadline caps it
	// further (CompleterBudget).
	CompleterTimeout time.Duration
	// MaxQuestionChars is the longest question planned (default 2000);
	// longer ones get a clarify plan asking for one thing at a time.
	MaxQuestionChars int
	// NearestCells is how many nearest measured cells a no_data plan carries
	// (default 4).
	NearestCells int
	// Observer, when set, is told the outcome of every Completer call.
	Observer CompletionObserver
	// Logger receives the Completer's outcomes (at most one line per
	// outcome per minute; failures as warnings); nil discards.
	Logger *slog.Logger
}

// Planner turns questions into validated plans. It is safe for concurrent
// use.
type Planner struct {
	cov  Coverage
	kb   Knowledge
	opts Options
	log  *slog.Logger
	g    *grammar
	k    *kindGrammar
	lx   *lexicon
	// tix finds glossary terms in a question; built on first use.
	tix func() termIndex
	// known are the words the accounting stage counts as read (account.go).
	known func() map[string]bool
	// nicks are the engines' names and nicknames from the knowledge base
	// (names_read.go).
	nicks func() engineNames
	out   *outcomeLog
	ulex  *unboundLexicon
	// early and late are the intent recognisers tried before the slot
	// grammar and after it failed to place a question.
	early, late []recogniser

	filters *filterVerdicts
	// memo is set on the copy of the Planner one Plan call works with;
	// nil on the shared Planner.
	memo *memo
	// rangesRead is set on the copy that plans a question whose range
	// planRange already read (or chose to leave to the grammar).
	rangesRead bool
	// ablating is set on the copy that plans a question with one word
	// taken out, to learn whether the word was read (account.go).
	ablating bool
}

// filterVerdicts remembers the gate's verdict on filters already checked.
type filterVerdicts struct {
	mu       sync.Mutex
	compiled map[string]error // filter text → the gate's verdict
}

// maxCompiledCache bounds the planner's memory of filters already checked.
const maxCompiledCache = 4096

// vocabulary is the grammar every Planner reads with. It depends on no
// store or knowledge base and is never changed after it is built, so one
// copy serves the whole process, built on the first New (its patterns
// compile later still, on first use).
type vocabulary struct {
	g           *grammar
	k           *kindGrammar
	ulex        *unboundLexicon
	lx          *lexicon
	early, late []recogniser
}

var sharedVocabulary = sync.OnceValue(func() *vocabulary {
	return &vocabulary{g: newGrammar(), k: newKindGrammar(), ulex: newUnboundLexicon(),
		lx: newLexicon(lexiconTables()), early: recognisers(), late: fallbacks()}
})

// New returns a planner over the measured coverage and the knowledge base.
// kb may be nil (no definitions or claims are recognised then).
func New(cov Coverage, kb Knowledge, opts Options) *Planner {
	if opts.CompleterTimeout <= 0 {
		opts.CompleterTimeout = DefaultCompleterTimeout
	}
	if opts.MaxQuestionChars <= 0 {
		opts.MaxQuestionChars = 2000
	}
	if opts.NearestCells <= 0 {
		opts.NearestCells = 4
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	v := sharedVocabulary()
	g, lx := v.g, v.lx
	if cov != nil || kb != nil {
		g, lx = withEngines(v.g, v.lx, otherEngineNames(cov, kb))
	}
	p := &Planner{cov: cov, kb: kb, opts: opts, log: log, g: g, k: v.k, ulex: v.ulex,
		lx: lx, early: v.early, late: v.late, filters: &filterVerdicts{compiled: map[string]error{}}}
	if named, ok := opts.Completer.(interface{ Name() string }); ok {
		p.out = newOutcomeLog(log, named.Name())
	} else {
		p.out = newOutcomeLog(log, "")
	}
	p.known = newKnownWords(kb)
	if kb != nil {
		p.nicks = newNicknames(kb)
	}
	p.tix = sync.OnceValue(func() termIndex {
		if kb == nil {
			return termIndex{}
		}
		return newTermIndex(p.g, kb.Terms())
	})
	return p
}

// Plan turns one question, and the thread's previous plan (nil for a fresh
// conversation), into a validated plan. Deterministic rules come first; the
// Completer is asked only when they cannot place the question, or leave
// words naming a setting, workload or metric unbound (Plan.Unbound); a plan
// keeping unbound words says so in Plan.UnboundReading. The error is
// non-nil only for internal failures (a plan filter the gate rejects) or a
// cancelled context; every user input, however odd, gets a plan.
func (p *Planner) Plan(ctx context.Context, question string, prev *Plan) (Plan, error) {
	if p.memo == nil {
		// The rules read the question several times over (the kinds, the
		// engine description, the slot grammar, the unbound detector);
		// one call's copy of the planner remembers each reading.
		call := *p
		call.memo = newMemo()
		return call.Plan(ctx, question, prev)
	}
	if err := ctx.Err(); err != nil {
		return Plan{}, err
	}
	question = withoutSelfMention(question)
	asked := question
	names := p.readNames(question)
	if names.ambiguous != nil {
		return ambiguousName(asked, names.ambiguous), nil
	}
	settings := readSettings(names.text)
	settings.text, prev = p.threadText(settings.text, prev)
	question = settings.text
	if pl, ok := placeFollowUp(asked, question, prev); ok {
		return pl, p.gate(&pl)
	}
	if !p.rangesRead {
		if pl, ok, err := p.planRange(ctx, question, prev); ok {
			if err == nil {
				p.shapeQuery(&pl, settings.text)
				p.account(ctx, &pl, asked, settings, prev)
				err = p.gate(&pl)
			}
			return pl, err
		}
	}
	pl, confident := p.planKind(question, prev)
	if !confident {
		pl, confident = p.ordinary(question, threadBase(prev))
	}
	pl, confident = p.chooseWhole(question, pl, confident)
	// A reading the reader wrote for this question ("not read-heavy" read
	// as the only other workload measured) opens the answer unless the
	// unbound words call for their own.
	own := ""
	if !pl.Explain {
		own = pl.UnboundReading
	}
	p.readerUnbound(&pl)
	p.markUnbound(&pl)
	consulted := false // the model sees a question once, whatever it was asked about
	if (!confident || len(pl.Unbound) > 0) && p.opts.Completer != nil {
		consulted = true
		if llm, ok := p.complete(ctx, question, prev, pl.Unbound); ok {
			pl = llm
			p.markUnbound(&pl)
		}
	}
	pl.UnboundReading = p.unboundReading(pl)
	if pl.UnboundReading == "" && pl.Source != "llm" {
		pl.UnboundReading = own
	}
	if pl.Source == "llm" {
		// The first line says the model read the question, with what it
		// read that the answer's own figures do not state.
		pl.UnboundReading = strings.TrimSuffix(modelReading(pl)+"; "+pl.UnboundReading, "; ")
	}
	failoverFollowUp(&pl, prev, settings.text)
	p.memoryFollowUp(&pl, prev)
	p.shapeQuery(&pl, settings.text)
	p.account(ctx, &pl, asked, settings, prev)
	if len(pl.Unread) > 0 && pl.Source != "llm" && p.opts.Completer != nil && !p.ablating && !consulted {
		// Words the rules could not read ("a sixteen-way rig") are what a
		// model is for; its plan is checked like any, and accounted too.
		if llm, ok := p.complete(ctx, question, prev, pl.Unread); ok {
			llm.UnboundReading = modelReading(llm)
			p.shapeQuery(&llm, settings.text)
			p.account(ctx, &llm, asked, settings, prev)
			pl = llm
		}
	}
	if err := p.gate(&pl); err != nil {
		return Plan{}, err
	}
	pl.ThreadEngines = threadEngines(prev, pl)
	return pl, nil
}

// threadEngines adds a plan's engines to those the thread named before; a
// plan outside the measurements (help, out of scope) keeps the thread's.
func threadEngines(prev *Plan, pl Plan) []string {
	var out []string
	if prev != nil {
		out = slices.Clone(prev.ThreadEngines)
	}
	for _, e := range pl.Slots.Engines {
		out = appendUnique(out, e)
	}
	return out
}

// gate compiles every filter of the plan through the analytics gate.
func (p *Planner) gate(pl *Plan) error {
	for i := range pl.Parts {
		if err := p.gate(&pl.Parts[i]); err != nil {
			return err
		}
	}
	for _, q := range pl.Queries {
		if err := p.compile(q.Filter); err != nil {
			return fmt.Errorf("planner wrote filter %q for %q: %w", q.Filter, pl.Question, err)
		}
	}
	return nil
}

func (p *Planner) compile(filter string) error {
	f := p.filters
	f.mu.Lock()
	err, ok := f.compiled[filter]
	f.mu.Unlock()
	if ok {
		return err
	}
	_, err = analytics.CompileFilter(filter)
	f.mu.Lock()
	if len(f.compiled) >= maxCompiledCache {
		clear(f.compiled)
	}
	f.compiled[filter] = err
	f.mu.Unlock()
	return err
}
