package planner

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// knobRange is a range the question put on one knob ("more than 16
// cores", "values of at least 1 KB", "pipeline deeper than 1"): the
// bounds, inclusive, and the tokens that said it.
type knobRange struct {
	knob     string // slotCores, slotValue or slotPipeline
	lo, hi   int
	from, to int
	// twoEnded marks "between 8 and 24 cores", "8-24 cores": both ends said.
	twoEnded bool
}

func (k knobRange) holds(v int) bool { return v >= k.lo && v <= k.hi }

// Comparatives before a number, longest first: each gives the bound the
// number sets.
var (
	rangeAbove   = [][]string{{"in", "excess", "of"}, {"more", "than"}, {"greater", "than"}, {"larger", "than"}, {"bigger", "than"}, {"higher", "than"}, {"deeper", "than"}, {"longer", "than"}, {"over"}, {"above"}, {"beyond"}, {"exceeding"}, {">"}}
	rangeAtLeast = [][]string{{"no", "less", "than"}, {"no", "fewer", "than"}, {"not", "less", "than"}, {"not", "fewer", "than"}, {"no", "smaller", "than"}, {"at", "least"}, {"minimum", "of"}, {"min"}, {">", "="}, {"≥"}}
	rangeBelow   = [][]string{{"less", "than"}, {"fewer", "than"}, {"smaller", "than"}, {"lower", "than"}, {"shallower", "than"}, {"under"}, {"below"}, {"<"}}
	rangeAtMost  = [][]string{{"no", "more", "than"}, {"not", "more", "than"}, {"no", "larger", "than"}, {"no", "bigger", "than"}, {"no", "deeper", "than"}, {"up", "to"}, {"at", "most"}, {"maximum", "of"}, {"max"}, {"<", "="}, {"≤"}}
	// After the number and its unit: "16 cores or more", "16+ cores".
	rangeOrMore = [][]string{{"or", "more"}, {"or", "above"}, {"or", "higher"}, {"or", "greater"}, {"or", "larger"}, {"or", "bigger"}, {"or", "over"}, {"or", "deeper"}, {"and", "up"}, {"and", "above"}, {"and", "over"}, {"and", "higher"}, {"and", "more"}, {"or", "up"}, {"+"}}
	rangeOrLess = [][]string{{"or", "fewer"}, {"or", "less"}, {"or", "below"}, {"or", "under"}, {"or", "lower"}, {"or", "smaller"}, {"and", "below"}, {"and", "under"}, {"and", "fewer"}, {"and", "less"}}
)

// phraseEndingAt returns where one of the phrases ends exactly at token
// end starts, or -1.
func (r *reading) phraseEndingAt(end int, phrases [][]string) int {
	for _, ph := range phrases {
		from := end - len(ph)
		if from >= 0 && r.matches(from, ph) {
			return from
		}
	}
	return -1
}

// phraseAt returns where one of the phrases starting at token i ends, or -1.
func (r *reading) phraseAt(i int, phrases [][]string) int {
	for _, ph := range phrases {
		if i+len(ph) <= len(r.toks) && r.matches(i, ph) {
			return i + len(ph)
		}
	}
	return -1
}

// comparativeBefore reads a comparative ending at token i: the bounds the
// number n sets and where the comparative starts.
func (r *reading) comparativeBefore(i, n int) (lo, hi, from int, ok bool) {
	if from = r.phraseEndingAt(i, rangeAtLeast); from >= 0 {
		return n, math.MaxInt, from, true
	}
	if from = r.phraseEndingAt(i, rangeAtMost); from >= 0 {
		return 1, n, from, true
	}
	if from = r.phraseEndingAt(i, rangeAbove); from >= 0 {
		return n + 1, math.MaxInt, from, true
	}
	if from = r.phraseEndingAt(i, rangeBelow); from >= 0 {
		return 1, n - 1, from, true
	}
	return 0, 0, -1, false
}

// comparativeAfter reads "or more" / "or fewer" / "+" at token i.
func (r *reading) comparativeAfter(i, n int) (lo, hi, to int, ok bool) {
	defer func() {
		// "16 cores and over 1 KB values": the comparative is the next
		// number's, not this one's.
		if ok && to < len(r.toks) && r.toks[to].kind == tokNumber {
			lo, hi, to, ok = 0, 0, -1, false
		}
	}()
	if to = r.phraseAt(i, rangeOrMore); to >= 0 {
		return n, math.MaxInt, to, true
	}
	if to = r.phraseAt(i, rangeOrLess); to >= 0 {
		return 1, n, to, true
	}
	return 0, 0, -1, false
}

