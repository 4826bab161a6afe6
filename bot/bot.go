package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot/compose"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// Planner turns a question and the thread's previous plan (nil for a fresh
// conversation) into a Plan. *planner.Planner satisfies it.
type Planner interface {
	Plan(ctx context.Context, question string, prev *planner.Plan) (planner.Plan, error)
}

// DefaultDeadline bounds the work for one message.
const DefaultDeadline = 20 * time.Second

// Config wires a Bot. Planner, Querier and Knowledge are required; the rest
// is optional.
type Config struct {
	Planner   Planner
	Querier   Querier
	Knowledge Knowledge
	// Threads keeps follow-up context; nil: every message starts fresh.
	Threads ThreadStore
	// Limiter applies rate limits; nil: no limits.
	Limiter *Limiter
	// Logger receives one line per error; nil discards.
	Logger *slog.Logger
	// Deadline bounds one message (DefaultDeadline when ≤ 0).
	Deadline time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Ref makes the reference shown with internal errors (random hex when nil).
	Ref func() string
	// AnswerCacheSize bounds the composed answers kept for repeated
	// questions (DefaultAnswerCacheSize when 0; negative: none). Answers
	// are cached only when Querier is Fingerprinted.
	AnswerCacheSize int
	// AnswerCacheBytes bounds the memory the kept answers take, about
	// (DefaultAnswerCacheBytes when 0): the oldest go first.
	AnswerCacheBytes int
}

// Bot answers messages. It is safe for concurrent use.
type Bot struct {
	cfg     Config
	log     *slog.Logger
	compose *compose.Composer
	answers *answerCache // nil: every plan is composed
}

// New returns a Bot. It panics when a required dependency is missing, which
// is a wiring mistake, not a runtime condition.
func New(cfg Config) *Bot {
	if cfg.Planner == nil || cfg.Querier == nil || cfg.Knowledge == nil {
		panic("bot.New: Planner, Querier and Knowledge are required")
	}
	if cfg.Deadline <= 0 {
		cfg.Deadline = DefaultDeadline
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ref == nil {
		cfg.Ref = randomRef
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Bot{cfg: cfg, log: log,
		compose: compose.New(compose.Config{Querier: cfg.Querier, Knowledge: cfg.Knowledge, Observer: progressObserver{}}),
		answers: newAnswerCache(cfg.AnswerCacheSize, cfg.AnswerCacheBytes)}
}

// Handle answers one message: rate limits, the thread's previous plan, the
// plan, its queries, knowledge, composition. It never panics and never
// returns a nil-kind answer: errors become an answer of kind error or
// rate_limited (see reply.go), a panic becomes "internal error (ref …)"
// plus one log line. The plan is saved to the thread after answering. The
// answer is the caller's to change.
func (b *Bot) Handle(ctx context.Context, m Message) Answer {
	return cloneAnswer(b.respond(ctx, m).answer)
}

// HandleEncoded answers m as Handle does and also returns the answer's
// docs/design.md#json-answers JSON object encoded (AskJSON.Encode, with its error). A
// repeated question's answer and encoding come from the answer cache,
// shared: the caller reads them and never changes them.
func (b *Bot) HandleEncoded(ctx context.Context, m Message) (Answer, []byte, error) {
	e := b.respond(ctx, m)
	raw, err := e.json()
	return e.answer, raw, err
}

func (b *Bot) respond(ctx context.Context, m Message) (e *answered) {
	ref := b.cfg.Ref()
	attrs := []any{"platform", m.Platform, "channel", m.Channel, "thread", m.Thread, "user", m.User}
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("panic while answering", append(attrs, "ref", ref, "panic", fmt.Sprint(r),
				"question", clip(m.Text, 200), "stack", string(debug.Stack()))...)
			e = &answered{answer: internalAnswer(ref)}
		}
	}()
	if b.cfg.Limiter != nil {
		if err := b.cfg.Limiter.Allow(ctx, m); err != nil {
			return b.fail(err, ref, attrs)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Deadline)
	defer cancel()

	key := m.ThreadKey()
	var prev *planner.Plan
	if key != "" && b.cfg.Threads != nil {
		plans, err := b.cfg.Threads.Plans(ctx, key)
		if err != nil {
			// Thread memory helps follow-ups; without it the question is
			// still answered as a fresh one.
			b.log.Warn("reading thread memory", append(attrs, "err", err)...)
		} else if q, before, ok := pickedChoice(m.Text, plans); ok {
			m.Text, prev = q, before
		} else if len(plans) > 0 {
			prev = &plans[len(plans)-1]
		}
	}
	progress := progressFrom(ctx)
	progress.start(Step{Stage: StageRead})
	fresh := ""
	if prev == nil {
		fresh = m.Text
		e = b.cachedQuestion(m.Text)
	}
	if e != nil {
		progress.finish(Step{Stage: StageRead, Reading: e.plan.Interpretation, Cached: true})
		progress.finish(Step{Stage: StageCompose, Cached: true})
	}
	if e == nil {
		p, err := b.cfg.Planner.Plan(ctx, m.Text, prev)
		progress.finish(Step{Stage: StageRead, Reading: p.Interpretation, Failed: err != nil})
		if err != nil {
			return b.fail(fmt.Errorf("planning: %w", err), ref, attrs)
		}
		e, err = b.answerFor(ctx, p, fresh)
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return b.fail(err, ref, attrs)
		}
	}
	if key != "" && b.cfg.Threads != nil && e.plan.Intent != planner.IntentChatter {
		// Chatter asks nothing: the thread's last question stays the one
		// follow-ups continue.
		if err := b.cfg.Threads.Append(ctx, key, e.plan); err != nil {
			b.log.Warn("saving thread memory", append(attrs, "err", err)...)
		}
	}
	return e
}

// Reset forgets the thread of m (the chat's /new).
func (b *Bot) Reset(ctx context.Context, m Message) error {
	if b.cfg.Threads == nil || m.ThreadKey() == "" {
		return nil
	}
	return b.cfg.Threads.Reset(ctx, m.ThreadKey())
}

func (b *Bot) fail(err error, ref string, attrs []any) *answered {
	return &answered{answer: errorAnswer(err, b.cfg.Deadline, ref, b.log, attrs...)}
}

func internalAnswer(ref string) Answer {
	return Answer{Kind: KindError, Ephemeral: true,
		Headline: "Something went wrong on my side — internal error (ref " + ref + "). The question was logged; please try again or rephrase it."}
}

func randomRef() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return strings.ToUpper(hex.EncodeToString(b[:]))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
