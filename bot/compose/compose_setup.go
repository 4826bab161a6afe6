package compose

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// setupTopics are the entries a setup answer draws on, in the order the
// sections appear after the one the question is about.
var setupTopics = []string{"setup:software", "setup:hardware", "setup:workload", "setup:engine-config", "scope:coverage"}

// isSetupPlan reports whether a help or provenance plan asks what was
// tested and on what (the planner names the entry the question is mainly
// about).
func isSetupPlan(p planner.Plan) bool {
	return (p.Intent == planner.IntentHelp || p.Intent == planner.IntentProvenance) && slices.Contains(setupTopics, p.Slots.TermID)
}

// setupPart is what one setup entry contributes: the headline when the
// question is about it, the detail that follows that headline, and the
// short line shown when the question is about something else.
type setupPart struct {
	headline, detail, brief string
}

// composeSetup answers "what versions were tested", "what hardware was
// used", "how was the benchmark run" from the knowledge base alone: the
// versions of the engines, the server and each session's client, how the
// load was driven, the engines' configuration and the grid measured. The
// entry the question is about gives the headline and its detail; the
// others follow in one line each. Every fact names the entry it comes
// from, and every entry is cited.
func (b *Composer) composeSetup(p planner.Plan) Answer {
	k := b.cfg.Knowledge
	s := newSourcer(k)
	parts := map[string]setupPart{}
	if part, ok := b.setupVersions(s); ok {
		parts["setup:software"] = part
	}
	if part, ok := b.setupHardware(s); ok {
		parts["setup:hardware"] = part
	}
	if n, ok := k.Note("setup:workload"); ok {
		part := setupPart{
			headline: loadGenerator(k) + strings.TrimSuffix(n.Summary, ".") + " (setup:workload).",
			brief:    "**How the load was driven** (setup:workload): " + n.Summary,
		}
		if len(n.Points) > 0 {
			part.detail = "**Preload and warm-up** (setup:workload): " + n.Points[0]
		}
		parts["setup:workload"] = part
	}
	if n, ok := k.Note("setup:engine-config"); ok {
		parts["setup:engine-config"] = setupPart{
			headline: strings.TrimSuffix(n.Summary, ".") + " (setup:engine-config).",
			detail:   bullets(n.Points),
			brief:    "**Engine configuration** (setup:engine-config): " + n.Summary,
		}
	}
	if n, ok := k.Note("scope:coverage"); ok {
		parts["scope:coverage"] = setupPart{
			headline: joinSentences(b.sessionCounts(s), strings.TrimSuffix(firstSentenceOf(n.Summary), ".")+" (scope:coverage)."),
			detail:   bullets(n.Points),
			brief:    "**What was measured** (scope:coverage): " + strings.Join(n.Points[:min(len(n.Points), 1)], " "),
		}
	}
	if len(parts) == 0 {
		return composeHelp(p)
	}
	focus := p.Slots.TermID
	if _, ok := parts[focus]; !ok {
		focus = ""
	}
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	if focus != "" {
		a.Headline = parts[focus].headline
		if d := parts[focus].detail; d != "" {
			a.Body = append(a.Body, d)
		}
		s.entry(focus)
	} else {
		a.Headline = "What was tested and on what, from the benchmark's setup notes:"
	}
	for _, id := range setupTopics {
		part, ok := parts[id]
		if !ok || id == focus || id == "scope:coverage" && focus != "setup:workload" {
			continue
		}
		a.Body = append(a.Body, part.brief)
		s.entry(id)
	}
	a.Caveats = append(a.Caveats, "Session 2 (KeyDB, Garnet) ran on a different server machine of the same type, on a different date and with a different client box than session 1 (Dragonfly, Redis, Valkey), so comparisons across the two sessions are indicative only.")
	s.entry("caveat:cross-session")
	a.PlainWords = "every throughput and latency figure comes from the same type of large Intel server, with a separate machine generating the load; each engine ran in a container pinned to its cores, with persistence, replicas and TLS off, for short fixed-length runs (the Sentinel failover lab ran separately, in Docker on a laptop)."
	a.PlainWords = capitalise(a.PlainWords)
	a.Body = append(a.Body, "_Everything above is from the knowledge base's setup entries cited below; nothing is added from general knowledge._")
	a.Sources = s.sources()
	return a
}

