package discord

import (
	"context"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Deliveries remembers which gateway events were already handled, so an
// event Discord delivers twice — replayed after a RESUME, or seen by two
// replicas while the gateway lease changes hands — is answered once. Any
// bot.KV satisfies it; a shared one (Redis) de-duplicates across replicas.
type Deliveries interface {
	// SetIfAbsent stores value under key unless the key exists, and reports
	// whether it stored it.
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
}

// deliveryTTL is how long an event id is remembered: far longer than a
// gateway session can be resumed.
const deliveryTTL = 24 * time.Hour

// firstDelivery records one event of kind ("message", "interaction") and
// reports whether it is the first. When the store fails the event is
// handled: a rare double answer beats a lost question.
func (a *Adapter) firstDelivery(ctx context.Context, kind, id string) bool {
	if id == "" {
		return true
	}
	first, err := a.cfg.Deliveries.SetIfAbsent(ctx, "discord/"+kind+"/"+id, []byte{'1'}, deliveryTTL)
	if err != nil {
		a.log.Error("discord: recording a delivery; handling it anyway", "kind", kind, "id", id, "err", err)
		return true
	}
	return first
}

// recentDeliveries is the Deliveries of a single process without a store:
// the most recent event ids, bounded in number (a replay comes within
// minutes, long before an id is evicted).
type recentDeliveries struct{ seen *lru.Cache[string, struct{}] }

// recentDeliveriesSize bounds the memory: far more events than a bot sees
// in the time a replay can come.
const recentDeliveriesSize = 8192

func newRecentDeliveries() recentDeliveries {
	seen, err := lru.New[string, struct{}](recentDeliveriesSize)
	if err != nil {
		panic(err) // only for a size ≤ 0, a constant here
	}
	return recentDeliveries{seen: seen}
}

func (r recentDeliveries) SetIfAbsent(_ context.Context, key string, _ []byte, _ time.Duration) (bool, error) {
	ok, _ := r.seen.ContainsOrAdd(key, struct{}{})
	return !ok, nil
}
