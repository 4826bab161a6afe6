package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// DigestTarget is one channel on one platform.
type DigestTarget struct {
	Poster  Poster
	Channel string
}

func (t DigestTarget) String() string { return t.Poster.Platform() + ":" + t.Channel }

// DigestComposer composes the digest, given the state the last posted
// digest left (nil when none was posted).
type DigestComposer interface {
	Compose(ctx context.Context, last *DigestState) (Digest, error)
}

// DigestPublisher posts digests to targets and remembers what it posted.
type DigestPublisher struct {
	composer DigestComposer
	kv       KV
	journal  *Journal // the slot markers
	targets  []DigestTarget
	log      *slog.Logger
	attempts int
	backoff  func(attempt int) time.Duration
	render   func(Chart) ([]byte, error)
	stale    time.Duration
	retry    time.Duration
	web      string
}

// DigestPublisherConfig configures NewDigestPublisher.
type DigestPublisherConfig struct {
	Composer DigestComposer
	// KV holds the publisher's state: the last posted digest, per-slot
	// markers. Give it its own namespace.
	KV      KV
	Targets []DigestTarget
	Logger  *slog.Logger
	// Attempts per target before giving up on a slot (default 3).
	Attempts int
	// Backoff is the wait before retry number attempt (1-based); default
	// Backoff{Base: 2s, Max: 1m}: about 2s, 4s, 8s …, jittered.
	Backoff func(attempt int) time.Duration
	// RenderChart draws the digest's headline chart as a PNG. When it is
	// set, the chart follows the details into each thread whose poster is
	// a ChartPoster; nil posts text only. A chart that fails to render or
	// post is logged and never fails the digest.
	RenderChart func(Chart) ([]byte, error)
	// ClaimStale is how long a slot claimed but not finished (its holder
	// crashed between posts) stays with that holder before another run
	// completes it; default 2 minutes, far above the seconds a post takes.
	ClaimStale time.Duration
	// RetryEvery is the first wait before a scheduled slot that could not
	// be posted (the state store unusable, every post failed) is tried
	// again, doubling up to 2 minutes, until the next slot; default 15 s.
	RetryEvery time.Duration
	// PublicURL is where the web pages are served: an unchanged digest's
	// one line links to the dataset page there.
	PublicURL string
}

// NewDigestPublisher builds a publisher.
func NewDigestPublisher(cfg DigestPublisherConfig) *DigestPublisher {
	p := &DigestPublisher{
		composer: cfg.Composer, kv: cfg.KV, targets: cfg.Targets, log: cfg.Logger,
		attempts: cfg.Attempts, backoff: cfg.Backoff, render: cfg.RenderChart,
		stale: cfg.ClaimStale, retry: cfg.RetryEvery, web: cfg.PublicURL,
	}
	if p.stale <= 0 {
		p.stale = 2 * time.Minute
	}
	if p.retry <= 0 {
		p.retry = 15 * time.Second
	}
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p.journal = NewJournal(JournalConfig{KV: p.kv, Stale: p.stale, Logger: p.log})
	if p.attempts <= 0 {
		p.attempts = 3
	}
	if p.backoff == nil {
		p.backoff = Backoff{Base: 2 * time.Second, Max: time.Minute}.Delay
	}
	return p
}

// TargetResult is what happened at one target.
type TargetResult struct {
	Target  string `json:"target"`
	Posted  bool   `json:"posted"`
	Skipped bool   `json:"skipped"` // this slot was already posted there
	// Pending says another run holds this slot there and has not finished.
	Pending  bool   `json:"pending,omitempty"`
	Attempts int    `json:"attempts"`
	Err      string `json:"error,omitempty"`
	// Chart says the headline chart followed the details into the thread.
	Chart bool `json:"chart,omitempty"`
}

// PublishReport is the outcome of one Publish.
type PublishReport struct {
	Slot    time.Time      `json:"slot"`
	Results []TargetResult `json:"results"`
}

// ErrNoTargets is returned when a digest is published with no channels configured.
var ErrNoTargets = errors.New("no digest channels configured")

// LastState returns the state of the last posted digest, or nil.
func (p *DigestPublisher) LastState(ctx context.Context) (*DigestState, error) {
	v, ok, err := p.kv.Get(ctx, digestKeyState)
	if err != nil || !ok {
		return nil, err
	}
	var st DigestState
	if err := json.Unmarshal(v, &st); err != nil {
		return nil, fmt.Errorf("reading the last digest state: %w", err)
	}
	return &st, nil
}

const digestKeyState = "state"

// Publish composes the digest and posts it to every target: the headline at
// top level, the details in its thread. Targets are posted concurrently so a
// failing channel (retried with backoff, then logged) never holds up the
// others. A non-zero slot is claimed per target with a persisted marker, so
// the same slot never posts twice to a channel, across restarts too; a zero
// slot (posting now, by hand) is not de-duplicated.
func (p *DigestPublisher) Publish(ctx context.Context, slot time.Time) (PublishReport, error) {
	rep := PublishReport{Slot: slot}
	if len(p.targets) == 0 {
		return rep, ErrNoTargets
	}
	last, err := p.LastState(ctx)
	if err != nil {
		return rep, err
	}
	d, err := p.composer.Compose(ctx, last)
	if err != nil {
		return rep, fmt.Errorf("composing the digest: %w", err)
	}
	png := p.renderChart(d)
	rep.Results = make([]TargetResult, len(p.targets))
	var wg sync.WaitGroup
	for i, t := range p.targets {
		wg.Go(func() { rep.Results[i] = p.postTo(ctx, t, slot, d, png) })
	}
	wg.Wait()

	posted := false
	var failed, pending []string
	for _, r := range rep.Results {
		posted = posted || r.Posted
		if r.Err != "" {
			failed = append(failed, r.Target)
		}
		if r.Pending {
			pending = append(pending, r.Target)
		}
	}
	if posted {
		st := d.State
		st.PostedAt = time.Now().UTC()
		if err := p.saveState(ctx, st, slot); err != nil {
			return rep, err
		}
	}
	if len(failed) > 0 {
		return rep, fmt.Errorf("digest not posted to %v", failed)
	}
	if len(pending) > 0 {
		return rep, fmt.Errorf("%w: %v", ErrSlotInProgress, pending)
	}
	return rep, nil
}

