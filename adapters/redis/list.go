package redis

import (
	"context"
	"fmt"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// appendScript appends to a bounded list and restarts its expiry in one
// step on the server, so replicas appending at once never lose an entry.
// A key still holding the single-value form of earlier versions is
// replaced (that thread forgets its context once).
// Each script is hashed on first use: a process that never talks to
// Redis does not pay for it at start.
var appendScript = sync.OnceValue(func() *goredis.Script {
	return goredis.NewScript(`
if redis.call("TYPE", KEYS[1]).ok ~= "list" then redis.call("DEL", KEYS[1]) end
redis.call("RPUSH", KEYS[1], ARGV[1])
redis.call("LTRIM", KEYS[1], -tonumber(ARGV[2]), -1)
if tonumber(ARGV[3]) > 0 then redis.call("PEXPIRE", KEYS[1], ARGV[3]) end
return 1`)
})

// AppendBounded implements bot.Appender on the server.
func (kv *KV) AppendBounded(ctx context.Context, key string, value []byte, max int, ttl time.Duration) error {
	if max <= 0 {
		max = 1 << 30
	}
	err := appendScript().Run(ctx, kv.s.c, []string{kv.prefix + key}, value, max, ttl.Milliseconds()).Err()
	kv.s.observe(err)
	if err != nil {
		return fmt.Errorf("shared list append %s: %w", key, err)
	}
	return nil
}

// List implements bot.Appender on the server.
func (kv *KV) List(ctx context.Context, key string) ([][]byte, error) {
	vals, err := kv.s.c.LRange(ctx, kv.prefix+key, 0, -1).Result()
	kv.s.observe(err)
	if err != nil {
		if goredis.HasErrorPrefix(err, "WRONGTYPE") {
			return nil, nil // the single-value form of earlier versions
		}
		return nil, fmt.Errorf("shared list %s: %w", key, err)
	}
	out := make([][]byte, len(vals))
	for i, v := range vals {
		out[i] = []byte(v)
	}
	return out, nil
}

var _ bot.Appender = (*KV)(nil)
