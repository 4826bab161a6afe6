package knowledge

import (
	"io/fs"
	"sync"
)

// prefetched is the embedded files decoded by Prefetch, for the next load
// to take; ch is nil when none is under way.
var prefetched struct {
	mu sync.Mutex
	ch chan *decoded
}

// Prefetch starts decoding the embedded data files in the background: a
// process about to load the base once (a one-off answer) does that on its
// other core while it opens its store. The next Load or LoadWith takes the
// result; loads after it decode the files themselves.
func Prefetch() {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		return // LoadWith reports it
	}
	prefetched.mu.Lock()
	defer prefetched.mu.Unlock()
	if prefetched.ch != nil {
		return
	}
	ch := make(chan *decoded, 1)
	prefetched.ch = ch
	go func() { ch <- decodeFiles(sub) }()
}

// embeddedDecoded takes what Prefetch decoded, waiting for it if need be,
// or decodes sub (the embedded files) now.
func embeddedDecoded(sub fs.FS) *decoded {
	prefetched.mu.Lock()
	ch := prefetched.ch
	prefetched.ch = nil
	prefetched.mu.Unlock()
	if ch != nil {
		return <-ch
	}
	return decodeFiles(sub)
}
