package redis_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

func TestLosingTheServerFallsBackToLocalStateOnceAndRecoversByItself(t *testing.T) {
	srv := redistest.Start(t)
	var logs lockedBuffer
	st := open(t, srv, &logs)
	local := bottest.NewMemKV(nil)
	kv := st.Shared("slack", local)
	ctx := t.Context()
	if ok, err := kv.SetIfAbsent(ctx, "event/1", []byte("1"), time.Hour); !ok || err != nil {
		t.Fatalf("on the server: %v %v", ok, err)
	}
	if _, ok, _ := st.KV("slack").Get(ctx, "event/1"); !ok {
		t.Fatal("not written to the server while it was up")
	}

	srv.Stop()
	for i := range 20 {
		if _, err := kv.SetIfAbsent(ctx, "event/down", []byte("1"), time.Hour); err != nil {
			t.Fatalf("operation %d failed instead of falling back: %v", i, err)
		}
	}
	if st.Up() || st.Fallbacks() == 0 {
		t.Fatalf("up %v, fallbacks %d", st.Up(), st.Fallbacks())
	}
	if _, ok, _ := local.Get(ctx, "event/down"); !ok {
		t.Fatal("not written locally while the server was down")
	}
	if n := strings.Count(logs.String(), "shared state store not usable"); n != 1 {
		t.Fatalf("the outage was logged %d times, want once:\n%s", n, logs.String())
	}

	srv.Restart()
	eventually(t, 3*time.Second, "the probe to find the server again", st.Up)
	if ok, err := kv.SetIfAbsent(ctx, "event/back", []byte("1"), time.Hour); !ok || err != nil {
		t.Fatalf("after recovery: %v %v", ok, err)
	}
	if _, ok, _ := st.KV("slack").Get(ctx, "event/back"); !ok {
		t.Fatal("not writing to the server after it came back")
	}
	if !strings.Contains(logs.String(), "shared state store usable again") {
		t.Errorf("the recovery was not logged:\n%s", logs.String())
	}
}

func TestSharedRateLimits(t *testing.T) {
	srv := redistest.Start(t)
	st := open(t, srv, nil)
	msg := bot.Message{Platform: "http", User: "addr:192.0.2.1"}
	t.Run("two replicas share one burst, admitting exactly it under contention", func(t *testing.T) {
		limits := bot.Limits{UserPerMinute: 1, UserBurst: 10}
		replicas := []*bot.Limiter{
			bot.NewLimiter(limits, nil, nil).WithStore(st.Limits()),
			bot.NewLimiter(limits, nil, nil).WithStore(open(t, srv, nil).Limits()),
		}
		var admitted, refused atomic.Int64
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				err := replicas[i%2].Allow(t.Context(), msg)
				var rl *bot.RateLimitError
				switch {
				case err == nil:
					admitted.Add(1)
				case errors.As(err, &rl) && rl.Kind == "burst" && rl.Retry > 0 && rl.Retry <= time.Minute:
					refused.Add(1)
				default:
					t.Errorf("unexpected %v", err)
				}
			})
		}
		wg.Wait()
		if admitted.Load() != 10 || refused.Load() != 30 {
			t.Fatalf("admitted %d, refused %d; want the burst of 10 exactly", admitted.Load(), refused.Load())
		}
	})
	t.Run("a refusal by one scope spends nothing from the other", func(t *testing.T) {
		l := bot.NewLimiter(bot.Limits{UserDaily: 1, ChannelDaily: 2}, nil, nil).WithStore(st.Limits())
		m := func(user string) bot.Message { return bot.Message{Platform: "slack", User: user, Channel: "C9"} }
		if err := l.Allow(t.Context(), m("U1")); err != nil {
			t.Fatal(err)
		}
		var rl *bot.RateLimitError
		if err := l.Allow(t.Context(), m("U1")); !errors.As(err, &rl) || rl.Scope != "user" || rl.Kind != "daily" {
			t.Fatalf("second from U1: %v", err)
		}
		if err := l.Allow(t.Context(), m("U2")); err != nil {
			t.Fatalf("U2 should get the channel's second question: %v", err)
		}
	})
	t.Run("without the server the limiter falls back to its own buckets", func(t *testing.T) {
		srv2 := redistest.Start(t)
		st2 := open(t, srv2, nil)
		l := bot.NewLimiter(bot.Limits{UserPerMinute: 1, UserBurst: 1}, nil, nil).WithStore(st2.Limits())
		srv2.Stop()
		if err := l.Allow(t.Context(), msg); err != nil {
			t.Fatalf("first question while the server is down: %v", err)
		}
		var rl *bot.RateLimitError
		if err := l.Allow(t.Context(), msg); !errors.As(err, &rl) {
			t.Fatalf("local buckets do not limit: %v", err)
		}
	})
}

