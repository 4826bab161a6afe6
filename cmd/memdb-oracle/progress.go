package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// progress shows an import's rows per second and time left on stderr,
// once the import has taken more than a second, and only when stderr is a
// terminal (logs and pipes get the final report only).
type progress struct {
	w       io.Writer
	on      bool
	size    int64
	start   time.Time
	phase   string
	phaseAt time.Time
	last    time.Time
	shown   bool
}

// progressDelay is how long an import runs before progress appears, and
// progressEvery how often the line is redrawn.
const (
	progressDelay = time.Second
	progressEvery = 250 * time.Millisecond
)

func newProgress(w io.Writer, size int64) *progress {
	now := time.Now()
	return &progress{w: w, on: writerIsTerminal(w), size: size, start: now, phaseAt: now}
}

// report is the import's progress callback.
func (p *progress) report(ip analytics.ImportProgress) {
	if !p.on {
		return
	}
	now := time.Now()
	if ip.Phase != p.phase {
		p.phase, p.phaseAt = ip.Phase, now
	}
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	elapsed := now.Sub(p.phaseAt).Seconds()
	rate := float64(ip.Rows) / max(elapsed, 1e-3)
	left := ""
	switch {
	case ip.TotalRows > 0 && rate > 0:
		left = fmt.Sprintf(", about %s left", eta(float64(ip.TotalRows-ip.Rows)/rate))
	case p.size > 0 && ip.Bytes > 0:
		left = fmt.Sprintf(", about %s left", eta(elapsed*float64(p.size-ip.Bytes)/float64(ip.Bytes)))
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %s rows, %s rows/s%s", ip.Phase, exactNumber(float64(ip.Rows)), exactNumber(float64(int(rate))), left)
	p.shown = true
}

// done ends the progress line, if one was drawn.
func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func eta(seconds float64) string {
	d := time.Duration(max(seconds, 0) * float64(time.Second)).Round(time.Second)
	if d < time.Second {
		return "1s"
	}
	return d.String()
}

// writerIsTerminal reports whether w is a terminal (a character device).
func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
