package compose

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// composeMemory answers bytes-per-key questions from the measured memory
// table: measured rows, quoted figures with their label, and engines never
// measured with the reason.
func (b *Composer) composeMemory(p planner.Plan) (Answer, error) {
	t := b.cfg.Knowledge.MemoryTable()
	s := newSourcer(b.cfg.Knowledge)
	s.entry(t.ID)
	want := p.Slots.Engines
	wanted := func(engine string) bool { return len(want) == 0 || slices.Contains(want, engine) }

	var measured, quoted []knowledge.MemoryRow
	for _, r := range t.Rows {
		if wanted(r.Engine) {
			measured = append(measured, r)
		}
	}
	for _, r := range t.Quoted {
		if wanted(r.Engine) {
			quoted = append(quoted, r)
		}
	}
	var missing []knowledge.NotMeasured
	for _, n := range t.NotMeasured {
		if wanted(n.Engine) {
			missing = append(missing, n)
		}
	}
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	method := fmt.Sprintf("%s keys of %s values loaded into each engine; %s.", formatExact(float64(t.Keys)),
		formatValueBytes(t.ValueBytes), strings.TrimSuffix(t.Method, "."))
	if len(measured) == 0 && len(quoted) == 0 {
		a.Kind = KindNoData
		var why []string
		for _, n := range missing {
			why = append(why, analytics.EngineName(n.Engine)+": "+ensureStop(n.Reason))
		}
		a.Headline = "Bytes per key were never measured for " + enginesWords(want) + "."
		if len(why) > 0 {
			a.Body = append(a.Body, bullets(why))
		}
		a.Body = append(a.Body, "The memory table covers "+memoryEngines(t)+"; ask for those instead. Nothing is estimated for the others.")
		s.entry("caveat:no-memory")
		a.Sources = s.sources()
		return a, nil
	}

	a.Headline = "Memory per key (bytes, measured): " + memoryFigures(measured) + "."
	if len(missing) > 0 && len(want) > 0 {
		// "dragonfly and garnet": an engine asked for without a figure is
		// said in line 1, not only among the caveats.
		var none []string
		for _, n := range missing {
			none = append(none, n.Engine)
		}
		a.Headline += " Never measured for " + enginesWords(none) + "."
	}
	if p.Position > 0 || p.Limit > 0 {
		a.Headline = memoryPlace(measured, p.Order, p.Position, p.Limit)
	}
	if p.Premise != nil {
		if h, ok := memoryVerdict(measured, *p.Premise); ok {
			a.Headline = h
		} else if len(quoted) > 0 {
			a.Headline = "Neither yes nor no from measurements: " + enginesWords(quotedEngines(quoted)) +
				" has only a quoted figure, not a measured one (below, with its label). Measured: " + memoryFigures(measured) + "."
		}
	}
	if len(measured) == 0 {
		a.Headline = "No measured bytes-per-key figure exists for " + enginesWords(want) + "; only a quoted one (below, with its label)."
	}
	a.Body = append(a.Body, p.Notes...)
	a.Body = append(a.Body, "Method: "+method)
	tbl := &Table{Columns: []string{"Engine", "bytes per key", "used_memory (bytes)", "keys", "provenance"}}
	for _, r := range measured {
		tbl.Rows = append(tbl.Rows, []string{analytics.EngineName(r.Engine), formatExact(r.BytesPerKey), formatExact(float64(r.UsedMemory)), formatExact(float64(r.Keys)), "measured (session " + strconv.Itoa(r.Session) + ")"})
	}
	for _, r := range quoted {
		tbl.Rows = append(tbl.Rows, []string{analytics.EngineName(r.Engine), formatExact(r.BytesPerKey), "—", "—", r.Label})
	}
	a.Table = tbl
	// The multiples the data gives, from the smallest measured figure.
	if len(measured) > 1 {
		sorted := slices.Clone(measured)
		slices.SortFunc(sorted, func(x, y knowledge.MemoryRow) int { return cmp.Compare(x.BytesPerKey, y.BytesPerKey) })
		lean := sorted[0]
		var cmps []string
		for _, r := range sorted[1:] {
			cmps = append(cmps, fmt.Sprintf("%s needs %s more per key than %s (%s uses %s less)", analytics.EngineName(r.Engine),
				pct1(r.BytesPerKey/lean.BytesPerKey-1), analytics.EngineName(lean.Engine), analytics.EngineName(lean.Engine), pct1(1-lean.BytesPerKey/r.BytesPerKey)))
		}
		a.Body = append(a.Body, capitalise(strings.Join(cmps, "; "))+".")
		a.PlainWords = fmt.Sprintf("storing the same small keys, %s used the least memory, but the gap is a matter of a few bytes per key, not a different league.", analytics.EngineName(lean.Engine))
	} else if len(measured) == 1 {
		a.PlainWords = fmt.Sprintf("each small key stored in %s cost about %s bytes of memory including its value.", analytics.EngineName(measured[0].Engine), formatExact(measured[0].BytesPerKey))
	}
	for _, n := range missing {
		a.Caveats = append(a.Caveats, analytics.EngineName(n.Engine)+" has no bytes-per-key figure: "+ensureStop(n.Reason))
	}
	if len(quoted) > 0 || len(missing) > 0 {
		s.entry("caveat:no-memory")
	}
	for _, r := range quoted {
		a.Caveats = append(a.Caveats, analytics.EngineName(r.Engine)+"'s figure is quoted, not measured in the memory file: "+ensureStop(r.Label))
	}
	b.applyCaveatsAndTerms(&a, s, nil, []string{"term:bytes-per-key", "term:used-memory"}, 2)
	a.PlainWords = capitalise(a.PlainWords)
	a.Sources = s.sources()
	return a, nil
}