func TestLeases(t *testing.T) {
	srv := redistest.Start(t)
	leases := open(t, srv, nil).Leases()
	timings := bot.LeaseTimings{TTL: 400 * time.Millisecond, Every: 50 * time.Millisecond}
	t.Run("one holder runs; on its shutdown the other takes over at once", func(t *testing.T) {
		var running atomic.Int64
		var maxRunning atomic.Int64
		started := make(chan string, 4)
		runAs := func(name string) func(ctx context.Context) error {
			return func(ctx context.Context) error {
				n := running.Add(1)
				maxRunning.Store(max(maxRunning.Load(), n))
				started <- name
				<-ctx.Done()
				running.Add(-1)
				return nil
			}
		}
		ctxA, stopA := context.WithCancel(t.Context())
		ctxB, stopB := context.WithCancel(t.Context())
		defer stopB()
		doneA := make(chan error, 1)
		go func() { doneA <- bot.RunWhileHolding(ctxA, leases, "gw", "A", timings, nil, runAs("A")) }()
		if got := <-started; got != "A" {
			t.Fatalf("%s started first", got)
		}
		go bot.RunWhileHolding(ctxB, leases, "gw", "B", timings, nil, runAs("B"))
		time.Sleep(3 * timings.TTL) // B must keep waiting while A renews
		select {
		case got := <-started:
			t.Fatalf("%s started while A held the lease", got)
		default:
		}
		at := time.Now()
		stopA()
		<-doneA
		if got := <-started; got != "B" || time.Since(at) > timings.TTL {
			t.Fatalf("%s took over after %v", got, time.Since(at))
		}
		if maxRunning.Load() != 1 {
			t.Fatalf("%d holders ran at once", maxRunning.Load())
		}
	})
	t.Run("a lease its holder stopped renewing is taken over after its time to live", func(t *testing.T) {
		if ok, err := leases.Acquire(t.Context(), "gw2", "ghost", timings.TTL); !ok || err != nil {
			t.Fatal(ok, err)
		}
		at := time.Now()
		started := make(chan struct{})
		go bot.RunWhileHolding(t.Context(), leases, "gw2", "C", timings, nil, func(ctx context.Context) error {
			close(started)
			<-ctx.Done()
			return nil
		})
		<-started
		if took := time.Since(at); took < timings.TTL-50*time.Millisecond || took > timings.TTL+4*timings.Every {
			t.Fatalf("took over after %v, want about the %v time to live", took, timings.TTL)
		}
		if ok, _ := leases.Renew(t.Context(), "gw2", "ghost", timings.TTL); ok {
			t.Fatal("the old holder renewed a lease another holds")
		}
	})
}

