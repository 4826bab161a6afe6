package redis

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// admitScript checks every limit, then takes from all of them or none, in
// one atomic step on the server (the GCRA of go-redis/redis_rate, over
// several keys). Time is the server's, so replicas' clocks may disagree.
//
// KEYS: the limits' keys. ARGV, three per key: "g", emission interval (ms),
// burst — or "c", count, window TTL (ms). Returns {0, "0"} when admitted,
// else {i, retry ms} for the first refusing limit i (1-based).
// Each script is hashed on first use: a process that never talks to
// Redis does not pay for it at start.
var admitScript = sync.OnceValue(func() *goredis.Script {
	return goredis.NewScript(`
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local news = {}
for i = 1, #KEYS do
  local kind, a, b = ARGV[3*i-2], tonumber(ARGV[3*i-1]), tonumber(ARGV[3*i])
  if kind == "g" then
    local tat = tonumber(redis.call("GET", KEYS[i]) or now)
    if tat < now then tat = now end
    local newtat = tat + a
    local allowAt = newtat - b * a
    if allowAt > now then
      return {i, string.format("%.3f", allowAt - now)}
    end
    news[i] = newtat
  else
    local count = tonumber(redis.call("GET", KEYS[i]) or "0")
    if count >= a then
      return {i, tostring(redis.call("PTTL", KEYS[i]))}
    end
  end
end
for i = 1, #KEYS do
  if ARGV[3*i-2] == "g" then
    redis.call("SET", KEYS[i], string.format("%.3f", news[i]), "PX", math.max(math.ceil(news[i] - now), 1))
  else
    if redis.call("INCR", KEYS[i]) == 1 then
      redis.call("PEXPIRE", KEYS[i], ARGV[3*i])
    end
  end
end
return {0, "0"}
`)
})

// Limits returns the bot.RateStore on the server.
func (s *Store) Limits() bot.RateStore { return rateStore{s} }

type rateStore struct{ s *Store }

// Admit applies limits atomically across every replica. While the server
// is unreachable it returns an error at once, and the bot.Limiter uses its
// per-process buckets.
func (r rateStore) Admit(ctx context.Context, limits []bot.RateLimit) (bot.RateDecision, error) {
	if err := r.s.usable(); err != nil {
		r.s.fallbacks.Add(1)
		return bot.RateDecision{}, err
	}
	keys := make([]string, len(limits))
	args := make([]any, 0, 3*len(limits))
	for i, l := range limits {
		keys[i] = r.s.key("ratelimit", l.Key)
		if l.Every > 0 {
			args = append(args, "g", float64(l.Every)/float64(time.Millisecond), max(l.Burst, 1))
			continue
		}
		ttl := max(time.Until(l.Reset).Milliseconds(), 1)
		args = append(args, "c", l.Count, ttl)
	}
	res, err := admitScript().Run(ctx, r.s.c, keys, args...).Slice()
	r.s.observe(err)
	if err != nil {
		if failed(err) {
			r.s.fallbacks.Add(1)
		}
		return bot.RateDecision{}, fmt.Errorf("shared rate limits: %w", err)
	}
	if len(res) != 2 {
		return bot.RateDecision{}, fmt.Errorf("shared rate limits: unexpected reply %v", res)
	}
	i, _ := res[0].(int64)
	if i == 0 {
		return bot.RateDecision{Refused: -1}, nil
	}
	ms, _ := strconv.ParseFloat(fmt.Sprint(res[1]), 64)
	return bot.RateDecision{Refused: int(i) - 1, Retry: time.Duration(math.Ceil(max(ms, 0))) * time.Millisecond}, nil
}
