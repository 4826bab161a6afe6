package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/robfig/cron/v3"
)

// DigestSchedule says when the digest posts: a standard five-field cron
// expression, optionally prefixed with "CRON_TZ=Zone/Name ", evaluated in
// Location when it has no prefix (UTC when Location is nil).
type DigestSchedule struct {
	Cron     string
	Location *time.Location
	// CatchUp posts the latest slot missed while the process was down, once,
	// on start-up.
	CatchUp bool
}

// ErrBadSchedule is returned for a cron expression or time zone that does
// not parse.
var ErrBadSchedule = errors.New("bad digest schedule")

// parsedSchedule is a validated DigestSchedule.
type parsedSchedule struct {
	spec     string // without the CRON_TZ prefix
	location *time.Location
	next     cron.Schedule
}

// parse validates the schedule once so Run fails fast with a clear message.
func (s DigestSchedule) parse() (parsedSchedule, error) {
	spec := strings.TrimSpace(s.Cron)
	loc := s.Location
	if loc == nil {
		loc = time.UTC
	}
	if rest, ok := cutTZPrefix(spec); ok {
		name, body, _ := strings.Cut(rest, " ")
		l, err := time.LoadLocation(name)
		if err != nil {
			return parsedSchedule{}, fmt.Errorf("%w: unknown time zone %q in %q", ErrBadSchedule, name, s.Cron)
		}
		loc, spec = l, strings.TrimSpace(body)
	}
	if spec == "" {
		return parsedSchedule{}, fmt.Errorf("%w: empty cron expression", ErrBadSchedule)
	}
	next, err := cron.ParseStandard("CRON_TZ=" + loc.String() + " " + spec)
	if err != nil {
		return parsedSchedule{}, fmt.Errorf("%w: %q: %v", ErrBadSchedule, s.Cron, err)
	}
	return parsedSchedule{spec: spec, location: loc, next: next}, nil
}

func cutTZPrefix(spec string) (string, bool) {
	for _, p := range []string{"CRON_TZ=", "TZ="} {
		if rest, ok := strings.CutPrefix(spec, p); ok {
			return rest, true
		}
	}
	return "", false
}

// latestSlot returns the latest scheduled instant in (after, now], or the
// zero time when there is none. The walk is bounded so a schedule that fires
// every minute over a long downtime still answers quickly.
func (p parsedSchedule) latestSlot(after, now time.Time) time.Time {
	var latest time.Time
	t := after
	for range 200_000 {
		n := p.next.Next(t)
		if n.IsZero() || n.After(now) {
			break
		}
		latest, t = n, n
	}
	return latest
}

// Keys in the publisher's KV space.
const (
	digestKeySince    = "since"     // first start of the schedule (RFC 3339)
	digestKeyLastSlot = "last-slot" // latest slot posted (RFC 3339)
)

// Run posts the digest at every slot of the schedule until ctx ends, using
// gocron as the scheduler. With CatchUp it first posts the latest slot missed
// since the schedule last ran. Each slot posts at most once per target, even
// across restarts, because Publish claims a persisted marker per slot.
func (p *DigestPublisher) Run(ctx context.Context, sched DigestSchedule) error {
	ps, err := sched.parse()
	if err != nil {
		return err
	}
	now := time.Now().In(ps.location)
	if err := p.catchUp(ctx, ps, sched.CatchUp, now); err != nil && ctx.Err() == nil {
		// The state store may be unusable at start: try again beside the
		// schedule until the next slot, which the schedule posts itself.
		p.log.Error("digest catch-up failed; trying again", "err", err)
		go func() {
			for wait := p.retry; time.Now().Add(wait).Before(ps.next.Next(now)); wait = min(2*wait, 2*time.Minute) {
				if sleepCtx(ctx, wait) != nil {
					return
				}
				if err = p.catchUp(ctx, ps, sched.CatchUp, now); err == nil {
					return
				}
			}
			p.log.Error("digest catch-up failed", "err", err)
		}()
	}

	s, err := gocron.NewScheduler(gocron.WithLocation(ps.location))
	if err != nil {
		return fmt.Errorf("digest scheduler: %w", err)
	}
	_, err = s.NewJob(
		gocron.CronJob(ps.spec, false),
		gocron.NewTask(func() {
			slot := time.Now().In(ps.location).Truncate(time.Minute)
			if err := p.PublishUntilPosted(ctx, slot, ps.next.Next(slot)); err != nil {
				p.log.Error("digest post failed", "slot", slot, "err", err)
			}
		}),
		gocron.WithName("digest"),
		gocron.WithSingletonMode(gocron.LimitModeReschedule),
	)
	if err != nil {
		_ = s.Shutdown()
		return fmt.Errorf("%w: %v", ErrBadSchedule, err)
	}
	s.Start()
	p.log.Info("digest schedule started", "cron", ps.spec, "tz", ps.location.String())
	<-ctx.Done()
	return s.Shutdown()
}

// catchUp records when the schedule first ran and, when enabled, posts the
// latest slot that passed while the process was down.
func (p *DigestPublisher) catchUp(ctx context.Context, ps parsedSchedule, enabled bool, now time.Time) error {
	since, err := p.timeAt(ctx, digestKeySince)
	if err != nil {
		return err
	}
	if since.IsZero() {
		// First start ever: nothing can have been missed yet.
		return p.kv.Set(ctx, digestKeySince, []byte(now.UTC().Format(time.RFC3339)), 0)
	}
	if !enabled {
		return nil
	}
	last, err := p.timeAt(ctx, digestKeyLastSlot)
	if err != nil {
		return err
	}
	after := since
	if last.After(after) {
		after = last
	}
	slot := ps.latestSlot(after, now)
	if slot.IsZero() {
		return nil
	}
	p.log.Info("posting a digest slot missed while down", "slot", slot)
	return p.PublishUntilPosted(ctx, slot, ps.next.Next(now))
}

func (p *DigestPublisher) timeAt(ctx context.Context, key string) (time.Time, error) {
	v, ok, err := p.kv.Get(ctx, key)
	if err != nil || !ok {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339, string(v))
	if err != nil {
		return time.Time{}, fmt.Errorf("digest state %q: %w", key, err)
	}
	return t, nil
}

// Validate reports whether the cron expression and time zone parse.
func (s DigestSchedule) Validate() error {
	_, err := s.parse()
	return err
}