func TestImportsArePublishedOnceAndAnnounced(t *testing.T) {
	srv := redistest.Start(t)
	feed, _ := open(t, srv, nil).Imports(testSharedKey)
	other, _ := open(t, srv, nil).Imports(testSharedKey)
	notes := other.Notifications(t.Context())
	rec := redis.ImportRecord{ID: "abc", Name: "runs.csv", Session: 2, CSV: []byte("a,b\n1,2\n")}
	if isNew, err := feed.Publish(t.Context(), rec); !isNew || err != nil {
		t.Fatalf("first publish: %v %v", isNew, err)
	}
	if isNew, err := feed.Publish(t.Context(), rec); isNew || err != nil {
		t.Fatalf("second publish: %v %v", isNew, err)
	}
	select {
	case <-notes:
	case <-time.After(3 * time.Second):
		t.Fatal("no notification")
	}
	ids, err := other.IDs(t.Context())
	if err != nil || strings.Join(ids, ",") != "abc" {
		t.Fatalf("IDs = %v, %v", ids, err)
	}
	got, err := other.Get(t.Context(), "abc")
	if err != nil || got.Name != "runs.csv" || got.Session != 2 || string(got.CSV) != string(rec.CSV) {
		t.Fatalf("Get = %+v, %v", got, err)
	}
}

const testSharedKey = "0123456789abcdef0123456789abcdef-test"

