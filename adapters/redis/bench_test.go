package redis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// BenchmarkThreadAppend compares one follow-up appended to a thread on a
// real server: the read-modify-write of one JSON value that lost
// concurrent follow-ups (the baseline), and the list appended by one
// script now.
func BenchmarkThreadAppend(b *testing.B) {
	srv := redistest.Start(b)
	st := open(b, srv, nil)
	plan := planner.Plan{Intent: planner.IntentLookup, Question: "and Valkey?", Slots: planner.Slots{Engines: []string{"valkey"}, Cores: []int{8}}}
	b.Run("read-modify-write (baseline)", func(b *testing.B) {
		kv := st.KV("bench-rmw")
		ctx := context.Background()
		for i := 0; b.Loop(); i++ {
			key := fmt.Sprintf("thread/t%d", i%64)
			var plans []planner.Plan
			if raw, ok, err := kv.Get(ctx, key); err != nil {
				b.Fatal(err)
			} else if ok {
				_ = json.Unmarshal(raw, &plans)
			}
			plans = append(plans, plan)
			if len(plans) > bot.DefaultThreadLength {
				plans = plans[len(plans)-bot.DefaultThreadLength:]
			}
			raw, _ := json.Marshal(plans)
			if err := kv.Set(ctx, key, raw, time.Hour); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("atomic list", func(b *testing.B) {
		threads := bot.NewKVThreads(st.Shared("bench-list", bottest.NewMemKV(nil)), 0, time.Hour)
		for i := 0; b.Loop(); i++ {
			if err := threads.Append(context.Background(), fmt.Sprintf("t%d", i%64), plan); err != nil {
				b.Fatal(err)
			}
		}
	})
}
