package planner

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// measuredPlan plans a question answered from runs: lookup, compare,
// scaling, effect, and the measured side of a claim.
func (p *Planner) measuredPlan(w want) Plan {
	metricDefaulted := w.metric == ""
	if metricDefaulted {
		w.metric = defaultMetric
		if w.intent == IntentClaim && w.claimTopic == "latency" {
			w.metric = "p99_ms"
		}
	}
	if w.intent == IntentLookup && versionsCompared(w.versions) {
		w.intent = IntentCompare // "Valkey 9 vs Valkey 8": one engine, two series
	}
	r := p.resolve(w)
	cov := r.cov
	pl := Plan{Intent: w.intent, Question: w.question, Source: "rules", Explain: w.explain, Multiple: w.multiple, Crossover: w.crossover}
	pl.Slots = slotsOf(w, r)
	pl.Defaulted = r.defaulted
	if metricDefaulted {
		pl.Defaulted = append(pl.Defaulted, slotMetric)
	}
	pl.Defaults = defaultWords(r, cov)
	if len(pl.Defaults) > 0 && !slices.Contains(pl.Defaulted, slotSession) && w.session == 0 {
		pl.Defaulted = append(pl.Defaulted, slotSession)
	}
	pl.Defaulted = ordered(pl.Defaulted)
	pl.Inherited = ordered(w.inherited)
	pl.Notes = append(pl.Notes, w.notes...)
	// onlyGap is the no_data plan of a request whose cells exist but miss
	// what was asked of them (a version, a keyspace, a statistic): the
	// cells themselves stand as the nearest rows.
	onlyGap := func(notes []string) Plan {
		pl.Requested, pl.Intent = w.intent, IntentNoData
		pl.Missing = r.missing
		pl.Nearest = p.exactCells(r)
		pl.Notes = append(pl.Notes, notes...)
		pl.Interpretation = interpretNoData(w, r, pl)
		return pl
	}
	if w.intent == IntentClaim {
		// A claim names the versions it was made about; the check says
		// when they are not the ones measured.
		pl.Notes = append(pl.Notes, p.versionNotes(w.versions)...)
	} else {
		if missing := p.keepAskedVersions(&r, w.versions); len(missing) > 0 {
			// "Redis 9 at 16 cores": the answer is never another
			// version's figures; the nearest rows are the measured one's.
			r.missing = append(missing, r.missing...)
			return onlyGap(nil)
		}
	}
	if w.keys != 0 && w.keys != runKeys {
		// Every run used the same keyspace: the cells exist, the key count
		// does not.
		r.missing = append([]string{fmt.Sprintf("a keyspace of %s keys was never measured — every run used %s keys (the fully driven ceiling: 100,000 per shard)", thousands(w.keys), thousands(runKeys))}, r.missing...)
		if len(r.missing) == 1 {
			return onlyGap(r.notes)
		}
	}
	if what := unrecordedMetric(w.metric); what != "" {
		// The series exist; the statistic does not: refuse it by name and
		// show the recorded percentiles of the same cells.
		r.missing = append([]string{unrecordedMissing(w.metric)}, r.missing...)
		if len(r.missing) == 1 {
			return onlyGap(r.notes)
		}
	}
	if len(r.missing) > 0 {
		pl.Requested = w.intent
		pl.Intent = IntentNoData
		pl.Missing = r.missing
		pl.Nearest = p.nearest(r)
		pl.Interpretation = interpretNoData(w, r, pl)
		return pl
	}
	pl.Notes = append(pl.Notes, r.notes...)
	if note := crossSession(r.ok); note != "" {
		pl.Notes = append(pl.Notes, note)
	}
	pl.Queries = queries(r, w.metric, cov)
	if w.intent == IntentCompare || w.intent == IntentClaim {
		pl.Order = OrderDesc
		if lowerIsBetter(w.metric) != (w.worst && w.intent == IntentCompare) {
			pl.Order = OrderAsc
		}
	}
	pl.Interpretation = interpret(w, r, pl)
	return pl
}

// ordered sorts slot names in Slots' field order and drops repeats.
func ordered(slots []string) []string {
	rank := func(s string) int {
		return slices.Index([]string{slotEngines, slotModes, slotCores, slotRatio, slotValue, slotPipeline, slotSession, slotMetric, slotKnob, slotDownAfter}, s)
	}
	out := slices.Clone(slots)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	return slices.Compact(out)
}

