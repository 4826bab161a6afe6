package redis

import (
	"context"
	"fmt"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Leases are held by one replica at a time: a key holding the holder's
// name with a time to live, renewed by the holder only (checked on the
// server, so a replica that lost its lease cannot extend another's).
// Each script is hashed on first use: a process that never talks to
// Redis does not pay for it at start.
var (
	acquireScript = sync.OnceValue(func() *goredis.Script {
		return goredis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 1 end
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return 1
end
return 0`)
	})
	renewScript = sync.OnceValue(func() *goredis.Script {
		return goredis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return 0`)
	})
	releaseScript = sync.OnceValue(func() *goredis.Script {
		return goredis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0`)
	})
)

// Leases returns the bot.Leases on the server.
func (s *Store) Leases() Leases { return Leases{s} }

// Leases implements bot.Leases on the server.
type Leases struct{ s *Store }

// Acquire takes the lease name for holder for ttl, or renews it when holder
// already has it; it reports whether holder holds it now.
func (l Leases) Acquire(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	return l.run(ctx, acquireScript(), name, holder, ttl)
}

// Renew extends the lease when holder still holds it.
func (l Leases) Renew(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	return l.run(ctx, renewScript(), name, holder, ttl)
}

// Release gives the lease up when holder holds it, so another replica can
// take over at once instead of after the time to live.
func (l Leases) Release(ctx context.Context, name, holder string) error {
	_, err := l.run(ctx, releaseScript(), name, holder, 0)
	return err
}

func (l Leases) run(ctx context.Context, script *goredis.Script, name, holder string, ttl time.Duration) (bool, error) {
	n, err := script.Run(ctx, l.s.c, []string{l.s.key("lease", name)}, holder, max(ttl.Milliseconds(), 1)).Int()
	l.s.observe(err)
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", name, err)
	}
	return n == 1, nil
}