// A record written straight into the server — unsigned, signed with
// another key, or altered after signing — is refused, logged and counted
// once; a signed one is read.
func TestAnImportRecordWithoutTheSharedKeysSignatureIsRefused(t *testing.T) {
	srv := redistest.Start(t)
	var logs lockedBuffer
	st := open(t, srv, &logs)
	feed, err := st.Imports(testSharedKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Imports("short"); err == nil || !strings.Contains(err.Error(), "at least 32") {
		t.Fatalf("a short key: %v", err)
	}
	csv := []byte("run_id,ops_per_sec\n1,999000000\n")
	signed := redis.ImportRecord{ID: "good", Name: "runs.csv", Session: 2, CSV: csv}
	if _, err := feed.Publish(t.Context(), signed); err != nil {
		t.Fatal(err)
	}
	otherKey, _ := open(t, srv, nil).Imports(strings.Repeat("k", 40))
	if _, err := otherKey.Publish(t.Context(), redis.ImportRecord{ID: "other-key", Name: "x.csv", Session: 2, CSV: csv}); err != nil {
		t.Fatal(err)
	}
	raw := st.KV("import") // the feed's records live at PREFIX:import:ID
	_ = raw.Set(t.Context(), "unsigned", []byte(`{"id":"unsigned","name":"x.csv","session":2,"csv":"cnVuX2lk"}`), 0)
	_ = raw.Set(t.Context(), "garbage", []byte(`not json`), 0)
	good, _, _ := raw.Get(t.Context(), "good")
	_ = raw.Set(t.Context(), "altered", []byte(strings.Replace(string(good), `"id":"good"`, `"id":"altered"`, 1)), 0)

	if rec, err := feed.Get(t.Context(), "good"); err != nil || string(rec.CSV) != string(csv) {
		t.Fatalf("the signed record: %+v, %v", rec, err)
	}
	for range 3 { // looked at on every sync: still counted once each
		for _, id := range []string{"unsigned", "garbage", "altered", "other-key"} {
			if _, err := feed.Get(t.Context(), id); !errors.Is(err, redis.ErrRefused) {
				t.Errorf("%s: Get = %v, want ErrRefused", id, err)
			}
		}
	}
	if st.Refused() != 4 {
		t.Errorf("refused %d, want 4", st.Refused())
	}
	if n := strings.Count(logs.String(), "refused an import record"); n != 4 {
		t.Errorf("logged %d refusals, want 4:\n%s", n, logs.String())
	}
}

// Two replicas, each with its own local state, append 50 follow-ups to one
// thread at once on a real server: every one is kept.
func TestFiftyConcurrentFollowUpsAcrossTwoReplicasLoseNone(t *testing.T) {
	srv := redistest.Start(t)
	a := bot.NewKVThreads(open(t, srv, nil).Shared("threads", bottest.NewMemKV(nil)), 64, time.Hour)
	b := bot.NewKVThreads(open(t, srv, nil).Shared("threads", bottest.NewMemKV(nil)), 64, time.Hour)
	bottest.TestConcurrentFollowUps(t, 50, a, b)
}

// Through an outage: a thread started before it keeps its context on the
// replica during it; what each replica wrote locally during it reaches the
// server afterwards (follow-ups merged, events marked), so an event
// answered during the outage is not answered again after it.
func TestWhatAReplicaWritesDuringAnOutageIsMergedBackAfterIt(t *testing.T) {
	srv := redistest.Start(t)
	stA, stB := open(t, srv, nil), open(t, srv, nil)
	threadsA := bot.NewKVThreads(stA.Shared("threads", bottest.NewMemKV(nil)), 16, time.Hour)
	threadsB := bot.NewKVThreads(stB.Shared("threads", bottest.NewMemKV(nil)), 16, time.Hour)
	eventsA := stA.Shared("slack", bottest.NewMemKV(nil))
	ctx := t.Context()
	plan := func(q string) planner.Plan { return planner.Plan{Intent: planner.IntentLookup, Question: q} }
	const thread = "slack/C1/1.1"
	if err := threadsA.Append(ctx, thread, plan("before")); err != nil {
		t.Fatal(err)
	}
	if first, _ := eventsA.SetIfAbsent(ctx, "event/Ev1", []byte("1"), time.Hour); !first {
		t.Fatal("a new event is not first")
	}

	srv.Stop()
	if got, _ := threadsA.Plans(ctx, thread); len(got) != 1 || got[0].Question != "before" {
		t.Fatalf("during the outage the thread lost its context: %+v", got)
	}
	if first, _ := eventsA.SetIfAbsent(ctx, "event/Ev1", []byte("1"), time.Hour); first {
		t.Fatal("an event seen before the outage is new again during it")
	}
	_ = threadsA.Append(ctx, thread, plan("during on A"))
	_ = threadsB.Append(ctx, thread, plan("during on B"))
	if first, _ := eventsA.SetIfAbsent(ctx, "event/Ev2", []byte("1"), time.Hour); !first {
		t.Fatal("a new event during the outage is not first")
	}

	// The server comes back empty (no persistence): only the replicas' own
	// writes can restore it. The "before" plan lived only on the server.
	srv.Restart()
	eventually(t, 3*time.Second, "both replicas to find the server", func() bool { return stA.Up() && stB.Up() })
	var qs []string
	eventually(t, 3*time.Second, "both replicas' follow-ups to reach the shared thread", func() bool {
		got, err := threadsB.Plans(ctx, thread)
		if err != nil {
			t.Fatal(err)
		}
		qs = qs[:0]
		for _, p := range got {
			qs = append(qs, p.Question)
		}
		return slices.Contains(qs, "during on A") && slices.Contains(qs, "during on B")
	})
	eventually(t, 3*time.Second, "the event answered on A during the outage to be marked for B", func() bool {
		_, ok, _ := stB.KV("slack").Get(ctx, "event/Ev2")
		return ok
	})
}

// Rotating the shared key: replicas given the new key and the previous
// one read records signed with either, sign them again when they publish
// what they hold, and then the previous key can go.
func TestRotatingTheSharedKeyKeepsThePublishedRecords(t *testing.T) {
	srv := redistest.Start(t)
	oldKey, newKey := strings.Repeat("o", 40), strings.Repeat("n", 40)
	before, _ := open(t, srv, nil).Imports(oldKey)
	rec := redis.ImportRecord{ID: "r1", Name: "runs.csv", Session: 2, CSV: []byte("a\n1\n")}
	if _, err := before.Publish(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	rotating, err := open(t, srv, nil).Imports(newKey, oldKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rotating.Get(t.Context(), "r1"); err != nil {
		t.Fatalf("during the rotation a record signed with the previous key: %v", err)
	}
	if _, err := rotating.Publish(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	after, _ := open(t, srv, nil).Imports(newKey)
	if _, err := after.Get(t.Context(), "r1"); err != nil {
		t.Fatalf("after the rotation: %v", err)
	}
}
