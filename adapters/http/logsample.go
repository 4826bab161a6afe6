package http

import (
	"sync"
	"time"
)

// maxSampled bounds the clients the sampler remembers; beyond it, clients
// quiet for a whole period are forgotten.
const maxSampled = 10_000

// logSampler lets one log line per client per period through, carrying the
// number of events since the previous line, so a flood of refusals writes a
// line a minute, not a line a request.
type logSampler struct {
	period time.Duration
	now    func() time.Time

	mu      sync.Mutex
	clients map[string]*sampled
}

type sampled struct {
	lastLine time.Time
	pending  int
}

func newLogSampler(period time.Duration, now func() time.Time) *logSampler {
	return &logSampler{period: period, now: now, clients: map[string]*sampled{}}
}

// note records one event of client and reports whether to log it now, with
// the events counted since the client's previous line (this one included).
func (s *logSampler) note(client string) (int, bool) {
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