// slotsOf fills the plan's slots: the request merged with the defaults.
func slotsOf(w want, r resolved) Slots {
	s := Slots{
		Cores:      slices.Clone(r.cores),
		CoresRange: w.coresRange,
		Ratio:      r.ratio,
		ValueBytes: r.value,
		Pipeline:   r.pipeline,
		Session:    w.session,
		Metric:     w.metric,
		Knob:       w.knob,
		TermID:     w.termID,
		ClaimID:    w.claimID,
	}
	if w.knob == slotRatio {
		s.Ratio = ""
	}
	if w.knob == slotValue {
		s.ValueBytes = 0
	}
	if w.knob == slotPipeline {
		s.Pipeline = 0
	}
	if len(w.engines) > 0 {
		s.Engines = slices.Clone(w.engines)
	} else {
		for _, x := range r.ok {
			s.Engines = appendUnique(s.Engines, x.engine())
		}
		slices.SortStableFunc(s.Engines, func(a, b string) int { return cmp.Compare(engineRank(a), engineRank(b)) })
	}
	if len(w.modes) > 0 {
		s.Modes = slices.Clone(w.modes)
	}
	for _, v := range w.versions {
		s.Versions = append(s.Versions, engineName(v.engine)+" "+v.number)
	}
	if w.session == 0 && len(r.ok) > 0 {
		sessions := []int{}
		for _, x := range r.ok {
			sessions = appendUnique(sessions, x.cov.Session)
		}
		if len(sessions) == 1 {
			s.Session = sessions[0]
		}
	}
	return s
}