// findRange finds the first range on cores, value size or pipeline depth.
func (r *reading) findRange() (knobRange, bool) {
	for i, t := range r.toks {
		if t.kind == tokWord && t.text == "any" && r.anyPipelining(i) {
			to := i + 2
			if to < len(r.toks) && r.toks[to].text == "depth" {
				to++
			}
			return knobRange{knob: slotPipeline, lo: 2, hi: math.MaxInt, from: i, to: to}, true
		}
		if t.kind != tokNumber {
			continue
		}
		n, err := strconv.Atoi(t.text)
		if err != nil || n <= 0 {
			continue
		}
		if k, ok := r.rangeAt(i, n); ok {
			return k, true
		}
	}
	return knobRange{}, false
}

// anyPipelining reads "with any pipelining" as every depth above 1;
// "without any pipelining" is no pipelining, which the grammar reads.
func (r *reading) anyPipelining(i int) bool {
	if i+1 >= len(r.toks) || !r.tokenIs(i+1, mSetting, "pipeline") {
		return false
	}
	if i > 0 {
		switch r.toks[i-1].text {
		case "without", "no", "not", "nor", "never":
			return false
		}
	}
	return true
}

// rangeAt reads a range whose (first) number is token i.
func (r *reading) rangeAt(i, n int) (knobRange, bool) {
	knob, unitEnd := "", i+1
	size := 0
	switch {
	case i+1 < len(r.toks) && coreUnit(r.toks[i+1].text):
		knob, unitEnd = slotCores, i+2
	case i+1 < len(r.toks) && valueBytes(r.toks[i].text, r.toks[i+1].text) > 0 && r.sizeUnitIsValue(i+1):
		knob, unitEnd, size = slotValue, i+2, valueBytes(r.toks[i].text, r.toks[i+1].text)
	}
	// "16+ cores", "16c+": the plus may stand before or after the unit.
	if knob == "" && i+2 < len(r.toks) && r.toks[i+1].text == "+" && coreUnit(r.toks[i+2].text) {
		return knobRange{knob: slotCores, lo: n, hi: math.MaxInt, from: i, to: i + 3}, true
	}
	if knob == slotValue {
		n = size
	}
	// Two ends: "between 8 and 24 cores", "8-24 cores", "from 8 to 24 cores".
	if knob == "" && i+3 < len(r.toks) && (r.toks[i+1].text == "and" || r.toks[i+1].text == "to" || r.toks[i+1].text == "-") &&
		r.toks[i+2].kind == tokNumber && coreUnit(r.toks[i+3].text) {
		m, err := strconv.Atoi(r.toks[i+2].text)
		from := i
		if i > 0 && (r.toks[i-1].text == "between" || r.toks[i-1].text == "from") {
			from = i - 1
		}
		if err == nil && m > 0 && (r.toks[i+1].text != "and" || from < i) {
			return knobRange{knob: slotCores, lo: min(n, m), hi: max(n, m), from: from, to: i + 4, twoEnded: true}, true
		}
	}
	end := unitEnd
	if knob == slotCores && end < len(r.toks) && machineWords[r.toks[end].text] {
		end++
	}
	if knob == slotValue && end < len(r.toks) && valueWords[r.toks[end].text] {
		end++
	}
	if knob == "" {
		// A pipeline depth says its knob before the number ("pipeline
		// deeper than 1", "pipeline 2 or more"); a core count may too
		// ("cores over 16", "core count of at least 24").
		if i+1 < len(r.toks) && unitFollows(r.text, r.toks[i].end) {
			return knobRange{}, false
		}
		if lo, hi, from, ok := r.comparativeBefore(i, n); ok {
			if pw := r.pipelineBefore(from); pw >= 0 {
				return knobRange{knob: slotPipeline, lo: lo, hi: hi, from: pw, to: i + 1}, true
			}
			if cw := r.coreWordBefore(from); cw >= 0 {
				return knobRange{knob: slotCores, lo: lo, hi: hi, from: cw, to: i + 1}, true
			}
			return knobRange{}, false
		}
		if pw := r.pipelineBefore(i); pw >= 0 {
			if lo, hi, to, ok := r.comparativeAfter(i+1, n); ok {
				return knobRange{knob: slotPipeline, lo: lo, hi: hi, from: pw, to: to}, true
			}
		}
		return knobRange{}, false
	}
	if lo, hi, from, ok := r.comparativeBefore(i, n); ok {
		if knob == slotValue {
			from = r.valueWordBefore(from)
		}
		return knobRange{knob: knob, lo: lo, hi: hi, from: from, to: end}, true
	}
	if lo, hi, to, ok := r.comparativeAfter(end, n); ok {
		from := i
		if knob == slotValue {
			from = r.valueWordBefore(from)
		}
		return knobRange{knob: knob, lo: lo, hi: hi, from: from, to: to}, true
	}
	return knobRange{}, false
}