// memoryFigures are the measured bytes per key of rows: "Dragonfly 146.1;
// Redis 165.3".
func memoryFigures(rows []knowledge.MemoryRow) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, analytics.EngineName(r.Engine)+" "+formatExact(r.BytesPerKey))
	}
	return strings.Join(parts, "; ")
}

func memoryEngines(t knowledge.MemoryTable) string {
	var es []string
	for _, r := range t.Rows {
		es = append(es, r.Engine)
	}
	return enginesWords(es)
}

func enginesWords(es []string) string {
	if len(es) == 0 {
		return "that engine"
	}
	return joinAnd(engineNames(es))
}

func pct1(f float64) string {
	return trimZeros(strconv.FormatFloat(f*100, 'f', 1, 64)) + "%"
}

// composeFailover answers Sentinel failover questions from the lab's two
// measured tables: the down-after sweep and the engine comparison.
func (b *Composer) composeFailover(p planner.Plan) (Answer, error) {
	s := newSourcer(b.cfg.Knowledge)
	engines := p.Slots.Engines
	// The sweep varies down-after on Redis; the engine table compares
	// engines at one setting. Both answer a question that names neither.
	sweep, byEngine := b.cfg.Knowledge.FailoverSweep(), b.cfg.Knowledge.FailoverEngines()
	var tables []knowledge.FailoverTable
	onlyRedis := len(engines) == 1 && engines[0] == "redis"
	if len(engines) == 0 || onlyRedis || p.Slots.DownAfterMs != 0 {
		tables = append(tables, sweep)
	}
	if !onlyRedis && (len(engines) > 0 || p.Slots.DownAfterMs == 0) {
		tables = append(tables, byEngine)
	}
	measured := failoverGroups(s, tables...)
	var groups []knowledge.FailoverGroup
	var missing []string
	for _, g := range measured {
		if len(engines) > 0 && !slices.Contains(engines, g.Engine) {
			continue
		}
		if p.Slots.DownAfterMs > 0 && g.DownAfterMs != p.Slots.DownAfterMs {
			continue
		}
		groups = append(groups, g)
	}
	for _, e := range engines {
		if !slices.ContainsFunc(measured, func(g knowledge.FailoverGroup) bool { return g.Engine == e }) {
			missing = append(missing, analytics.EngineName(e))
		}
	}
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	if len(groups) == 0 {
		a.Kind = KindNoData
		a.Headline = "That failover setting was never measured."
		var have []string
		for _, g := range measured {
			have = append(have, fmt.Sprintf("%s with down-after-milliseconds %d", analytics.EngineName(g.Engine), g.DownAfterMs))
		}
		a.Body = append(a.Body, "The lab measured: "+strings.Join(have, "; ")+". Nothing is estimated in between.")
		a.Sources = s.sources()
		return a, nil
	}
	var parts []string
	tbl := &Table{Columns: []string{"Data nodes", "down-after ms", "outage per kill (s)", "median (s)", "mean (s)", "fixed cost beyond down-after (s)"}}
	for _, g := range groups {
		var reps []string
		for _, r := range g.Reps {
			reps = append(reps, formatSeconds(r.OutageS))
		}
		parts = append(parts, failoverFigure(g))
		tbl.Rows = append(tbl.Rows, []string{analytics.EngineName(g.Engine), strconv.Itoa(g.DownAfterMs), strings.Join(reps, " / "),
			formatSeconds(g.MedianOutageS), formatSeconds(g.MeanOutageS), formatSeconds(g.MinOverheadS) + "–" + formatSeconds(g.MaxOverheadS)})
	}
	a.Headline = "Write outage during a Sentinel failover (median of the kills): " + strings.Join(parts, "; ") + "."
	if p.Order != "" && len(groups) > 1 || p.Position > 0 || p.Limit > 0 {
		a.Headline = failoverRanking(groups, p.Order, p.Position, p.Limit)
	}
	if p.Premise != nil {
		if h, ok := failoverVerdict(groups, *p.Premise); ok {
			a.Headline = h
		}
	}
	a.Table = tbl
	a.Body = append(a.Body, p.Notes...)
	a.Body = append(a.Body, "Outage is the time from killing the primary to the first write that succeeds on the promoted replica. Each setting was killed several times; every kill is in the table.")
	if len(missing) > 0 {
		a.Body = append(a.Body, joinAnd(missing)+" never took part in the failover lab, so there is no figure for it.")
	}
	if line := b.failoverPeers(groups, engines, s); line != "" {
		a.Body = append(a.Body, line)
	}
	// The newcomer's line uses Sentinel's usual setting when it is shown
	// (the lab's default down-after of 5000 ms), and names the setting.
	g := groups[0]
	for _, x := range groups {
		if x.DownAfterMs == 5000 {
			g = x
			break
		}
	}
	a.PlainWords = fmt.Sprintf("with down-after-milliseconds set to %d ms, when the primary died writes failed for about %s s before a replica took over; most of that is the down-after wait you configure, plus a fixed promotion cost.", g.DownAfterMs, formatSeconds(g.MedianOutageS))
	a.PlainWords = capitalise(a.PlainWords)
	a.Caveats = append(a.Caveats, "The failover lab ran in Docker on a laptop, apart from the AWS throughput benchmark; sub-second digits are approximate.")
	b.applyCaveatsAndTerms(&a, s, nil, []string{"term:down-after-milliseconds", "term:outage-window", "term:sentinel"}, 3)
	a.Sources = s.sources()
	return a, nil
}

