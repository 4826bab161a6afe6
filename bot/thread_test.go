package bot_test

import (
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

func TestKVThreadsConformsToThreadStore(t *testing.T) {
	bottest.TestThreadStore(t, func(t *testing.T) bottest.ThreadHarness {
		clock := bottest.NewClock(time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC))
		kv := bottest.NewMemKV(clock.Now)
		return bottest.ThreadHarness{
			Store: bot.NewKVThreads(kv, 3, time.Hour), MaxPlans: 3, TTL: time.Hour, Advance: clock.Advance,
		}
	})
}
