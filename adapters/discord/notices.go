package discord

import (
	"sync"
	"time"
)

// onceSet remembers which notices were already given, so a missing
// permission is reported to users once per channel (per process).
type onceSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

func newOnceSet() *onceSet { return &onceSet{seen: map[string]bool{}} }

// first reports whether key is new, and records it.
func (o *onceSet) first(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[key] {
		return false
	}
	o.seen[key] = true
	return true
}

// burstWindow is how long a burst of mentions from one person lasts: one
// notice (rate limit, error, help) per burst.
const burstWindow = time.Minute

// burstSet lets one notice through per key and burst.
type burstSet struct {
	mu   sync.Mutex
	last map[string]time.Time
}

func newBurstSet() *burstSet { return &burstSet{last: map[string]time.Time{}} }

// first reports whether key had no notice within burstWindow before now,
// and records now. A message inside the burst extends it.
func (b *burstSet) first(key string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	prev, seen := b.last[key]
	b.last[key] = now
	for k, t := range b.last {
		if now.Sub(t) > burstWindow {
			delete(b.last, k) // keep the set small
		}
	}
	return !seen || now.Sub(prev) > burstWindow
}

// noticeFollowUps opens an answer thread when the bot cannot read messages
// that do not mention it (no message-content intent).
const noticeFollowUps = "Follow-ups in this thread need a mention (@ me) or `/oracle`: I only see messages addressed to me."

// Notices shown to users when the bot lacks a permission.
const (
	noticeNoThreads = "I can't start threads in this channel (missing the **Create Public Threads** permission), " +
		"so I'm answering here; follow-ups need a new mention. I'll only say this once."
	noticeNoThreadPost = "I can't post in threads here (missing the **Send Messages in Threads** permission), " +
		"so I'm answering in the channel. I'll only say this once."
	noticeNoChart = "I can't attach the chart here (missing the **Attach Files** permission, or the image is too large); " +
		"the numbers are all in the table. I'll only say this once."
	noticeNoCommandThread = "I can't start a thread from this answer (missing the **Create Public Threads** permission), " +
		"so ask follow-ups with `/%s` again. I'll only say this once."
)
