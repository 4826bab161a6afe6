package bot

import (
	"math/rand/v2"
	"time"
)

// Backoff is the one retry schedule the chat adapters and the digest
// share: exponential, capped, with jitter. Retry n (1-based) waits a
// random time between half and all of min(Base·2ⁿ⁻¹, Max), so the retries
// of many replicas or channels that failed together spread out instead of
// arriving together, and none comes sooner than half the step.
type Backoff struct {
	Base time.Duration // the first step
	Max  time.Duration // no step is longer
}

// Delay is the wait before retry number attempt (1-based).
func (b Backoff) Delay(attempt int) time.Duration {
	step := b.Max
	if attempt < 1 {
		attempt = 1
	}
	// Shifting past 62 bits would overflow; the cap applies long before.
	if attempt <= 62 {
		if s := b.Base << (attempt - 1); s > 0 && s < b.Max {
			step = s
		}
	}
	if step <= 0 {
		return 0
	}
	half := step / 2
	return half + rand.N(step-half+1)
}
