package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits configure rate limiting per user and per channel. A zero rate or
// quota switches that limit off.
type Limits struct {
	// UserPerMinute and UserBurst bound quick successions from one user.
	UserPerMinute float64
	UserBurst     int
	// UserDaily is the questions one user may ask per UTC day.
	UserDaily int
	// ChannelPerMinute, ChannelBurst and ChannelDaily do the same per channel.
	ChannelPerMinute float64
	ChannelBurst     int
	ChannelDaily     int
}

// DefaultLimits are generous enough for a team, tight enough to stop a loop.
func DefaultLimits() Limits {
	return Limits{
		UserPerMinute: 6, UserBurst: 5, UserDaily: 200,
		ChannelPerMinute: 30, ChannelBurst: 20, ChannelDaily: 2000,
	}
}

// maxBuckets bounds the in-memory burst buckets; beyond it idle buckets are
// dropped (a dropped bucket simply starts full again).
const maxBuckets = 10_000

// Limiter applies Limits. Burst buckets live in memory (per process); daily
// counters are persisted in KV so they survive restarts and are shared by
// replicas that share the KV (the count is a read-modify-write, so two
// replicas racing may each admit one extra question).
//
// With a shared RateStore (WithStore), burst and daily limits are both
// applied there, atomically across replicas; when the store fails the
// limiter falls back to the per-process buckets and the KV.
type Limiter struct {
	limits Limits
	kv     KV
	now    func() time.Time
	shared RateStore

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// NewLimiter returns a limiter persisting daily counts in kv (nil: daily
// quotas are not applied) and reading time from now (nil: time.Now).
func NewLimiter(l Limits, kv KV, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{limits: l, kv: kv, now: now, buckets: map[string]*rate.Limiter{}}
}

// WithStore makes the limiter apply its limits in rs, shared by every
// replica using it, and returns the limiter. Call it before the first Allow.
func (l *Limiter) WithStore(rs RateStore) *Limiter {
	l.shared = rs
	return l
}

// scope is one subject of limits: a user or a channel.
type scope struct {
	name, id string
	perMin   float64
	burst    int
	daily    int
}

func (l *Limiter) scopes(m Message) []scope {
	var scopes []scope
	if m.User != "" {
		scopes = append(scopes, scope{"user", m.Platform + "/" + m.User, l.limits.UserPerMinute, l.limits.UserBurst, l.limits.UserDaily})
	}
	if m.Channel != "" {
		scopes = append(scopes, scope{"channel", m.Platform + "/" + m.Channel, l.limits.ChannelPerMinute, l.limits.ChannelBurst, l.limits.ChannelDaily})
	}
	return scopes
}

// Allow admits one question from m or returns a *RateLimitError naming the
// limit reached. Other errors come from the KV.
func (l *Limiter) Allow(ctx context.Context, m Message) error {
	now := l.now()
	scopes := l.scopes(m)
	if len(scopes) == 0 {
		return nil
	}
	if l.shared != nil {
		err := l.allowShared(ctx, scopes, now)
		if _, limited := errors.AsType[*RateLimitError](err); limited || err == nil {
			return err
		}
		// The shared store failed: this replica's own buckets stand in.
	}
	// Check every burst bucket before taking tokens, so a refusal by the
	// channel does not spend the user's token and vice versa.
	for _, s := range scopes {
		if s.perMin <= 0 {
			continue
		}
		if r := l.bucket(s.name+"/"+s.id, s.perMin, s.burst).TokensAt(now); r < 1 {
			wait := time.Duration((1 - r) / (s.perMin / 60) * float64(time.Second))
			return &RateLimitError{Scope: s.name, Kind: "burst", Limit: max(s.burst, 1), Retry: wait}
		}
	}
	day := now.UTC().Format(time.DateOnly)
	for _, s := range scopes {
		if s.daily <= 0 || l.kv == nil {
			continue
		}
		n, err := l.count(ctx, "ratelimit/"+day+"/"+s.name+"/"+s.id)
		if err != nil {
			return err
		}
		if n >= s.daily {
			return &RateLimitError{Scope: s.name, Kind: "daily", Limit: s.daily, Retry: untilMidnight(now)}
		}
	}
	for _, s := range scopes {
		if s.perMin > 0 {
			l.bucket(s.name+"/"+s.id, s.perMin, s.burst).AllowN(now, 1)
		}
		if s.daily > 0 && l.kv != nil {
			if err := l.increment(ctx, "ratelimit/"+day+"/"+s.name+"/"+s.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// allowShared applies every limit of scopes in the shared store in one
// atomic step: burst buckets first, then the daily counters.
func (l *Limiter) allowShared(ctx context.Context, scopes []scope, now time.Time) error {
	var limits []RateLimit
	var refusal []RateLimitError
	for _, s := range scopes {
		if s.perMin > 0 {
			limits = append(limits, RateLimit{Key: "burst/" + s.name + "/" + s.id,
				Every: time.Duration(float64(time.Minute) / s.perMin), Burst: max(s.burst, 1)})
			refusal = append(refusal, RateLimitError{Scope: s.name, Kind: "burst", Limit: max(s.burst, 1)})
		}
	}
	day := now.UTC().Format(time.DateOnly)
	for _, s := range scopes {
		if s.daily > 0 {
			limits = append(limits, RateLimit{Key: "daily/" + day + "/" + s.name + "/" + s.id,
				Count: s.daily, Reset: now.Add(untilMidnight(now))})
			refusal = append(refusal, RateLimitError{Scope: s.name, Kind: "daily", Limit: s.daily})
		}
	}
	if len(limits) == 0 {
		return nil
	}
	d, err := l.shared.Admit(ctx, limits)
	if err != nil {
		return fmt.Errorf("shared rate limits: %w", err)
	}
	if d.Refused < 0 || d.Refused >= len(refusal) {
		return nil
	}
	e := refusal[d.Refused]
	e.Retry = d.Retry
	return &e
}

func (l *Limiter) bucket(key string, perMin float64, burst int) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			now := l.now()
			for k, v := range l.buckets {
				if v.TokensAt(now) >= float64(v.Burst()) {
					delete(l.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(perMin/60), max(burst, 1)) // starts full
		l.buckets[key] = b
	}
	return b
}

func (l *Limiter) count(ctx context.Context, key string) (int, error) {
	raw, ok, err := l.kv.Get(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return 0, fmt.Errorf("rate limit %s: bad counter %q: %w", key, raw, err)
	}
	return n, nil
}

func (l *Limiter) increment(ctx context.Context, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.count(ctx, key)
	if err != nil {
		return err
	}
	if err := l.kv.Set(ctx, key, []byte(strconv.Itoa(n+1)), 48*time.Hour); err != nil {
		return fmt.Errorf("rate limit %s: %w", key, err)
	}
	return nil
}

func untilMidnight(now time.Time) time.Duration {
	u := now.UTC()
	next := time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
	return next.Sub(u)
}
