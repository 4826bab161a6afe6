package bot_test

import (
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestBackoffGrowsIsCappedAndJittered(t *testing.T) {
	b := bot.Backoff{Base: 500 * time.Millisecond, Max: 30 * time.Second}
	for attempt, step := range map[int]time.Duration{
		1: 500 * time.Millisecond, 2: time.Second, 3: 2 * time.Second, 7: 30 * time.Second, 63: 30 * time.Second, 1000: 30 * time.Second,
	} {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := b.Delay(attempt)
			if d < step/2 || d > step {
				t.Fatalf("retry %d waited %v, want between %v and %v", attempt, d, step/2, step)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Errorf("retry %d: only %d distinct waits in 200: no jitter", attempt, len(seen))
		}
	}
	if d := (bot.Backoff{}).Delay(3); d != 0 {
		t.Errorf("a zero Backoff waits %v", d)
	}
}