// sizeUnitIsValue reports whether the size unit at token u is a value
// size's: "100k keys" and "2k ops" count something else.
func (r *reading) sizeUnitIsValue(u int) bool {
	if u+1 < len(r.toks) {
		switch r.toks[u+1].text {
		case "keys", "key", "ops", "requests", "req", "rps", "qps", "connections", "clients", "runs":
			return false
		}
	}
	return true
}

// valueWordBefore extends a span's start over "values of" / "values"
// before it ("values of at least 1 KB").
func (r *reading) valueWordBefore(from int) int {
	if from > 1 && r.toks[from-1].text == "of" && valueWords[r.toks[from-2].text] {
		return from - 2
	}
	if from > 0 && valueWords[r.toks[from-1].text] {
		return from - 1
	}
	return from
}

// coreWordBefore returns the start of "cores", "core count(s)" (and an
// "of", "is" or "are": "where cores are over 24") ending before token i,
// or -1.
func (r *reading) coreWordBefore(i int) int {
	if i > 0 && (r.toks[i-1].text == "of" || r.toks[i-1].text == "is" || r.toks[i-1].text == "are" || r.toks[i-1].text == "=") {
		i--
	}
	if i > 1 && (r.toks[i-1].text == "count" || r.toks[i-1].text == "counts") && r.toks[i-2].text == "core" {
		return i - 2
	}
	if i > 0 && (r.toks[i-1].text == "cores" || r.toks[i-1].text == "cpus") {
		return i - 1
	}
	return -1
}

// measuredOf lists a knob's measured values, ascending, for the engines
// (each of them: the values every one was measured at), or over every
// series when none is named; each engine's own list is returned too.
func (p *Planner) measuredOf(knob string, engines []string) (common []int, each map[string][]int) {
	each = map[string][]int{}
	var all []int
	for _, c := range p.coverage() {
		if len(engines) > 0 && !slices.Contains(engines, c.Engine) {
			continue
		}
		for _, v := range knobValues(c, knob) {
			each[c.Engine] = appendUnique(each[c.Engine], v)
			all = appendUnique(all, v)
		}
	}
	slices.Sort(all)
	if len(engines) == 0 {
		return all, each
	}
	for _, v := range all {
		inAll := true
		for _, e := range engines {
			if !slices.Contains(each[e], v) {
				inAll = false
			}
		}
		if inAll {
			common = append(common, v)
		}
	}
	return common, each
}

// knobValues are the values of a counted knob one series was measured at.
func knobValues(c analytics.SeriesCoverage, knob string) []int {
	switch knob {
	case slotCores:
		return c.Cores
	case slotValue:
		return c.ValueBytes
	case slotPipeline:
		return c.Pipelines
	}
	return nil
}

// rangeSpelling is how the grammar reads measured values of a knob in place
// of the range; rangeWords is how the first line says them.
func rangeSpelling(knob string, vs []int) string {
	switch knob {
	case slotCores:
		return joinInts(vs) + " cores"
	case slotValue:
		if len(vs) == 1 {
			return valueSpelling(vs[0])
		}
		return joinMap(vs, func(v int) string { return strings.TrimSuffix(valueSpelling(v), " values") }) + " values"
	}
	return "pipeline " + joinInts(vs)
}

