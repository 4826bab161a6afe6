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
	targets  []DigestTarget
	log      *slog.Logger
	attempts int
	backoff  func(attempt int) time.Duration
	render   func(Chart) ([]byte, error)
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
	// 2s, 4s, 8s …
	Backoff func(attempt int) time.Duration
	// RenderChart draws the digest's headline chart as a PNG. When it is
	// set, the chart follows the details into each thread whose poster is
	// a ChartPoster; nil posts text only. A chart that fails to render or
	// post is logged and never fails the digest.
	RenderChart func(Chart) ([]byte, error)
	// PublicURL is where the web pages are served: an unchanged digest's
	// one line links to the dataset page there.
	PublicURL string
}

// NewDigestPublisher builds a publisher.
func NewDigestPublisher(cfg DigestPublisherConfig) *DigestPublisher {
	p := &DigestPublisher{
		composer: cfg.Composer, kv: cfg.KV, targets: cfg.Targets, log: cfg.Logger,
		attempts: cfg.Attempts, backoff: cfg.Backoff, render: cfg.RenderChart, web: cfg.PublicURL,
	}
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if p.attempts <= 0 {
		p.attempts = 3
	}
	if p.backoff == nil {
		p.backoff = func(attempt int) time.Duration { return time.Second << attempt }
	}
	return p
}

// TargetResult is what happened at one target.
type TargetResult struct {
	Target   string `json:"target"`
	Posted   bool   `json:"posted"`
	Skipped  bool   `json:"skipped"` // this slot was already posted there
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
	var failed []string
	for _, r := range rep.Results {
		posted = posted || r.Posted
		if r.Err != "" {
			failed = append(failed, r.Target)
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
	return rep, nil
}

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
	marker := ""
	if !slot.IsZero() {
		marker = "slot/" + slot.UTC().Format(time.RFC3339) + "/" + t.String()
		first, err := p.kv.SetIfAbsent(ctx, marker, []byte(time.Now().UTC().Format(time.RFC3339)), 0)
		if err != nil {
			res.Err = err.Error()
			p.log.Error("digest slot marker", "target", res.Target, "err", err)
			return res
		}
		if !first {
			res.Skipped = true
			return res
		}
	}
	var err error
	ref := "" // kept across attempts: a failed reply is retried without re-posting the headline
	for res.Attempts = 1; ; res.Attempts++ {
		if ref, err = p.postOnce(ctx, t, d, ref); err == nil {
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
	if marker != "" {
		if derr := p.kv.Delete(context.WithoutCancel(ctx), marker); derr != nil {
			p.log.Error("releasing digest slot marker", "target", res.Target, "err", derr)
		}
	}
	return res
}

// postOnce posts the headline (unless an earlier attempt already did and
// returned ref) and then the details in its thread.
func (p *DigestPublisher) postOnce(ctx context.Context, t DigestTarget, d Digest, ref string) (string, error) {
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
