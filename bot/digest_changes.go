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
type DigestState struct {
	Fingerprint string                `json:"fingerprint"`
	PostedAt    time.Time             `json:"posted_at"`
	Runs        map[string]RunTag     `json:"runs"`    // run ID → session and engine
	Figures     map[string]Figure     `json:"figures"` // headline numbers by key
	Claims      map[string]ClaimState `json:"claims"`  // claim id → what the data said
}

// RunTag is the part of a run the "what changed" section names.
type RunTag struct {
	Session int    `json:"session"`
	Engine  string `json:"engine"`
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
	if line := newRunsLine(last.Runs, now.Runs); line != "" {
		out = append(out, line)
	}
	if removed := countMissing(last.Runs, now.Runs); removed > 0 {
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
			last.PostedAt.UTC().Format("2 Jan 2006"), len(now.Runs))}
	}
	return out
}

// digestSame reports whether now holds the same runs, figures and claim
// readings as last.
func digestSame(last, now DigestState) bool {
	if len(last.Runs) != len(now.Runs) || countMissing(last.Runs, now.Runs) > 0 || len(last.Figures) != len(now.Figures) {
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

func newRunsLine(before, now map[string]RunTag) string {
	type group struct {
		session int
		engine  string
	}
	counts := map[group]int{}
	total := 0
	for id, tag := range now {
		if _, ok := before[id]; !ok {
			counts[group{tag.Session, tag.Engine}]++
			total++
		}
	}
	if total == 0 {
		return ""
	}
	groups := slices.SortedFunc(maps.Keys(counts), func(a, b group) int {
		if a.session != b.session {
			return a.session - b.session
		}
		return strings.Compare(a.engine, b.engine)
	})
	var parts []string
	for _, g := range groups {
		parts = append(parts, fmt.Sprintf("%d %s (session %d)", counts[g], analytics.EngineName(g.engine), g.session))
	}
	return fmt.Sprintf("%d runs imported since the last digest: %s.", total, strings.Join(parts, ", "))
}

func countMissing(before, now map[string]RunTag) int {
	n := 0
	for id := range before {
		if _, ok := now[id]; !ok {
			n++
		}
	}
	return n
}

func digestPercentChange(from, to float64) string {
	if from == 0 {
		return "new"
	}
	p := (to - from) / from * 100
	return fmt.Sprintf("%+.1f%%", p)
}
