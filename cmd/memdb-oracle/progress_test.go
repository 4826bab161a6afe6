package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func terminalLine(w *bytes.Buffer) *statusLine {
	return &statusLine{w: w, term: true, width: func() int { return 80 }}
}

func TestProgressRedrawsOneLineWithRateAndTimeLeft(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	line := terminalLine(&out)
	p := newProgress(line, 1000, clock.now)

	steps := []struct {
		after time.Duration
		ip    analytics.ImportProgress
		want  string // the whole output this report adds; "" for none
	}{
		// Nothing during the first second.
		{500 * time.Millisecond, analytics.ImportProgress{Phase: "checking", Rows: 100, Bytes: 100}, ""},
		// 250 rows in 1.0 s, a quarter of the file: 3 s left.
		{500 * time.Millisecond, analytics.ImportProgress{Phase: "checking", Rows: 250, Bytes: 250},
			clearLine + "checking 1/3: 250 rows (25%), 250 rows/s, 3s left"},
		// Redrawn at most every 250 ms, but at once for a new step.
		{100 * time.Millisecond, analytics.ImportProgress{Phase: "checking", Rows: 260, Bytes: 260}, ""},
		// The second step shows at once, and measures its own rate from
		// when it started.
		{10 * time.Millisecond, analytics.ImportProgress{Phase: "writing", Rows: 0, TotalRows: 1000},
			clearLine + "writing 2/3: 0 of 1,000 rows"},
		{2 * time.Second, analytics.ImportProgress{Phase: "writing", Rows: 400, TotalRows: 1000},
			clearLine + "writing 2/3: 400 of 1,000 rows, 200 rows/s, 3s left"},
		{10 * time.Millisecond, analytics.ImportProgress{Phase: "indexing"},
			clearLine + "indexing 3/3: cells, medians and the index"},
	}
	for i, s := range steps {
		clock.advance(s.after)
		before := out.Len()
		p.report(s.ip)
		if got := out.String()[before:]; got != s.want {
			t.Errorf("report %d: wrote %q, want %q", i, got, s.want)
		}
	}

	// Anything else written to stderr ends the line first.
	fmt.Fprintln(line, "warning: something")
	if got := out.String(); !strings.HasSuffix(got, "the index"+clearLine+"warning: something\n") {
		t.Errorf("a warning shares the progress line: %q", got)
	}
	// The line comes back at the next redraw, and done erases it.
	clock.advance(time.Second)
	p.report(analytics.ImportProgress{Phase: "writing", Rows: 1000, TotalRows: 1000})
	before := out.Len()
	p.done()
	if got := out.String()[before:]; got != clearLine {
		t.Errorf("done wrote %q, want the line erased", got)
	}
	before = out.Len()
	p.done()
	if out.Len() != before {
		t.Errorf("a second done wrote %q", out.String()[before:])
	}
}

func TestProgressIsCutToTheTerminalWidth(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	line := terminalLine(&out)
	line.width = func() int { return 30 }
	p := newProgress(line, 0, clock.now)
	clock.advance(2 * time.Second)
	p.report(analytics.ImportProgress{Phase: "writing", Rows: 123456, TotalRows: 1234567})
	got := strings.TrimPrefix(out.String(), clearLine)
	if len(got) != 29 || !strings.HasPrefix(got, "writing 2/3: 123,456 of") {
		t.Errorf("drawn %q (%d columns) on a 30-column terminal", got, len(got))
	}
}

func TestProgressDrawsNothingWhenStderrIsNotATerminal(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	line := newStatusLine(&out)
	p := newProgress(line, 1000, clock.now)
	for i := range 20 {
		clock.advance(time.Second)
		p.report(analytics.ImportProgress{Phase: "writing", Rows: i * 50, TotalRows: 1000})
	}
	p.done()
	fmt.Fprint(line, "report\n")
	if got := out.String(); got != "report\n" {
		t.Errorf("wrote %q to a non-terminal stderr", got)
	}
}
