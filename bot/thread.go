package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// ThreadStore keeps the previous plans of each conversation so follow-ups
// ("what about Valkey?", "and the p99?") can inherit slots, across process
// restarts and across replicas (docs/design.md#replicas-and-shared-state).
//
// Semantics every implementation keeps (bottest.TestThreadStore checks them):
//   - Plans returns the thread's plans oldest first, at most the store's
//     bound, and an empty slice (not an error) for an unknown or expired key.
//   - Append adds a plan as the newest, dropping the oldest beyond the bound,
//     and restarts the thread's expiry.
//   - Reset forgets the thread; resetting an unknown key is not an error.
//   - Keys are opaque strings (Message.ThreadKey); different keys never share plans.
type ThreadStore interface {
	Plans(ctx context.Context, key string) ([]planner.Plan, error)
	Append(ctx context.Context, key string, p planner.Plan) error
	Reset(ctx context.Context, key string) error
}

// Default thread bounds.
const (
	DefaultThreadLength = 8
	DefaultThreadTTL    = 7 * 24 * time.Hour
)

// KVThreads is the ThreadStore over a KV space (analytics.Store.KV by
// default, or a shared Redis/Valkey-backed KV on several replicas). Each
// thread is a list of plans appended atomically: by the KV itself when it
// is an Appender (the shared store, across replicas), else by a LocalList
// serialising the appends of this process. Concurrent follow-ups in one
// thread are all kept.
type KVThreads struct {
	kv     KV
	list   Appender
	max    int
	ttl    time.Duration
	prefix string
}

// NewKVThreads returns a thread store keeping at most maxPlans plans per
// thread (DefaultThreadLength when ≤ 0) for ttl after the last message
// (DefaultThreadTTL when ≤ 0).
func NewKVThreads(kv KV, maxPlans int, ttl time.Duration) *KVThreads {
	if maxPlans <= 0 {
		maxPlans = DefaultThreadLength
	}
	if ttl <= 0 {
		ttl = DefaultThreadTTL
	}
	list, ok := kv.(Appender)
	if !ok {
		list = NewLocalList(kv)
	}
	return &KVThreads{kv: kv, list: list, max: maxPlans, ttl: ttl, prefix: "thread/"}
}

// Plans returns the thread's plans, oldest first.
func (s *KVThreads) Plans(ctx context.Context, key string) ([]planner.Plan, error) {
	if key == "" {
		return []planner.Plan{}, nil
	}
	entries, err := s.list.List(ctx, s.prefix+key)
	if err != nil {
		return nil, fmt.Errorf("thread %q: %w", key, err)
	}
	plans := make([]planner.Plan, 0, len(entries))
	for _, e := range entries {
		var p planner.Plan
		if err := json.Unmarshal(e, &p); err != nil {
			return nil, fmt.Errorf("thread %q: decoding: %w", key, err)
		}
		plans = append(plans, p)
	}
	if len(plans) > s.max {
		plans = plans[len(plans)-s.max:]
	}
	return plans, nil
}

// Append stores p as the thread's newest plan.
func (s *KVThreads) Append(ctx context.Context, key string, p planner.Plan) error {
	if key == "" {
		return errors.New("thread: empty key")
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("thread %q: encoding: %w", key, err)
	}
	if err := s.list.AppendBounded(ctx, s.prefix+key, raw, s.max, s.ttl); err != nil {
		return fmt.Errorf("thread %q: %w", key, err)
	}
	return nil
}

// Reset forgets the thread.
func (s *KVThreads) Reset(ctx context.Context, key string) error {
	if err := s.kv.Delete(ctx, s.prefix+key); err != nil {
		return fmt.Errorf("thread %q: %w", key, err)
	}
	return nil
}
