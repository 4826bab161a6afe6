package bot_test

import (
	"errors"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

func TestLimiter(t *testing.T) {
	start := time.Date(2026, 9, 1, 23, 50, 0, 0, time.UTC)
	msg := func(user, channel string) bot.Message {
		return bot.Message{Platform: "slack", User: user, Channel: channel, Text: "hi"}
	}
	limited := func(t *testing.T, err error, scope, kind string) {
		t.Helper()
		var rl *bot.RateLimitError
		if !errors.As(err, &rl) || rl.Scope != scope || rl.Kind != kind {
			t.Fatalf("err = %v, want %s %s limit", err, scope, kind)
		}
	}
	t.Run("a user gets the burst, then waits for the refill", func(t *testing.T) {
		clock := bottest.NewClock(start)
		l := bot.NewLimiter(bot.Limits{UserPerMinute: 6, UserBurst: 2}, nil, clock.Now)
		for i := range 2 {
			if err := l.Allow(t.Context(), msg("U1", "")); err != nil {
				t.Fatalf("question %d: %v", i+1, err)
			}
		}
		err := l.Allow(t.Context(), msg("U1", ""))
		limited(t, err, "user", "burst")
		var rl *bot.RateLimitError
		errors.As(err, &rl)
		if rl.Retry <= 0 || rl.Retry > 10*time.Second {
			t.Errorf("retry = %v, want within the 10 s refill", rl.Retry)
		}
		if err := l.Allow(t.Context(), msg("U2", "")); err != nil {
			t.Fatalf("another user is limited too: %v", err)
		}
		clock.Advance(10 * time.Second)
		if err := l.Allow(t.Context(), msg("U1", "")); err != nil {
			t.Fatalf("after refill: %v", err)
		}
	})
	t.Run("a channel limit counts every user in it", func(t *testing.T) {
		clock := bottest.NewClock(start)
		l := bot.NewLimiter(bot.Limits{ChannelPerMinute: 1, ChannelBurst: 2}, nil, clock.Now)
		_ = l.Allow(t.Context(), msg("U1", "C1"))
		_ = l.Allow(t.Context(), msg("U2", "C1"))
		limited(t, l.Allow(t.Context(), msg("U3", "C1")), "channel", "burst")
		if err := l.Allow(t.Context(), msg("U3", "C2")); err != nil {
			t.Fatalf("other channel: %v", err)
		}
	})
	t.Run("the daily quota persists across limiters and resets at midnight UTC", func(t *testing.T) {
		clock := bottest.NewClock(start)
		kv := bottest.NewMemKV(clock.Now)
		limits := bot.Limits{UserDaily: 3}
		for i := range 3 {
			l := bot.NewLimiter(limits, kv, clock.Now) // a new process each time
			if err := l.Allow(t.Context(), msg("U1", "C1")); err != nil {
				t.Fatalf("question %d: %v", i+1, err)
			}
		}
		err := bot.NewLimiter(limits, kv, clock.Now).Allow(t.Context(), msg("U1", "C1"))
		limited(t, err, "user", "daily")
		clock.Advance(10 * time.Minute)
		if err := bot.NewLimiter(limits, kv, clock.Now).Allow(t.Context(), msg("U1", "C1")); err != nil {
			t.Fatalf("next day: %v", err)
		}
	})
	t.Run("a refused question does not spend the other scope's budget", func(t *testing.T) {
		clock := bottest.NewClock(start)
		kv := bottest.NewMemKV(clock.Now)
		l := bot.NewLimiter(bot.Limits{UserDaily: 1, ChannelDaily: 2}, kv, clock.Now)
		_ = l.Allow(t.Context(), msg("U1", "C1"))
		limited(t, l.Allow(t.Context(), msg("U1", "C1")), "user", "daily")
		if err := l.Allow(t.Context(), msg("U2", "C1")); err != nil {
			t.Fatalf("U2 should get the channel's second question: %v", err)
		}
	})
}
