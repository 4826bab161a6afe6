package bot

import (
	"context"
	"log/slog"
	"time"
)

// Leases let one replica at a time do what only one may do, such as
// holding the Discord gateway (a bot has one gateway session per shard;
// two would answer every message twice). adapters/redis implements them on
// the shared server.
type Leases interface {
	// Acquire takes the lease for holder for ttl, or extends it when
	// holder has it already; it reports whether holder holds it now.
	Acquire(ctx context.Context, name, holder string, ttl time.Duration) (bool, error)
	// Renew extends the lease when holder still holds it.
	Renew(ctx context.Context, name, holder string, ttl time.Duration) (bool, error)
	// Release gives the lease up when holder holds it.
	Release(ctx context.Context, name, holder string) error
}

// LeaseTimings say how long a lease lasts without renewal (TTL) and how
// often its holder renews it and others try to take it (Every). A holder
// that dies is replaced within TTL + Every.
type LeaseTimings struct {
	TTL   time.Duration
	Every time.Duration
}

// DefaultLeaseTimings replace a dead holder within 13 s.
func DefaultLeaseTimings() LeaseTimings {
	return LeaseTimings{TTL: 10 * time.Second, Every: 3 * time.Second}
}

// RunWhileHolding runs run only while holder holds the lease name, until
// ctx ends: it waits for the lease, runs, renews it every t.Every, and
// cancels run when another holder has it. While the lease store cannot be
// reached, a holder keeps running (no one else can take the lease then)
// and a waiting replica keeps waiting. When run returns by itself its
// error is returned; on shutdown the lease is released so another replica
// takes over at once.
func RunWhileHolding(ctx context.Context, leases Leases, name, holder string, t LeaseTimings, log *slog.Logger,
	run func(ctx context.Context) error) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for {
		if !waitForLease(ctx, leases, name, holder, t, log) {
			return nil
		}
		log.Info("lease acquired; running", "lease", name, "holder", holder)
		lost, err := holdWhileRunning(ctx, leases, name, holder, t, log, run)
		if !lost {
			if rerr := leases.Release(context.WithoutCancel(ctx), name, holder); rerr != nil {
				log.Warn("releasing the lease", "lease", name, "err", rerr)
			}
			return err
		}
		log.Warn("lease lost to another replica; stopped", "lease", name, "holder", holder)
	}
}

// waitForLease tries to acquire the lease every t.Every until it holds it
// (true) or ctx ends (false).
func waitForLease(ctx context.Context, leases Leases, name, holder string, t LeaseTimings, log *slog.Logger) bool {
	tick := time.NewTicker(t.Every)
	defer tick.Stop()
	for {
		ok, err := leases.Acquire(ctx, name, holder, t.TTL)
		if err != nil && ctx.Err() == nil {
			log.Debug("lease not acquired", "lease", name, "err", err)
		}
		if ok {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// holdWhileRunning runs run and renews the lease until run returns, ctx
// ends, or the lease is found held by another (lost).
func holdWhileRunning(ctx context.Context, leases Leases, name, holder string, t LeaseTimings, log *slog.Logger,
	run func(ctx context.Context) error) (lost bool, err error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- run(runCtx) }()
	tick := time.NewTicker(t.Every)
	defer tick.Stop()
	for {
		select {
		case err := <-errc:
			return false, err
		case <-tick.C:
			ok, err := leases.Renew(ctx, name, holder, t.TTL)
			if err != nil {
				log.Debug("lease not renewed; holding on", "lease", name, "err", err)
				continue
			}
			if !ok {
				// Expired while the store was away, or taken: take it back if free.
				if ok, err = leases.Acquire(ctx, name, holder, t.TTL); err == nil && !ok {
					cancel()
					<-errc
					return true, nil
				}
			}
		}
	}
}