// defaultWords states each default applied, in words.
func defaultWords(r resolved, cov []analytics.SeriesCoverage) []string {
	var out []string
	claimed := func(slot, s string) string {
		if slices.Contains(r.fromClaim, slot) {
			return s + " (where the claim's measured counter-figures are)"
		}
		return s
	}
	if slices.Contains(r.defaulted, slotCores) && len(r.cores) == 1 && slices.Contains(r.fromClaim, slotCores) {
		out = append(out, claimed(slotCores, fmt.Sprintf("%d cores", r.cores[0])))
	} else if slices.Contains(r.defaulted, slotCores) && len(r.cores) == 1 {
		s := fmt.Sprintf("%d cores", r.cores[0])
		if r.cores[0] != defaultCores {
			var short []string
			for _, e := range r.engines {
				if cs := allValues(covOf(cov, e), func(c analytics.SeriesCoverage) []int { return c.Cores }); len(cs) > 0 && !slices.Contains(cs, defaultCores) {
					short = append(short, engineName(e))
				}
			}
			if len(short) > 0 {
				s += fmt.Sprintf(" (the most %s was run with)", joinAnd(short))
			}
		}
		out = append(out, s)
	}
	if slices.Contains(r.defaulted, slotRatio) {
		out = append(out, claimed(slotRatio, ratioPhrase(r.ratio)))
	}
	if slices.Contains(r.defaulted, slotValue) {
		out = append(out, claimed(slotValue, valuePhrase(r.value)))
	}
	if slices.Contains(r.defaulted, slotPipeline) {
		out = append(out, claimed(slotPipeline, "pipeline "+strconv.Itoa(r.pipeline)))
	}
	if r.w.session == 0 {
		if s := sessionWords(r); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func covOf(cov []analytics.SeriesCoverage, engine string) []analytics.SeriesCoverage {
	var out []analytics.SeriesCoverage
	for _, c := range cov {
		if c.Engine == engine {
			out = append(out, c)
		}
	}
	return out
}

// sessionWords names the session each engine's runs come from.
func sessionWords(r resolved) string {
	bySession := map[int][]string{}
	var sessions []int
	ss := r.ok
	for _, s := range ss {
		if !slices.Contains(bySession[s.cov.Session], engineName(s.engine())) {
			bySession[s.cov.Session] = append(bySession[s.cov.Session], engineName(s.engine()))
		}
		sessions = appendUnique(sessions, s.cov.Session)
	}
	slices.Sort(sessions)
	switch len(sessions) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("session %d (where %s %s measured)", sessions[0], joinAnd(bySession[sessions[0]]), wasWere(len(bySession[sessions[0]])))
	}
	var parts []string
	for _, n := range sessions {
		parts = append(parts, fmt.Sprintf("session %d for %s", n, joinAnd(bySession[n])))
	}
	return "each engine's own session: " + strings.Join(parts, ", ")
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// crossSession is the note a comparison across sessions must carry.
func crossSession(ok []series) string {
	var sessions []int
	for _, s := range ok {
		sessions = appendUnique(sessions, s.cov.Session)
	}
	if len(sessions) < 2 {
		return ""
	}
	return CrossSessionNote
}

// CrossSessionNote is the note a plan comparing the two capture sessions
// carries (Plan.Notes); answers show it once.
const CrossSessionNote = "This compares session 1 (Dragonfly, Redis, Valkey) with session 2 (KeyDB, Garnet): same server type, but another machine, date and client box."

// nearest finds the measured cells closest to what a no_data plan asked,
// ranking first by how many of the knobs the user set differ, then by how
// far (defaults count half), never interpolating.
func (p *Planner) nearest(r resolved) []analytics.Neighbor {
	type cand struct {
		n    analytics.Neighbor
		hard int
		dist float64
		ord  int
	}
	seen := map[analytics.CellKey]bool{}
	var cands []cand
	cov := r.cov
	asked := map[analytics.CellKey]bool{}
	for _, k := range r.nearestFor {
		k = fillKey(k, r)
		if asked[k] {
			continue
		}
		asked[k] = true
		q := k
		if q.Mode != "" && !slices.Contains(modesOf(seriesOf(cov, q.Engine, 0)), q.Mode) {
			q.Mode = ""
		}
		if len(seriesOf(cov, q.Engine, q.Session)) == 0 {
			q.Session = 0
		}
		if len(seriesOf(cov, q.Engine, 0)) == 0 {
			q.Engine = ""
		}
		for _, n := range p.cov.Nearest(q, 24) {
			if seen[n.CellKey] {
				continue
			}
			seen[n.CellKey] = true
			d := cellDiffers(k, n.CellKey)
			hard, dist := 0, 0.0
			for _, knob := range d {
				w := knobWeight(knob, k, n.CellKey)
				if r.w.givenKnob(knob) {
					hard++
				} else {
					w /= 2
				}
				dist += w
			}
			n.Differs = d
			cands = append(cands, cand{n: n, hard: hard, dist: dist, ord: len(cands)})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.hard, b.hard), cmp.Compare(a.dist, b.dist), cmp.Compare(a.ord, b.ord))
	})
	// Cells that must be shown whatever their distance.
	var also []analytics.Neighbor
	keys := slices.Clone(r.alsoNearest)
	if len(cands) > 0 {
		best := make([]analytics.CellKey, 0, 2)
		for _, c := range cands {
			if c.hard == cands[0].hard && !slices.ContainsFunc(best, func(k analytics.CellKey) bool { return k.Engine == c.n.Engine && k.Mode == c.n.Mode }) {
				best = append(best, c.n.CellKey)
			}
		}
		// The other depths' twins are shown whatever the ranking, so they
		// leave the ranked candidates.
		for _, k := range otherDepths(r, best) {
			i := slices.IndexFunc(cands, func(c cand) bool { return c.n.CellKey == k })
			if i < 0 {
				for _, n := range p.cov.Nearest(k, 1) {
					if n.CellKey == k && !seen[k] {
						seen[k] = true
						n.Differs = cellDiffers(fillKey(r.nearestFor[0], r), k)
						also = append(also, n)
					}
				}
				continue
			}
			also = append(also, cands[i].n)
			cands = slices.Delete(cands, i, i+1)
		}
	}
	for _, k := range r.halfNearest {
		keys = append(keys, k)
		// The measured side again at the core count the missing side's
		// nearest row has, so the two can be read side by side.
		if len(cands) > 0 && cands[0].n.Cores != k.Cores {
			k.Cores = cands[0].n.Cores
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		for _, n := range p.cov.Nearest(k, 1) {
			if seen[n.CellKey] || n.Engine != k.Engine || n.Mode != k.Mode {
				continue
			}
			seen[n.CellKey] = true
			n.Differs = cellDiffers(k, n.CellKey)
			also = append(also, n)
		}
	}
	room := max(1, p.opts.NearestCells-len(also))
	// The best cell of each series first (at the closest level of
	// difference), so a request spanning several series does not list four
	// variants of one; then the rest in order.
	var picked []int
	series := map[[2]string]bool{}
	for i, c := range cands {
		if len(picked) == room || len(cands) > 0 && c.hard > cands[0].hard {
			break
		}
		key := [2]string{c.n.Engine, c.n.Mode}
		if !series[key] {
			series[key] = true
			picked = append(picked, i)
		}
	}
	for i := range cands {
		if len(picked) == room {
			break
		}
		if !slices.Contains(picked, i) {
			picked = append(picked, i)
		}
	}
	slices.Sort(picked)
	out := make([]analytics.Neighbor, 0, len(picked)+len(also))
	for _, i := range picked {
		out = append(out, cands[i].n)
	}
	return append(out, also...)
}

// otherDepths are, for a depth that no run used, each series' best cell at
// the measured depths it does not have already: the nearest for another
// depth is pipeline 16 for throughput and pipeline 1 for latency, so both
// are shown (FACTS §1.2).
func otherDepths(r resolved, best []analytics.CellKey) []analytics.CellKey {
	asked := 0
	if len(r.nearestFor) > 0 {
		asked = fillKey(r.nearestFor[0], r).Pipeline
	}
	measured := allValues(r.cov, func(c analytics.SeriesCoverage) []int { return c.Pipelines })
	if asked == 0 || !r.w.given(slotPipeline) || slices.Contains(measured, asked) {
		return nil
	}
	var out []analytics.CellKey
	for _, k := range best {
		for _, d := range measured {
			if d != k.Pipeline {
				twin := k
				twin.Pipeline = d
				out = append(out, twin)
			}
		}
	}
	return out
}

// ratioDistance is how far apart two workloads are: the difference in the
// share of reads, plus a step when one is multi-key and the other is not
// (write-heavy is nearer 1:1 than 1:10; GET-only is nearest 1:10).
func ratioDistance(a, b string) float64 {
	sa, ma := readShare(a)
	sb, mb := readShare(b)
	d := math.Abs(sa - sb)
	if ma != mb {
		d += 0.5
	}
	return 0.25 + d
}

// readShare is a workload's share of reads and whether it is multi-key.
func readShare(r string) (float64, bool) {
	switch r {
	case "mget10":
		return 1, true
	case "mset10":
		return 0, true
	}
	set, get, ok := strings.Cut(r, ":")
	if !ok {
		return 0.5, false
	}
	s, err1 := strconv.Atoi(set)
	g, err2 := strconv.Atoi(get)
	if err1 != nil || err2 != nil || s+g == 0 {
		return 0.5, false
	}
	return float64(g) / float64(s+g), false
}

// givenKnob reports whether the user set a knob (Neighbor.Differs names).
func (w want) givenKnob(knob string) bool {
	switch knob {
	case analytics.KnobEngine:
		return len(w.engines) > 0
	case analytics.KnobMode:
		return len(w.modes) > 0
	case analytics.KnobValueBytes:
		return w.given(slotValue)
	}
	return w.given(knob)
}

// fillKey completes a nearest-search key with the request's knobs.
func fillKey(k analytics.CellKey, r resolved) analytics.CellKey {
	full := requestKey("", "", r)
	if k.Session == 0 {
		k.Session = full.Session
	}
	if k.Cores == 0 {
		k.Cores = full.Cores
	}
	if k.Ratio == "" {
		k.Ratio = full.Ratio
	}
	if k.ValueBytes == 0 {
		k.ValueBytes = full.ValueBytes
	}
	if k.Pipeline == 0 {
		k.Pipeline = full.Pipeline
	}
	return k
}

// cellDiffers names the knobs in which a measured cell differs from the
// request (zero request fields match anything).
func cellDiffers(k, m analytics.CellKey) []string {
	var d []string
	if k.Session != 0 && k.Session != m.Session {
		d = append(d, analytics.KnobSession)
	}
	if k.Engine != "" && k.Engine != m.Engine {
		d = append(d, analytics.KnobEngine)
	}
	if k.Mode != "" && k.Mode != m.Mode {
		d = append(d, analytics.KnobMode)
	}
	if k.Cores != 0 && k.Cores != m.Cores {
		d = append(d, analytics.KnobCores)
	}
	if k.Ratio != "" && k.Ratio != m.Ratio {
		d = append(d, analytics.KnobRatio)
	}
	if k.ValueBytes != 0 && k.ValueBytes != m.ValueBytes {
		d = append(d, analytics.KnobValueBytes)
	}
	if k.Pipeline != 0 && k.Pipeline != m.Pipeline {
		d = append(d, analytics.KnobPipeline)
	}
	return d
}

// knobWeight is how far one differing knob moves a cell: another engine is
// far; cores count per doubling, pipeline depth half that, value size a
// quarter.
func knobWeight(knob string, k, m analytics.CellKey) float64 {
	doublings := func(a, b int) float64 {
		if a <= 0 || b <= 0 {
			return 1
		}
		return math.Abs(math.Log2(float64(a) / float64(b)))
	}
	switch knob {
	case analytics.KnobEngine:
		return 10
	case analytics.KnobSession, analytics.KnobMode:
		return 1
	case analytics.KnobRatio:
		return ratioDistance(k.Ratio, m.Ratio)
	case analytics.KnobCores:
		return doublings(m.Cores, k.Cores)
	case analytics.KnobPipeline:
		return 0.5 * doublings(m.Pipeline, k.Pipeline)
	case analytics.KnobValueBytes:
		return 0.25 * doublings(m.ValueBytes, k.ValueBytes)
	}
	return 1
}
