package discord

import "sync"

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
