package bot_test

import (
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
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

func TestKVThreadsOverTheBadgerKVConformsToThreadStore(t *testing.T) {
	bottest.TestThreadStore(t, func(t *testing.T) bottest.ThreadHarness {
		st := analyticstest.OpenStore(t)
		return bottest.ThreadHarness{Store: bot.NewKVThreads(st.KV("threads"), 3, time.Hour), MaxPlans: 3, TTL: time.Hour}
	})
}

func TestFiftyConcurrentFollowUpsOnTheBadgerStoreLoseNone(t *testing.T) {
	st := analyticstest.OpenStore(t)
	bottest.TestConcurrentFollowUps(t, 50, bot.NewKVThreads(st.KV("threads"), 64, time.Hour))
}

func TestFiftyConcurrentFollowUpsInMemoryLoseNone(t *testing.T) {
	bottest.TestConcurrentFollowUps(t, 50, bot.NewKVThreads(bottest.NewMemKV(nil), 64, time.Hour))
}

func TestMemKVConformsToKV(t *testing.T) {
	bottest.TestKV(t, func(t *testing.T) bottest.KVHarness {
		clock := bottest.NewClock(time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC))
		return bottest.KVHarness{KV: bottest.NewMemKV(clock.Now), Advance: clock.Advance}
	})
}

func TestBadgerKVConformsToKV(t *testing.T) {
	bottest.TestKV(t, func(t *testing.T) bottest.KVHarness {
		return bottest.KVHarness{KV: analyticstest.OpenStore(t).KV("conformance")}
	})
}