// failoverVerdict answers a yes/no question about two engines' failover
// ("does Valkey fail over faster than Redis?") from their medians at one
// down-after setting both were killed at (Sentinel's usual 5000 ms when
// there). ok is false when no setting has both.
func failoverVerdict(groups []knowledge.FailoverGroup, pr planner.Premise) (string, bool) {
	var subj, obj *knowledge.FailoverGroup
	for i := range groups {
		g := &groups[i]
		for j := range groups {
			h := &groups[j]
			if g.Engine != pr.Subject || h.Engine != pr.Object || g.DownAfterMs != h.DownAfterMs {
				continue
			}
			if subj == nil || g.DownAfterMs == 5000 {
				subj, obj = g, h
			}
		}
	}
	if subj == nil {
		return "", false
	}
	vs, vo := subj.MedianOutageS, obj.MedianOutageS
	figures := fmt.Sprintf("%s %s s, %s %s s (median of the kills, down-after %d ms)", analytics.EngineName(subj.Engine), formatSeconds(vs),
		analytics.EngineName(obj.Engine), formatSeconds(vo), subj.DownAfterMs)
	return lowerVerdict(pr, vs, vo, subj.Engine, obj.Engine, verdictWords{
		same: "about the same failover outage", differ: "their failover outages differ",
		lower: func(e string) string { return analytics.EngineName(e) + "'s failover outage was shorter" },
	}) + figures + ".", true
}

