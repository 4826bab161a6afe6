package bot

import (
	"sync"
	"time"
)

// maxSampled bounds the clients the sampler remembers; beyond it, clients
// quiet for a whole period are forgotten.
const maxSampled = 10_000

// LogSampler lets one log line per source per period through, carrying
// the number of events since the previous line, so a flood of refusals (bad
// signatures, bad keys, rate limits) writes a line a minute per source,
// not a line a request. It is safe for concurrent use.
type LogSampler struct {
	period time.Duration
	now    func() time.Time

	mu      sync.Mutex
	clients map[string]*sampled
}

type sampled struct {
	lastLine time.Time
	pending  int
}

// NewLogSampler returns a sampler letting a line per source through every
// period (a minute when ≤ 0), reading time from now (time.Now when nil).
func NewLogSampler(period time.Duration, now func() time.Time) *LogSampler {
	if period <= 0 {
		period = time.Minute
	}
	if now == nil {
		now = time.Now
	}
	return &LogSampler{period: period, now: now, clients: map[string]*sampled{}}
}

// Note records one event of source and reports whether to log it now, with
// the events counted since the source's previous line (this one included).
func (s *LogSampler) Note(client string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	c, ok := s.clients[client]
	if !ok {
		if len(s.clients) >= maxSampled {
			for k, v := range s.clients {
				if now.Sub(v.lastLine) >= s.period {
					delete(s.clients, k)
				}
			}
		}
		c = &sampled{}
		s.clients[client] = c
	}
	c.pending++
	if ok && now.Sub(c.lastLine) < s.period {
		return 0, false
	}
	n := c.pending
	c.pending, c.lastLine = 0, now
	return n, true
}