// ErrSlotInProgress is returned by Publish when another run holds a slot
// at a target and has not finished it yet.
var ErrSlotInProgress = errors.New("digest slot being posted by another run")

// PublishUntilPosted publishes slot and, while that fails (the state store
// unusable, every post failed, another run still holding it), tries again
// with a doubling wait until posting would start after until (the next
// slot). It returns the last error, or nil once every target has it.
func (p *DigestPublisher) PublishUntilPosted(ctx context.Context, slot, until time.Time) error {
	for wait := p.retry; ; wait = min(2*wait, 2*time.Minute) {
		_, err := p.Publish(ctx, slot)
		if err == nil || errors.Is(err, ErrNoTargets) || !time.Now().Add(wait).Before(until) {
			return err
		}
		p.log.Info("digest slot not posted yet; trying again", "slot", slot, "in", wait.String(), "err", err)
		if sleepCtx(ctx, wait) != nil {
			return err
		}
	}
}

// claimHeadline is a slot marker's state once the headline is posted (its
// Ref the headline's reference): a run that finds it so after its holder
// crashed posts only the details.
const claimHeadline = "headline"

func (p *DigestPublisher) saveState(ctx context.Context, st DigestState, slot time.Time) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("saving the digest state: %w", err)
	}
	if err := p.kv.Set(ctx, digestKeyState, b, 0); err != nil {
		return fmt.Errorf("saving the digest state: %w", err)
	}
	if slot.IsZero() {
		return nil
	}
	return p.kv.Set(ctx, digestKeyLastSlot, []byte(slot.UTC().Format(time.RFC3339)), 0)
}

// postTo posts one digest to one target, claiming the slot marker first
// and releasing it when every attempt failed, so a later run may try again.
// Once the text is in, the chart (png, when there is one) follows it into
// the thread.
func (p *DigestPublisher) postTo(ctx context.Context, t DigestTarget, slot time.Time, d Digest, png []byte) TargetResult {
	res := TargetResult{Target: t.String()}
	var hold *Hold // nil for a zero slot: nothing recorded
	ref := ""      // kept across attempts: a failed reply is retried without re-posting the headline
	if !slot.IsZero() {
		marker := "slot/" + slot.UTC().Format(time.RFC3339) + "/" + t.String()
		h, first, err := p.journal.Begin(ctx, marker, JournalEntry{State: JournalStarted}, 0)
		if err == nil && !first {
			var claim ClaimResult
			switch h, claim, err = p.journal.Claim(ctx, marker, 0); {
			case err != nil:
			case claim == ClaimPending:
				res.Pending = true
				return res
			case claim == ClaimFinished:
				res.Skipped = true
				return res
			default:
				ref = h.Entry().Ref
			}
		}
		if err != nil {
			res.Err = err.Error()
			p.log.Error("digest slot marker", "target", res.Target, "err", err)
			return res
		}
		hold = h
	}
	defer hold.Release()
	// Each step is recorded before the next, so a crash leaves the marker
	// saying how far it got.
	progress := func(state, ref string) {
		if err := hold.Record(ctx, JournalEntry{State: state, Ref: ref}); err != nil {
			p.log.Warn("recording digest progress", "target", res.Target, "state", state, "err", err)
		}
	}
	var err error
	for res.Attempts = 1; ; res.Attempts++ {
		if ref, err = p.postOnce(ctx, t, d, ref, progress); err == nil {
			progress(JournalDone, ref)
			res.Posted = true
			if !d.Unchanged {
				res.Chart = p.postChart(ctx, t, ref, d.Chart, png)
			}
			return res
		}
		p.log.Warn("digest post failed", "target", res.Target, "attempt", res.Attempts, "err", err)
		if res.Attempts >= p.attempts || ctx.Err() != nil {
			break
		}
		if sleepCtx(ctx, p.backoff(res.Attempts)) != nil {
			break
		}
	}
	res.Err = err.Error()
	p.log.Error("digest not posted", "target", res.Target, "attempts", res.Attempts, "err", err)
	hold.Forget(ctx) // a later run may try the slot again
	return res
}

// postOnce posts the headline (unless an earlier attempt already did and
// returned ref) and then the details in its thread.
func (p *DigestPublisher) postOnce(ctx context.Context, t DigestTarget, d Digest, ref string, progress func(state, ref string)) (string, error) {
	if d.Unchanged {
		// The same figures again would be a wall nobody reads: one line.
		r, err := t.Poster.PostTop(ctx, t.Channel, d.UnchangedLine(p.web))
		if err != nil {
			return "", fmt.Errorf("posting the headline: %w", err)
		}
		return r, nil
	}
	if ref == "" {
		r, err := t.Poster.PostTop(ctx, t.Channel, d.Headline)
		if err != nil {
			return "", fmt.Errorf("posting the headline: %w", err)
		}
		ref = r
		progress(claimHeadline, ref)
	}
	if err := t.Poster.PostReply(ctx, t.Channel, ref, d.Details); err != nil {
		return ref, fmt.Errorf("posting the details: %w", err)
	}
	return ref, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