// verdictWords word a yes/no over a measure where less is better: the two
// level, the two apart, and which of them has less.
type verdictWords struct {
	same, differ string
	lower        func(engine string) string
}

// lowerVerdict is the first words of a yes/no answer over a measure where
// less is better (an outage, bytes per key), from the subject's figure vs
// and the object's vo: yes, no or about the same, computed from the
// premise, up to the figures that follow.
func lowerVerdict(pr planner.Premise, vs, vo float64, subj, obj string, w verdictWords) string {
	same := aboutTheSame(vs, vo)
	switch {
	case pr.Same && same:
		return "Yes — " + w.same + ": "
	case pr.Same:
		return "No — " + w.differ + ": "
	case same:
		return "No — " + w.same + ": "
	}
	lower := subj
	if vo < vs {
		lower = obj
	}
	verdict := "No"
	if (vs < vo) == pr.Better {
		verdict = "Yes"
	}
	return verdict + " — " + w.lower(lower) + ": "
}

// failoverGroups are the groups of the lab's tables, each engine and
// down-after setting once (the first table's), each table cited.
func failoverGroups(s *sourcer, tables ...knowledge.FailoverTable) []knowledge.FailoverGroup {
	var groups []knowledge.FailoverGroup
	for _, t := range tables {
		s.entry(t.ID)
		for _, g := range t.Groups {
			if !slices.ContainsFunc(groups, func(h knowledge.FailoverGroup) bool { return h.Engine == g.Engine && h.DownAfterMs == g.DownAfterMs }) {
				groups = append(groups, g)
			}
		}
	}
	return groups
}

// failoverFigure is one group's median outage: "Redis at down-after 5000
// ms: 5.82 s".
func failoverFigure(g knowledge.FailoverGroup) string {
	return fmt.Sprintf("%s at down-after %d ms: %s s", analytics.EngineName(g.Engine), g.DownAfterMs, formatSeconds(g.MedianOutageS))
}

func quotedEngines(rows []knowledge.MemoryRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Engine)
	}
	return out
}

// memoryVerdict answers a yes/no question about two engines' memory per
// key ("is Valkey leaner than Redis?") from the measured table; ok is false
// when either was not measured there.
func memoryVerdict(rows []knowledge.MemoryRow, pr planner.Premise) (string, bool) {
	var subj, obj *knowledge.MemoryRow
	for i := range rows {
		switch rows[i].Engine {
		case pr.Subject:
			subj = &rows[i]
		case pr.Object:
			obj = &rows[i]
		}
	}
	if subj == nil || obj == nil {
		return "", false
	}
	vs, vo := subj.BytesPerKey, obj.BytesPerKey
	figures := fmt.Sprintf("%s %s bytes per key, %s %s (measured)", analytics.EngineName(subj.Engine), formatExact(vs),
		analytics.EngineName(obj.Engine), formatExact(vo))
	return lowerVerdict(pr, vs, vo, subj.Engine, obj.Engine, verdictWords{
		same: "about the same memory per key", differ: "their memory per key differs",
		lower: func(e string) string { return analytics.EngineName(e) + " stores a key in less memory" },
	}) + figures + ".", true
}

// memoryPlace answers a place in the memory table ("which is second?",
// "the top 2") from the smallest figure up (the largest down for a
// descending order).
func memoryPlace(rows []knowledge.MemoryRow, order planner.Order, position, limit int) string {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(x, y knowledge.MemoryRow) int {
		if order == planner.OrderDesc {
			return cmp.Compare(y.BytesPerKey, x.BytesPerKey)
		}
		return cmp.Compare(x.BytesPerKey, y.BytesPerKey)
	})
	word := "smallest"
	if order == planner.OrderDesc {
		word = "largest"
	}
	if position > len(sorted) {
		return fmt.Sprintf("There is no %s: only %d engines were measured in the memory table (%s).", ordinalWord(position), len(sorted), memoryFigures(sorted))
	}
	if position > 0 {
		r := sorted[position-1]
		return fmt.Sprintf("%s has the %s %s memory per key: %s bytes (measured), after %s.", analytics.EngineName(r.Engine), ordinalWord(position), word,
			formatExact(r.BytesPerKey), memoryFigures(sorted[:position-1]))
	}
	limit = min(limit, len(sorted))
	return fmt.Sprintf("The %d with the %s memory per key (bytes, measured): %s.", limit, word, memoryFigures(sorted[:limit]))
}

