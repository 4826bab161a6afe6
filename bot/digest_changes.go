package bot

import (
	"fmt"
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"maps"
	"slices"
	"strings"
	"time"
)

// Digest is one composed findings digest: a short headline for the channel
// and the details for its thread, plus the state to remember once posted.
type Digest struct {
	Headline string      `json:"headline"` // Markdown, a few lines
	Details  string      `json:"details"`  // Markdown, for the headline's thread
	Changes  []string    `json:"changes"`  // what changed since the last posted digest
	State    DigestState `json:"state"`
	Chart    *Chart      `json:"chart,omitempty"`
	// Sources are the filters, run IDs and knowledge entries behind every number.
	Sources Sources `json:"sources"`
	// Unchanged says nothing changed since the last posted digest: the
	// channel gets one line (UnchangedLine), not the same figures again.
	Unchanged bool `json:"unchanged,omitempty"`
}

// UnchangedLine is the one line an unchanged digest posts, linking to the
// dataset page at web when there is one.
func (d Digest) UnchangedLine(web string) string {
	line := "*memdb-oracle digest* — nothing changed since the last one"
	if len(d.Changes) > 0 {
		line = "*memdb-oracle digest* — " + strings.TrimSuffix(lowerFirst(strings.Join(d.Changes, " ")), ".")
	}
	if web = strings.TrimRight(web, "/"); web != "" {
		line += " — [the dataset](" + web + "/data)"
	}
	return line + "."
}

// Markdown is the whole digest as one document (digest --print).
func (d Digest) Markdown() string {
	return strings.TrimSpace(d.Headline) + "\n\n---\n\n" + strings.TrimSpace(d.Details) + "\n"
}

// DigestState is what a posted digest is compared against next time.
// It holds runs counted per session and engine, never one entry per run:
// a state saved over millions of runs stays a few hundred bytes.
type DigestState struct {
	Fingerprint string                `json:"fingerprint"`
	PostedAt    time.Time             `json:"posted_at"`
	RunCounts   []RunCount            `json:"run_counts"` // by session, then engine
	Figures     map[string]Figure     `json:"figures"`    // headline numbers by key
	Claims      map[string]ClaimState `json:"claims"`     // claim id → what the data said
	// Runs is how states saved by earlier releases named every run (run
	// ID → session and engine); read, never written.
	Runs map[string]RunTag `json:"runs,omitempty"`
}

// RunTag is the part of a run the "what changed" section names.
type RunTag struct {
	Session int    `json:"session"`
	Engine  string `json:"engine"`
}

// RunCount is how many runs a session holds of one engine.
type RunCount struct {
	RunTag
	Runs int `json:"runs"`
}

// counts is the state's runs per session and engine.
func (s DigestState) counts() map[RunTag]int {
	out := map[RunTag]int{}
	for _, c := range s.RunCounts {
		out[c.RunTag] += c.Runs
	}
	for _, tag := range s.Runs {
		out[tag]++
	}
	return out
}

// TotalRuns is how many runs the state counts.
func (s DigestState) TotalRuns() int {
	n := 0
	for _, c := range s.counts() {
		n += c
	}
	return n
}

// Figure is one headline number with its label and display form.
type Figure struct {
	Label   string  `json:"label"`
	Value   float64 `json:"value"`
	Display string  `json:"display"`
}

// ClaimState is a claim's measured reading and verdict as last posted.
type ClaimState struct {
	Title    string `json:"title"`
	Measured string `json:"measured"`
	Verdict  string `json:"verdict"`
}

// digestChanges lists, in words, what differs between the last posted
// state and now: runs imported since, headline numbers that moved, claims
// whose reading changed. It returns one "nothing changed" line when nothing
// did, and nil when there was no earlier digest.
func digestChanges(last *DigestState, now DigestState) []string {
	if last == nil {
		return nil
	}
	var out []string
	if line := newRunsLine(last.counts(), now.counts()); line != "" {
		out = append(out, line)
	}
	if removed := countMissing(last.counts(), now.counts()); removed > 0 {
		out = append(out, fmt.Sprintf("%d runs present last time are no longer in the data.", removed))
	}
	for _, k := range slices.Sorted(maps.Keys(now.Figures)) {
		was, ok := last.Figures[k]
		cur := now.Figures[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("New figure: %s is %s.", cur.Label, cur.Display))
		case was.Value != cur.Value:
			out = append(out, fmt.Sprintf("%s moved from %s to %s (%s).", cur.Label, was.Display, cur.Display, digestPercentChange(was.Value, cur.Value)))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(now.Claims)) {
		was, ok := last.Claims[id]
		cur := now.Claims[id]
		if ok && (was.Verdict != cur.Verdict || was.Measured != cur.Measured) {
			out = append(out, fmt.Sprintf("Claim %q now reads: %s (was: %s).", cur.Title, cur.Measured, was.Measured))
		}
	}
	if len(out) == 0 {
		return []string{fmt.Sprintf("Nothing changed since the last digest (%s): same %d runs, same figures, same claim verdicts.",
			last.PostedAt.UTC().Format("2 Jan 2006"), now.TotalRuns())}
	}
	return out
}

// digestSame reports whether now holds the same runs, figures and claim
// readings as last.
func digestSame(last, now DigestState) bool {
	if !maps.Equal(last.counts(), now.counts()) || len(last.Figures) != len(now.Figures) {
		return false
	}
	for k, f := range now.Figures {
		if was, ok := last.Figures[k]; !ok || was.Value != f.Value {
			return false
		}
	}
	for id, c := range now.Claims {
		if was, ok := last.Claims[id]; ok && (was.Verdict != c.Verdict || was.Measured != c.Measured) {
			return false
		}
	}
	return true
}

// newRunsLine says how many runs each session and engine gained (an
// import only adds runs).
func newRunsLine(before, now map[RunTag]int) string {
	counts := map[RunTag]int{}
	total := 0
	for tag, n := range now {
		if more := n - before[tag]; more > 0 {
			counts[tag] = more
			total += more
		}
	}
	if total == 0 {
		return ""
	}
	var parts []string
	for _, g := range sortedTags(counts) {
		parts = append(parts, fmt.Sprintf("%d %s (session %d)", counts[g], analytics.EngineName(g.Engine), g.Session))
	}
	return fmt.Sprintf("%d runs imported since the last digest: %s.", total, strings.Join(parts, ", "))
}

// countMissing is how many runs each session and engine lost, in all.
func countMissing(before, now map[RunTag]int) int {
	n := 0
	for tag, had := range before {
		n += max(0, had-now[tag])
	}
	return n
}

// sortedTags is the tags by session, then engine.
func sortedTags[V any](m map[RunTag]V) []RunTag {
	return slices.SortedFunc(maps.Keys(m), func(a, b RunTag) int {
		if a.Session != b.Session {
			return a.Session - b.Session
		}
		return strings.Compare(a.Engine, b.Engine)
	})
}

func digestPercentChange(from, to float64) string {
	if from == 0 {
		return "new"
	}
	p := (to - from) / from * 100
	return fmt.Sprintf("%+.1f%%", p)
}