// setupVersions is the engines' tested versions by session (engine and
// session entries) and the software entry's images and operating system.
func (b *Composer) setupVersions(s *sourcer) (setupPart, bool) {
	engines := b.cfg.Knowledge.Engines()
	if len(engines) == 0 {
		return setupPart{}, false
	}
	slices.SortStableFunc(engines, func(x, y knowledge.Engine) int {
		return cmp.Or(cmp.Compare(x.Session, y.Session), cmp.Compare(indexOr(analytics.Engines, x.Key), indexOr(analytics.Engines, y.Key)))
	})
	bySession := map[int][]string{}
	var sessions []int
	for _, e := range engines {
		if _, ok := bySession[e.Session]; !ok {
			sessions = append(sessions, e.Session)
		}
		bySession[e.Session] = append(bySession[e.Session], e.Name+" "+e.Version)
		s.entry(e.ID)
	}
	var list []string
	for i, n := range sessions {
		id := "session:" + strconv.Itoa(n)
		verb := " in session "
		if i == 0 {
			verb = " were tested in session "
		}
		item := joinAnd(bySession[n]) + verb + strconv.Itoa(n)
		if s.entry(id) {
			item += " (" + id + ")"
		}
		list = append(list, item)
	}
	part := setupPart{headline: strings.Join(list, "; ") + "."}
	part.brief = "**Versions** (engine entries): " + part.headline
	if n, ok := b.cfg.Knowledge.Note("setup:software"); ok {
		part.detail = "**Images and operating system** (setup:software): " + ensureStop(n.Summary)
		for _, pt := range n.Points {
			if strings.Contains(pt, "kernel") {
				part.detail += " " + ensureStop(pt)
			}
		}
		s.entry(n.ID)
	}
	return part, true
}

// setupHardware is the server (setup:hardware) and each session's client
// machine (session:N).
func (b *Composer) setupHardware(s *sourcer) (setupPart, bool) {
	n, ok := b.cfg.Knowledge.Note("setup:hardware")
	if !ok {
		return setupPart{}, false
	}
	var short, why, ids []string
	for _, num := range []int{1, 2} {
		ses, ok := b.cfg.Knowledge.Session(num)
		if !ok || ses.Client == "" {
			continue
		}
		s.entry(ses.ID)
		ids = append(ids, ses.ID)
		c, reason, _ := strings.Cut(ses.Client, ", because ")
		short = append(short, c+" in session "+strconv.Itoa(num))
		if reason != "" {
			why = append(why, "session "+strconv.Itoa(num)+" used the "+strings.Fields(c)[0]+" client because "+reason)
		}
	}
	server := strings.TrimSuffix(n.Summary, ".")
	clients := ""
	if len(short) > 0 {
		clients = " The load came from a separate client machine: " + joinAnd(short) + " (" + strings.Join(ids, ", ") + ")."
	}
	part := setupPart{headline: server + " (setup:hardware)." + clients, brief: "**Hardware** (setup:hardware): " + server + "." + clients}
	var detail []string
	for _, w := range why {
		detail = append(detail, capitalise(w)+" ("+ids[len(ids)-1]+").")
	}
	for _, pt := range n.Points {
		if strings.Contains(pt, "availability zone") {
			detail = append(detail, "Network: "+strings.TrimSuffix(pt, ".")+" (setup:hardware).")
		}
	}
	if len(detail) > 0 {
		part.detail = "**Clients and network:** " + strings.Join(detail, " ")
	}
	return part, true
}

// memtierRE finds the load generator and its version in the software entry.
// Compiled on first use: a process that never needs it does not pay for it at start.
var memtierRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`memtier_benchmark [0-9][0-9.]*[0-9]`) })

// loadGenerator names the load generator and its version from the
// software entry ("The load generator was memtier_benchmark 2.5.1
// (setup:software). "), or nothing when the entry does not name it.
func loadGenerator(k Knowledge) string {
	n, ok := k.Note("setup:software")
	if !ok {
		return ""
	}
	m := memtierRE().FindString(n.Summary)
	if m == "" {
		return ""
	}
	return "The load generator was " + m + " (setup:software). "
}

// sessionCounts says how many runs and cells each session holds, as the
// session entries count them from the store.
func (b *Composer) sessionCounts(s *sourcer) string {
	var parts []string
	for _, num := range []int{1, 2} {
		ses, ok := b.cfg.Knowledge.Session(num)
		if !ok || ses.Runs == 0 {
			continue
		}
		s.entry(ses.ID)
		parts = append(parts, fmt.Sprintf("session %d holds %d runs in %d cells (%s)", num, ses.Runs, ses.Cells, ses.ID))
	}
	if len(parts) == 0 {
		return ""
	}
	return capitalise(strings.Join(parts, "; ")) + "."
}

// joinAnd joins items as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// firstSentenceOf is the text up to its first full stop followed by a space.
func firstSentenceOf(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}