func rangeWords(knob string, vs []int) string {
	switch knob {
	case slotCores:
		return joinInts(vs) + " cores"
	case slotValue:
		return joinMap(vs, func(v int) string { return strings.TrimSuffix(valuePhrase(v), " values") }) + " values"
	}
	if len(vs) == 1 {
		return "pipeline depth " + strconv.Itoa(vs[0])
	}
	return "pipeline depths " + joinInts(vs)
}

// partLabel names one measured value of a range as a compound part's
// heading.
func partLabel(knob string, v int) string {
	switch knob {
	case slotCores:
		return "At " + strconv.Itoa(v) + " cores"
	case slotValue:
		return "With " + valuePhrase(v)
	}
	return "At pipeline depth " + strconv.Itoa(v)
}

// rangeKnobWords names a knob's values in a sentence.
func rangeKnobWords(knob string) string {
	switch knob {
	case slotCores:
		return "core count"
	case slotValue:
		return "value size"
	}
	return "pipeline depth"
}

// planRange reads a range on a knob as the measured values inside it:
// the question is planned with those values in its place, and the first
// line says how the range was read. A kind that takes one value of the
// knob (a comparison, a yes/no, a recommendation, another knob's effect)
// is answered at each measured value in turn — a compound plan — because
// a range asks about all of them, and picking one would answer less than
// was asked; a lookup, a scaling over cores, the range knob's own effect
// and a search take the values as one list. A range holding no measured
// value is refused as never measured, naming the nearest measured values.
func (p *Planner) planRange(ctx context.Context, question string, prev *Plan) (Plan, bool, error) {
	if p.cov == nil {
		return Plan{}, false, nil
	}
	r := p.readTokens(question)
	if p.g.injection.MatchString(r.text) || p.g.code.MatchString(r.text) {
		return Plan{}, false, nil // a filter fragment ("cores > 8") is refused whole, not read
	}
	k, ok := r.findRange()
	if !ok {
		return Plan{}, false, nil
	}
	engines := r.values(mEngine)
	common, each := p.measuredOf(k.knob, engines)
	if len(engines) == 0 && prev != nil {
		// A follow-up ("and above 16 cores?") asks of the thread's
		// engines: the values any of them was measured at (a comparison
		// of every engine keeps KeyDB, measured only up to 16 cores), each
		// engine's own gaps are the plan's to name.
		engines = threadBase(prev).Slots.Engines
		var union []int
		_, each = p.measuredOf(k.knob, engines)
		for _, vs := range each {
			for _, v := range vs {
				union = appendUnique(union, v)
			}
		}
		common = slices.Sorted(slices.Values(union))
	}
	var in []int
	for _, v := range common {
		if k.holds(v) {
			in = append(in, v)
		}
	}
	said := r.words(k.from, k.to)
	splice := func(vs []int) string { return r.spliced(k.from, k.to, rangeSpelling(k.knob, vs)) }
	if len(in) == 0 {
		pl, err := p.refuseRange(ctx, question, prev, k, said, common, engines, each, splice)
		return pl, true, err
	}
	reading := "Read “" + said + "” as the measured " + rangeWords(k.knob, in)
	if len(in) == 1 && len(common) > 1 {
		reading += ", the only " + rangeKnobWords(k.knob) + " measured in that range"
	}
	withReading := func(pl Plan) Plan {
		pl.Question = question
		if pl.UnboundReading != "" {
			reading += "; " + strings.ToLower(pl.UnboundReading[:1]) + pl.UnboundReading[1:]
		}
		pl.UnboundReading = reading
		return pl
	}
	if len(in) == 1 {
		pl, err := p.Plan(ctx, splice(in), prev)
		return withReading(pl), true, err
	}
	probe, err := p.Plan(ctx, splice(in[:1]), prev)
	if err != nil {
		return Plan{}, true, err
	}
	if takesList(probe, k.knob) {
		text := splice(in)
		if k.twoEnded {
			// "from 4 to 48 cores" keeps its range filter (cores >= 4 &&
			// cores <= 48), which selects exactly the measured counts read.
			text = question
		}
		var pl Plan
		if k.twoEnded {
			pl, err = p.planAsIs(ctx, text, prev)
		} else {
			pl, err = p.Plan(ctx, text, prev)
		}
		if k.twoEnded && slices.Contains(common, k.lo) && slices.Contains(common, k.hi) {
			pl.Question = question
			return pl, true, err // both ends measured: the answer names them as asked
		}
		return withReading(pl), true, err
	}
	parts := make([]Plan, 0, len(in))
	for _, v := range in {
		pl, err := p.Plan(ctx, splice([]int{v}), prev)
		if err != nil {
			return Plan{}, true, err
		}
		pl.PartLabel = partLabel(k.knob, v)
		parts = append(parts, pl)
	}
	pl := compoundOf(question, parts)
	switch k.knob {
	case slotCores:
		pl.Slots.Cores = in
	case slotValue:
		pl.Slots.ValueBytes = in[0]
	case slotPipeline:
		pl.Slots.Pipeline = in[0]
	}
	pl.Interpretation = "Each measured " + rangeKnobWords(k.knob) + " in “" + said + "”, in turn — " + pl.Interpretation
	pl.ThreadEngines = threadEngines(prev, pl)
	return withReading(pl), true, nil
}

