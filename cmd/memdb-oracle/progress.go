package main

import (
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// progress shows an import's steps with rows per second and the time left
// on the status line (stderr, when it is a terminal), once the import has
// taken more than a second; logs and pipes get the final report only.
type progress struct {
	line    *statusLine
	now     func() time.Time
	size    int64 // the file's size in bytes, 0 when unknown
	start   time.Time
	phase   string
	phaseAt time.Time
	last    time.Time
}

// progressDelay is how long an import runs before progress appears, and
// progressEvery how often the line is redrawn.
const (
	progressDelay = time.Second
	progressEvery = 250 * time.Millisecond
)

func newProgress(line *statusLine, size int64, now func() time.Time) *progress {
	t := now()
	return &progress{line: line, now: now, size: size, start: t, phaseAt: t}
}

// steps names the import's phases as the user sees them.
var steps = map[string]string{"checking": "checking 1/3", "writing": "writing 2/3", "indexing": "indexing 3/3"}

// report is the import's progress callback.
func (p *progress) report(ip analytics.ImportProgress) {
	if !p.line.term {
		return
	}
	now := p.now()
	newStep := ip.Phase != p.phase
	if newStep {
		if p.phase != "" { // the first step started with the import
			p.phaseAt = now
		}
		p.phase = ip.Phase
	}
	if now.Sub(p.start) < progressDelay || (!newStep && now.Sub(p.last) < progressEvery) {
		return
	}
	p.last = now
	elapsed := now.Sub(p.phaseAt).Seconds()
	rate := float64(ip.Rows) / max(elapsed, 1e-3)
	step := steps[ip.Phase]
	if step == "" {
		step = ip.Phase
	}
	text := fmt.Sprintf("%s: %s rows", step, exactNumber(float64(ip.Rows)))
	switch {
	case ip.Phase == "indexing":
		text = step + ": cells, medians and the index"
	case ip.TotalRows > 0:
		text = fmt.Sprintf("%s: %s of %s rows", step, exactNumber(float64(ip.Rows)), exactNumber(float64(ip.TotalRows)))
		if rate > 0 {
			text += fmt.Sprintf(", %s rows/s, %s left", exactNumber(float64(int(rate))), eta(float64(ip.TotalRows-ip.Rows)/rate))
		}
	case p.size > 0 && ip.Bytes > 0:
		text += fmt.Sprintf(" (%d%%), %s rows/s, %s left", 100*ip.Bytes/p.size, exactNumber(float64(int(rate))),
			eta(elapsed*float64(p.size-ip.Bytes)/float64(ip.Bytes)))
	default:
		text += fmt.Sprintf(", %s rows/s", exactNumber(float64(int(rate))))
	}
	p.line.show(text)
}

// done ends the progress line, if one was drawn.
func (p *progress) done() { p.line.end() }

func eta(seconds float64) string {
	d := time.Duration(max(seconds, 0) * float64(time.Second)).Round(time.Second)
	if d < time.Second {
		return "1s"
	}
	return d.String()
}