// failoverRanking answers "which failed over slowest / fastest", or a
// place in that order, from the lab's medians, at one down-after setting,
// and says when they are level.
func failoverRanking(groups []knowledge.FailoverGroup, order planner.Order, position, limit int) string {
	at := groups[0].DownAfterMs
	var same []knowledge.FailoverGroup
	for _, g := range groups {
		if g.DownAfterMs == 5000 {
			at = 5000
		}
	}
	for _, g := range groups {
		if g.DownAfterMs == at {
			same = append(same, g)
		}
	}
	slices.SortStableFunc(same, func(a, b knowledge.FailoverGroup) int {
		if order == planner.OrderDesc {
			return cmp.Compare(b.MedianOutageS, a.MedianOutageS)
		}
		return cmp.Compare(a.MedianOutageS, b.MedianOutageS)
	})
	word := "shortest"
	if order == planner.OrderDesc {
		word = "longest"
	}
	var parts []string
	for _, g := range same {
		parts = append(parts, fmt.Sprintf("%s %s s", analytics.EngineName(g.Engine), formatSeconds(g.MedianOutageS)))
	}
	head := fmt.Sprintf("%s had the %s failover outage at down-after %d ms (median of the kills): %s", analytics.EngineName(same[0].Engine), word, at, strings.Join(parts, ", then "))
	switch {
	case position > len(same):
		return fmt.Sprintf("There is no %s: only %d engines were killed at down-after %d ms (%s).", ordinalWord(position), len(same), at, strings.Join(parts, ", "))
	case position > 0:
		g := same[position-1]
		head = fmt.Sprintf("%s had the %s %s failover outage at down-after %d ms (median of the kills): %s s, after %s", analytics.EngineName(g.Engine),
			ordinalWord(position), word, at, formatSeconds(g.MedianOutageS), strings.Join(parts[:position-1], ", then "))
	case limit > 0:
		limit = min(limit, len(same))
		head = fmt.Sprintf("The %d with the %s failover outage at down-after %d ms (median of the kills): %s", limit, word, at, strings.Join(parts[:limit], ", then "))
	}
	if len(same) > 1 {
		lo, hi := same[0].MedianOutageS, same[len(same)-1].MedianOutageS
		if d := math.Abs(hi - lo); d < 0.1 {
			head += fmt.Sprintf(" — within %s s of each other: about the same", formatSeconds(d))
		}
	}
	return head + "."
}

// failoverPeers sets a one-engine failover answer beside the other engines
// the lab measured at the same down-after (failover:engines), and gives
// the lab's own reading of why engines hardly differ whenever more than
// one engine is on show.
func (b *Composer) failoverPeers(groups []knowledge.FailoverGroup, engines []string, s *sourcer) string {
	t := b.cfg.Knowledge.FailoverEngines()
	var parts []string
	if len(engines) == 1 {
		for _, g := range t.Groups {
			if g.Engine != engines[0] && slices.ContainsFunc(groups, func(x knowledge.FailoverGroup) bool { return x.DownAfterMs == g.DownAfterMs }) {
				parts = append(parts, fmt.Sprintf("%s %s s", analytics.EngineName(g.Engine), formatSeconds(g.MedianOutageS)))
			}
		}
	}
	shown := map[string]bool{}
	for _, g := range groups {
		shown[g.Engine] = true
	}
	if len(parts) == 0 && len(shown) < 2 {
		return ""
	}
	s.entry(t.ID)
	var line string
	if len(parts) > 0 {
		line = "For comparison, the other data engines at the same down-after (" + t.ID + "): " + strings.Join(parts, "; ") + "."
	}
	if n, ok := b.cfg.Knowledge.Note(t.ID); ok {
		if i := strings.Index(n.Summary, "How long a failover takes"); i >= 0 {
			line = joinSentences(line, strings.TrimSuffix(firstSentenceOf(n.Summary[i:]), ".")+" ("+t.ID+").")
		}
	}
	return line
}

// formatSeconds renders seconds with up to two decimals.
func formatSeconds(v float64) string { return trimZeros(strconv.FormatFloat(v, 'f', 2, 64)) }