// planAsIs plans a question without reading ranges in it.
func (p *Planner) planAsIs(ctx context.Context, question string, prev *Plan) (Plan, error) {
	call := *p
	call.rangesRead = true
	return call.Plan(ctx, question, prev)
}

// takesList reports whether the plan a range's first value gave can take
// all of the range's values at once.
func takesList(probe Plan, knob string) bool {
	if probe.Intent == IntentNoData {
		return true // refused at the first value for another reason: refused once, with the list
	}
	intent := probe.Intent
	if probe.Premise != nil || probe.Multiple {
		return false
	}
	switch intent {
	case IntentLookup, IntentSearch:
		return true
	case IntentScaling:
		return knob == slotCores
	case IntentEffect:
		return probe.Slots.Knob == knob
	case IntentCompare, IntentRecommend, IntentSpread, IntentClaim:
		return false
	}
	return true
}

// refuseRange answers a range that holds no measured value: never
// measured, by name, with the cells of the nearest measured value.
func (p *Planner) refuseRange(ctx context.Context, question string, prev *Plan, k knobRange, said string, common []int, engines []string, each map[string][]int, splice func([]int) string) (Plan, error) {
	measured := common
	if len(measured) == 0 {
		for _, vs := range each {
			for _, v := range vs {
				measured = appendUnique(measured, v)
			}
		}
		slices.Sort(measured)
	}
	if len(measured) == 0 {
		return p.planAsIs(ctx, question, prev)
	}
	near := measured[0]
	gap := func(v int) int {
		if v < k.lo {
			return k.lo - v
		}
		return v - k.hi
	}
	for _, v := range measured {
		if gap(v) < gap(near) {
			near = v
		}
	}
	var who []string
	for _, e := range engines {
		if vs := each[e]; len(vs) > 0 {
			vs = slices.Sorted(slices.Values(vs))
			who = append(who, engineName(e)+" was measured at "+rangeWords(k.knob, vs))
		}
	}
	if len(who) == 0 {
		who = []string{"only " + rangeWords(k.knob, measured) + " were measured"}
	}
	missing := "“" + said + "” holds no measured " + rangeKnobWords(k.knob) + " — " + strings.Join(who, "; ") + "; the nearest is " + rangeWords(k.knob, []int{near})
	probe, err := p.Plan(ctx, splice([]int{near}), prev)
	if err != nil {
		return Plan{}, err
	}
	pl := probe
	pl.Question = question
	if pl.Intent != IntentNoData {
		pl.Requested, pl.Intent = pl.Intent, IntentNoData
	}
	pl.Missing = append([]string{missing}, pl.Missing...)
	if len(pl.Nearest) == 0 {
		for _, q := range probe.Queries {
			key := analytics.CellKey{Session: q.Session, Engine: q.Engine, Mode: q.Mode, Ratio: probe.Slots.Ratio,
				ValueBytes: probe.Slots.ValueBytes, Pipeline: probe.Slots.Pipeline}
			if len(probe.Slots.Cores) == 1 {
				key.Cores = probe.Slots.Cores[0]
			}
			pl.Nearest = append(pl.Nearest, p.cov.Nearest(key, 1)...)
			if len(pl.Nearest) >= p.opts.NearestCells {
				break
			}
		}
	}
	pl.Queries, pl.Order, pl.Parts, pl.Premise = nil, "", nil, nil
	pl.UnboundReading = ""
	pl.Interpretation = "“" + said + "” — never measured; nearest measured: " + probe.Interpretation
	return pl, nil
}
