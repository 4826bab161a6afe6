package compose

import (
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// maxReasons bounds the knowledge entries one "why?" answer quotes.
const maxReasons = 4

// reason is one knowledge entry quoted to explain an answer; lead is the
// sentence of it that explains most directly (the headline quotes it).
type reason struct {
	id, title, text, lead string
}

// reasonPick names an entry that explains a situation. For a finding,
// point selects the one further point quoted (the point that starts with
// it); pointOnly quotes that point without the finding's statement, and
// leads makes it the sentence the headline quotes (otherwise the first
// sentence of the quote leads).
type reasonPick struct {
	id        string
	point     string
	pointOnly bool
	leads     bool
}

// explain answers a "why?" follow-up: the reasons behind the answer to the
// thread's previous question, quoted from the knowledge base with their
// ids, then that answer again — figures, conditions, filters and run IDs
// unchanged. An answer with nothing to explain (help, clarify, a
// definition, which already says why it matters) is returned as it is.
func (b *Composer) explain(p planner.Plan, a Answer) Answer {
	rows := a.Rows
	if len(rows) == 0 {
		rows = a.Nearest
	}
	// A claim's table carries its counter-measures too; the reasons are
	// for the series the question compared.
	if p.Intent == planner.IntentClaim && len(p.Slots.Engines) > 0 {
		var asked []Row
		for _, r := range rows {
			if slices.Contains(p.Slots.Engines, r.Engine) && (p.Slots.Pipeline == 0 || r.Pipeline == p.Slots.Pipeline) {
				asked = append(asked, r)
			}
		}
		if len(asked) > 0 {
			rows = asked
		}
	}
	var rs []reason
	if a.Claim != nil && a.Claim.WhyDiffer != "" {
		rs = append(rs, reason{id: a.Claim.ID, title: "Why the claim and the measurements differ", text: a.Claim.WhyDiffer, lead: leadSentence(a.Claim.WhyDiffer)})
		// Said once, as the first reason.
		a.Claim.WhyDiffer = ""
	}
	// The nearest rows of a no_data answer may differ in the workload; the
	// reasons are for the workload asked about.
	if p.Intent == planner.IntentNoData {
		rows = slices.DeleteFunc(slices.Clone(rows), func(r Row) bool {
			return p.Slots.Ratio != "" && r.Ratio != p.Slots.Ratio || p.Slots.ValueBytes != 0 && r.ValueBytes != p.Slots.ValueBytes
		})
	}
	switch a.Kind {
	case KindAnswer, KindClaim, KindNoData:
		for _, pk := range reasonPicks(p, rows, planMetric(p)) {
			if len(rs) >= maxReasons {
				break
			}
			if r, ok := b.quote(pk); ok && !slices.ContainsFunc(rs, func(x reason) bool { return x.id == r.id }) {
				rs = append(rs, r)
			}
		}
	}
	if len(rs) == 0 && a.Kind == KindDefinition && strings.HasPrefix(p.Slots.TermID, "term:") {
		// A definition already says why the term matters; the headline
		// leads with it.
		if t, ok := b.cfg.Knowledge.Term(p.Slots.TermID); ok && t.Why != "" {
			a.Headline = "Why " + t.Name + " matters, in short: " + capitalise(ensureStop(leadSentence(t.Why)))
		}
		return a
	}
	if len(rs) == 0 {
		return a
	}
	var lines []string
	for _, r := range rs {
		lines = append(lines, "**"+r.title+"** ("+r.id+"): "+r.text)
		if e, ok := lookupEntry(b.cfg.Knowledge, r.id); ok {
			addSourceEntry(&a.Sources, e)
		}
	}
	body := []string{
		"**The reasons, from the knowledge base:**\n" + bullets(lines),
		"_Each reason is quoted from the knowledge-base entry named beside it; nothing is added from general knowledge._",
	}
	if a.Headline != "" {
		body = append(body, "**The answer being explained:** "+a.Headline)
	}
	a.Headline = "Why, in short (" + rs[0].id + "): " + capitalise(ensureStop(withoutLabel(rs[0].lead)))
	a.Body = append(body, a.Body...)
	// A term quoted as a reason is not listed again under terms used.
	a.Terms = slices.DeleteFunc(a.Terms, func(t TermGist) bool {
		return slices.ContainsFunc(rs, func(r reason) bool { return r.id == t.ID })
	})
	return a
}

// reasonPicks chooses, most specific first, the entries that explain
// answers over rows read through metric: what limits each series (the
// single cluster client, Garnet's client, KeyDB's thread wall, the network
// with 1 KB values, the round trip without pipelining), then why the
// engines were run as they were.
func reasonPicks(p planner.Plan, rows []Row, metric string) []reasonPick {
	f := factsOf(rows)
	picks := noDataPicks(p)
	switch p.Intent {
	case planner.IntentMemory:
		picks = append(picks, reasonPick{id: "finding:memory-bytes-per-key", point: "Beyond the 100-byte value", leads: true})
	case planner.IntentFailover:
		picks = append(picks, reasonPick{id: "failover:sweep"})
	}
	if isSetupPlan(p) {
		// Why the rig looks as it does: an oversized separate client, the
		// same posture for every engine, references from the same boxes.
		picks = append(picks, reasonPick{id: "trap:client-bottleneck"}, reasonPick{id: "trap:asymmetric-config"},
			reasonPick{id: "rule:same-day-references"})
	}
	if f.has("garnet") {
		picks = append(picks, reasonPick{id: "finding:garnet-client-limited", point: "CPU"})
	}
	if len(f.sessions) > 1 {
		// Rows from both captures: why such a gap is only indicative.
		picks = append(picks, reasonPick{id: "caveat:cross-session"}, reasonPick{id: "rule:same-day-references"})
	}
	if f.has("keydb") {
		// Measured KeyDB rows are slow because KeyDB scales weakly; the wall
		// above 16 threads leads only when those core counts were asked for
		// (noDataPicks).
		picks = append(picks, reasonPick{id: "finding:keydb-wall", point: "Above 16 server threads"})
	}
	realistic := slices.Contains(f.modes, "cluster")
	switch {
	case realistic && isLatency(metric):
		picks = append(picks, reasonPick{id: "finding:latency-48c", point: "The realistic cluster's median", pointOnly: true, leads: true},
			reasonPick{id: "finding:cluster-saturation-story", point: "The cause", leads: true})
	case realistic:
		picks = append(picks, reasonPick{id: "finding:cluster-saturation-story", point: "The cause", leads: true})
	case slices.Contains(f.modes, "cluster-sat"):
		picks = append(picks, reasonPick{id: "finding:cluster-saturation-story", point: "The fix", leads: true})
	}
	if slices.Contains(f.valueBytes, 1024) {
		picks = append(picks, reasonPick{id: "finding:value-size-1kb"})
	}
	if p.Slots.Knob == "pipeline" {
		picks = append(picks, reasonPick{id: "term:pipelining", leads: true})
	}
	if p.Slots.Knob == "pipeline" || slices.Contains(f.pipelines, 1) {
		picks = append(picks, reasonPick{id: "finding:pipelining-effect", point: "At depth 1"})
	}
	if slices.Contains(f.ratios, "mget10") || slices.Contains(f.ratios, "mset10") {
		picks = append(picks, reasonPick{id: "finding:multi-key-crossslot"})
	}
	if (p.Intent == planner.IntentScaling || p.Crossover) && f.has("dragonfly") && (f.has("redis") || f.has("valkey")) {
		picks = append(picks, reasonPick{id: "finding:overtake-16c"})
	}
	if f.has("redis") && f.has("valkey") {
		picks = append(picks, reasonPick{id: "finding:valkey-tracks-redis"})
	}
	if isLatency(metric) && !realistic {
		picks = append(picks, reasonPick{id: "finding:latency-48c"})
	}
	if f.has("redis") || f.has("valkey") {
		picks = append(picks, reasonPick{id: "finding:redis-single-threaded-and-cluster"})
	}
	if f.has("garnet") || realistic {
		picks = append(picks, reasonPick{id: "term:client-limited"})
	}
	for _, e := range f.engines {
		picks = append(picks, reasonPick{id: "engine:" + e})
	}
	return picks
}

// noDataPicks are the entries that say why a part of a no_data plan was
// never measured, read from what the question asked for.
func noDataPicks(p planner.Plan) []reasonPick {
	if p.Intent != planner.IntentNoData {
		return nil
	}
	sl := p.Slots
	var picks []reasonPick
	for _, e := range sl.Engines {
		switch {
		case e == "keydb" && slices.ContainsFunc(sl.Cores, func(c int) bool { return c > 16 }):
			picks = append(picks, reasonPick{id: "finding:keydb-wall", point: "Above 16 server threads", pointOnly: true, leads: true})
		case (e == "redis" || e == "valkey") && slices.Contains(sl.Modes, "single"):
			picks = append(picks, reasonPick{id: "finding:redis-single-threaded-and-cluster"})
		case (e == "redis" || e == "valkey") && (sl.Ratio == "mget10" || sl.Ratio == "mset10"):
			picks = append(picks, reasonPick{id: "finding:multi-key-crossslot", point: "Redis and Valkey Cluster refuse", pointOnly: true, leads: true})
		}
	}
	return append(picks, reasonPick{id: "caveat:not-measured"})
}

// quote renders one picked entry as a reason, in the knowledge base's own
// words: a finding's statement (and the point picked), a term's
// definition and why it moves the numbers, an engine's gist and how it
// scales, or any other entry's first paragraph.
func (b *Composer) quote(pk reasonPick) (reason, bool) {
	e, ok := b.cfg.Knowledge.Entry(pk.id)
	if !ok {
		return reason{}, false
	}
	r := reason{id: e.ID, title: e.Title}
	switch {
	case strings.HasPrefix(pk.id, "finding:"):
		f, ok := b.cfg.Knowledge.Finding(pk.id)
		if !ok {
			return reason{}, false
		}
		var point string
		if pk.point != "" {
			for _, pt := range f.Points {
				if strings.HasPrefix(pt, pk.point) {
					point = pt
					break
				}
			}
		}
		switch {
		case pk.pointOnly && point != "":
			r.text = point
		case point != "":
			r.text = f.Statement + " " + point
		default:
			r.text = f.Statement
		}
		r.lead = leadSentence(r.text)
		if point != "" && pk.leads {
			r.lead = leadSentence(point)
		}
	case strings.HasPrefix(pk.id, "term:"):
		t, ok := b.cfg.Knowledge.Term(pk.id)
		if !ok {
			return reason{}, false
		}
		r.text = joinSentences(ensureStop(t.Definition), ensureStop(t.Why), labelled("In this benchmark", t.ValueHere))
		// What the term does to the numbers explains more than what it is.
		if pk.leads && t.Why != "" {
			r.lead = leadSentence(t.Why)
		}
	case strings.HasPrefix(pk.id, "engine:"):
		r.text = e.Gist
		if sc := markdownField(e.Text, "Scaling"); sc != "" {
			r.text += " Scaling: " + ensureStop(sc)
		}
	default:
		para, _, _ := strings.Cut(e.Text, "\n\n")
		r.text = para
	}
	r.text = strings.TrimSpace(r.text)
	if r.lead == "" {
		r.lead = leadSentence(r.text)
	}
	return r, r.text != ""
}

// withoutLabel drops a short "The cause: " label from the front of a
// quoted point; the headline's "Why, in short" already frames it.
func withoutLabel(s string) string {
	label, rest, ok := strings.Cut(s, ": ")
	if !ok || strings.ContainsAny(label, "[(0123456789") || len(strings.Fields(label)) > 3 {
		return s
	}
	return rest
}

// leadSentence is the first sentence of s (up to a full stop followed by a
// space and a capital letter), without a trailing list of figures by core
// count ("; across cores: 4c … · 8c …"), which belongs in the reasons, not
// in a headline.
func leadSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
			s = s[:i+1]
			break
		}
	}
	if list := strings.Index(s, " · "); list > 0 {
		if cut := strings.LastIndex(s[:list], "; "); cut > 0 {
			s = s[:cut] + "."
		}
	}
	return s
}

// markdownField returns the text of a "**Label:** text" line.
func markdownField(text, label string) string {
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(l, "**"+label+":** "); ok {
			return v
		}
	}
	return ""
}

// addSourceEntry cites a knowledge entry once.
func addSourceEntry(s *Sources, e SourceEntry) {
	if slices.ContainsFunc(s.Entries, func(x SourceEntry) bool { return x.ID == e.ID }) {
		return
	}
	s.Entries = append(s.Entries, e)
}
