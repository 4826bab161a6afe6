package planner

import (
	"slices"
	"strconv"
	"strings"
)

// exclusion reports a negation phrase that can leave an engine or a value
// size out ("anything but", "non", "not", "except"): "no redis" and
// "never" say something else about an engine.
func (r *reading) exclusion(t tag) bool {
	if t.meaning != mNegation || t.value != "pre" {
		return false
	}
	switch r.words(t.from, t.to) {
	case "no", "zero", "never", "disable", "disabling", "turn off", "turning off", "switch off":
		return false
	}
	return true
}

// negationBefore returns the exclusion ending at token i, skipping
// articles and hyphens ("non-dragonfly", "anything but the redis"), and
// whether there is one.
func (r *reading) negationBefore(i int) (tag, bool) {
	number := r.toks[i].kind == tokNumber
	for skipped := 0; i > 0 && skipped <= 2; skipped++ {
		for _, t := range r.tags {
			if t.to == i && (r.exclusion(t) || number && t.meaning == mNegation && r.words(t.from, t.to) == "no") {
				// "no 48 core boxes": a "no" before a count rules it out
				return t, true
			}
		}
		switch w := r.toks[i-1].text; {
		case w == "-" || w == "the" || w == "a" || w == "an" || w == "any" || w == "with" || w == "using" || w == "on" || w == "at":
			i--
		case w == "afford" || w == "have" || w == "get" || w == "buy" || w == "rent" || w == "use":
			// "can't afford 48 cores", "don't have 1kb values"
			i--
		default:
			return tag{}, false
		}
	}
	return tag{}, false
}

// allEngines are the five engines in the order answers name them.
var allEngines = []string{"dragonfly", "redis", "valkey", "keydb", "garnet"}

// recogniseNegatedEngine reads an engine left out ("anything but Redis",
// "non-Dragonfly engines", "Dragonfly, not Redis") as the engines meant:
// the others the question names, else every other engine. The plan's
// first line says how it was read; a negated engine is never planned as
// itself.
func (p *Planner) recogniseNegatedEngine(question string, r *reading, prev *Plan) (Plan, bool) {
	if !r.has(mNegation) || !r.has(mEngine) {
		return Plan{}, false
	}
	var out []string
	var cuts [][2]int
	var said []string
	universal := false // "anything but", "non-": every other engine
	lastCut := -1      // the end of the last engine left out
	for _, t := range r.tags {
		if t.meaning != mEngine {
			continue
		}
		if lastCut >= 0 && listedAfter(r, lastCut, t.from) {
			// "everything except Redis and Valkey": the list the exclusion
			// opens is left out whole.
			out = appendUnique(out, t.value)
			cuts = append(cuts, [2]int{lastCut, t.to})
			said[len(said)-1] += " " + r.words(lastCut, t.to)
			lastCut = t.to
			continue
		}
		if n, ok := r.negationBefore(t.from); ok {
			// "except" opens a list; "not Redis, Valkey and Dragonfly"
			// (often "not Redis but …" rewritten) leaves out only Redis.
			if w := r.words(n.from, n.to); w != "not" && w != "non" {
				lastCut = t.to
			}
			out = appendUnique(out, t.value)
			cuts = append(cuts, [2]int{n.from, t.to})
			said = append(said, r.words(n.from, t.to))
			switch r.toks[n.from].text {
			case "anything", "everything", "all", "engines", "any", "non":
				universal = true
			}
			continue
		}
		lastCut = -1
	}
	if len(out) == 0 {
		return Plan{}, false
	}
	var kept []string
	for _, t := range r.tags {
		if t.meaning == mEngine && !slices.Contains(out, t.value) {
			kept = appendUnique(kept, t.value)
		}
	}
	with, unrun := "", ""
	if len(kept) == 0 || universal {
		// Every other engine, less those never run at the core counts
		// the question states.
		cores := p.g.extract(r.canonical()).cores
		var added []string
		for _, e := range allEngines {
			switch {
			case slices.Contains(out, e) || slices.Contains(kept, e):
			case !p.ranAt(e, cores):
				unrun = engineName(e) + " was not run at " + joinInts(cores) + " cores"
			default:
				added = append(added, e)
			}
		}
		kept = append(kept, added...)
		with = joinMap(added, engineName)
	}
	if len(kept) == 0 {
		return Plan{}, false
	}
	pl, _ := p.rules(r.splicedAll(cuts, with), prev)
	pl.Question = question
	pl.UnboundReading = "Read “" + strings.Join(said, "”, “") + "” as " + joinMap(kept, engineName) + ", leaving out " + joinMap(out, engineName)
	if unrun != "" {
		pl.UnboundReading += " (" + unrun + ")"
	}
	return pl, true
}

// listedAfter reports that tokens [from, to) only join one engine to the
// next in a list (", ", "and", "or", "nor", ", and").
func listedAfter(r *reading, from, to int) bool {
	if from >= to {
		return false
	}
	for i := from; i < to; i++ {
		switch r.toks[i].text {
		case ",", "and", "or", "nor", "&", "/":
		default:
			return false
		}
	}
	return true
}

// ranAt reports whether an engine was measured at every core count given.
func (p *Planner) ranAt(engine string, cores []int) bool {
	if p.cov == nil || len(cores) == 0 {
		return true
	}
	for _, n := range cores {
		found := false
		for _, c := range p.coverage() {
			if c.Engine == engine && slices.Contains(c.Cores, n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// splicedAll is the normalized text with each token range in cuts (in
// order, not overlapping) replaced: the first by with, the others by
// nothing.
func (r *reading) splicedAll(cuts [][2]int, with string) string {
	var b strings.Builder
	last := 0
	for i, c := range cuts {
		b.WriteString(r.text[last:r.toks[c[0]].start])
		if i == 0 {
			b.WriteString(with)
		}
		last = r.toks[c[1]-1].end
	}
	b.WriteString(r.text[last:])
	s := strings.Join(strings.Fields(b.String()), " ")
	s = strings.ReplaceAll(s, "vs ,", "vs")
	s = strings.ReplaceAll(s, " ,", ",")
	return strings.Trim(s, " ,")
}

// recogniseNegatedValue reads a value size left out ("not 1kb values",
// "values other than 100 bytes") as the measured size that is not it; when
// several are, it asks which. A negated size is never planned as itself.
func (p *Planner) recogniseNegatedValue(question string, r *reading, prev *Plan) (Plan, bool) {
	if !r.has(mNegation) {
		return Plan{}, false
	}
	for i := range r.toks {
		size, width := sizeAt(r, i)
		if size == 0 {
			continue
		}
		n, ok := r.negationBefore(i)
		if !ok {
			continue
		}
		from, to := r.glued(n.from), i+width
		if to < len(r.toks) && valueWords[r.toks[to].text] {
			to++
		}
		// "values other than 1kb", "values that aren't large": the value
		// word (and a "that are") before the negation belongs to the span.
		if from > 1 && r.toks[from-1].text == "are" && r.toks[from-2].text == "that" {
			from -= 2
		}
		if from > 0 && valueWords[r.toks[from-1].text] {
			from--
		}
		var others []int
		if p.cov != nil {
			for _, v := range p.measuredFor(r.values(mEngine)).values {
				if v != size {
					others = append(others, v)
				}
			}
		}
		said := r.words(from, to)
		switch len(others) {
		case 0:
			return Plan{}, false
		case 1:
			pl, _ := p.rules(r.spliced(from, to, valueSpelling(others[0])), prev)
			pl.Question = question
			pl.UnboundReading = "Read “" + said + "” as " + valuePhrase(others[0]) + ", the only other value size measured here"
			return pl, true
		}
		choices := make([]string, 0, 3)
		for _, v := range others[:min(3, len(others))] {
			choices = append(choices, r.spliced(from, to, valueSpelling(v)))
		}
		pl := clarifyPlan(question, "“"+said+"” can be read as several measured value sizes; which one did you mean?", choices)
		return pl, true
	}
	return Plan{}, false
}

// valueBytes is the size a number and the unit after it name ("1" "kb"
// → 1024, "100" "b" → 100), 0 when the unit is not a size.
// valueWords name the values a size is of.
var valueWords = map[string]bool{"values": true, "value": true, "payloads": true, "payload": true, "objects": true, "items": true}

// sizeWords are the value sizes said in words: small values were the
// 100-byte ones, large the 1 KB ones.
var sizeWords = map[string]int{
	"small": 100, "smaller": 100, "tiny": 100, "little": 100,
	"large": 1024, "larger": 1024, "big": 1024, "bigger": 1024, "huge": 1024,
}

// sizeAt is the value size the tokens at i state — a number with its unit
// ("1kb", "100 bytes": two tokens) or a size word ("small": one) — and how
// many tokens say it; 0 when they state none. A size word counts only
// next to a value word ("non-small values", "values that aren't large"),
// so "a small difference" is no size.
func sizeAt(r *reading, i int) (size, width int) {
	t := r.toks[i]
	if t.kind == tokNumber && i+1 < len(r.toks) {
		return valueBytes(t.text, r.toks[i+1].text), 2
	}
	b, ok := sizeWords[t.text]
	if !ok {
		return 0, 0
	}
	isValue := func(j int) bool { return j >= 0 && j < len(r.toks) && valueWords[r.toks[j].text] }
	for j := i - 4; j <= i+1; j++ {
		if j != i && isValue(j) {
			return b, 1
		}
	}
	return 0, 0
}

func valueBytes(num, unit string) int {
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n <= 0 {
		return 0
	}
	switch unit {
	case "b", "byte", "bytes":
		return int(n)
	case "kb", "kib", "k":
		return int(n * 1024)
	}
	return 0
}

// valueSpelling is how the slot grammar reads a value size.
func valueSpelling(b int) string {
	if b%1024 == 0 {
		return strconv.Itoa(b/1024) + "kb values"
	}
	return strconv.Itoa(b) + " byte values"
}

// recogniseNegatedCount reads a core count or pipeline depth left out
// ("anything but 48 cores", "not at 16 cores", "pipeline not 16"): the one
// other measured value when there is one (said in the first line), else a
// clarify offering the nearest measured ones. A negated count is never
// planned as itself.
func (p *Planner) recogniseNegatedCount(question string, r *reading, prev *Plan) (Plan, bool) {
	if !r.has(mNegation) || p.cov == nil {
		return Plan{}, false
	}
	for i, t := range r.toks {
		if t.kind != tokNumber {
			continue
		}
		n, ok := r.negationBefore(i)
		if !ok || r.words(n.from, n.to) == "without" {
			continue // "with pipelining and without, at 16 cores": the setting's, not the count's
		}
		v, err := strconv.Atoi(t.text)
		if err != nil {
			continue
		}
		var knob string
		from, to := r.glued(n.from), i+1
		if i+1 < len(r.toks) && coreUnit(r.toks[i+1].text) {
			knob, to = "cores", i+2
			if to < len(r.toks) && machineWords[r.toks[to].text] {
				to++ // "no 48 core boxes"
			}
		} else if pw := r.pipelineBefore(n.from); pw >= 0 {
			knob, from = "pipeline", pw
		} else if cw := r.coresBefore(n.from); cw >= 0 && r.countEnds(i) {
			knob, from = "cores", cw // "cores other than 8", "core count not 48"
		} else {
			continue
		}
		said := r.words(from, to)
		// "we can't afford 48 cores, which is fastest at 8": another count
		// is stated, so the negated one only rules itself out — the
		// question is asked at the stated one.
		if knob == "cores" {
			rest := r.spliced(from, to, "")
			if x := p.extract(strings.ToLower(rest)); len(x.cores) > 0 && !slices.Contains(x.cores, v) {
				pl, _ := p.rules(rest, prev)
				pl.Question = question
				pl.UnboundReading = "Left out “" + said + "”: the question asks at " + joinMap(x.cores, func(c int) string { return strconv.Itoa(c) }) + " cores"
				return pl, true
			}
		}
		others := p.otherMeasured(knob, v, r.values(mEngine))
		spell := func(o int) string {
			if knob == "cores" {
				return strconv.Itoa(o) + " cores"
			}
			return "pipeline " + strconv.Itoa(o)
		}
		switch len(others) {
		case 0:
			return Plan{}, false
		case 1:
			pl, _ := p.rules(r.spliced(from, to, spell(others[0])), prev)
			pl.Question = question
			pl.UnboundReading = "Read “" + said + "” as " + spell(others[0]) + ", the only other " + knobWords(knob) + " measured here"
			return pl, true
		}
		choices := make([]string, 0, 3)
		for _, o := range others[:min(3, len(others))] {
			choices = append(choices, r.spliced(from, to, spell(o)))
		}
		pl := clarifyPlan(question, "“"+said+"” can be read as several measured "+knobWords(knob)+"s; which one did you mean?", choices)
		pl.Interpretation = "Ambiguous: “" + said + "” is not one " + knobWords(knob) + " — " + joinMap(choices, func(s string) string { return "“" + s + "”" })
		return pl, true
	}
	return Plan{}, false
}

// glued extends a span's start over the word a contraction is written
// onto ("can" of "can't", "don" of "don't"), so the span reads whole.
func (r *reading) glued(from int) int {
	for from > 0 && r.toks[from].start == r.toks[from-1].end && r.toks[from-1].kind == tokWord {
		from--
	}
	return from
}

// machineWords may follow a core count ("48 core boxes").
var machineWords = map[string]bool{"box": true, "boxes": true, "machine": true, "machines": true, "server": true, "servers": true,
	"instance": true, "instances": true, "node": true, "nodes": true, "vm": true, "vms": true}

// coreUnit is a word that makes the number before it a core count.
func coreUnit(w string) bool {
	switch w {
	case "cores", "core", "c", "cpus", "cpu", "vcpus", "vcpu", "threads", "thread":
		return true
	}
	return false
}

// pipelineBefore returns the pipeline word before token i, past "depth",
// "=" or ":" ("pipeline not 16", "depth other than 1"), or -1.
func (r *reading) pipelineBefore(i int) int {
	i = r.pastKnobLink(i)
	if i > 0 && (r.toks[i-1].text == "depth" || r.tokenIs(i-1, mSetting, "pipeline")) {
		if i > 1 && r.toks[i-1].text == "depth" && r.tokenIs(i-2, mSetting, "pipeline") {
			return i - 2
		}
		return i - 1
	}
	return -1
}

// coresBefore returns the core-count word before token i, past "=", ":",
// "of" or "is" ("cores other than 8", "core count not 48", "cpus != 16"),
// or -1.
func (r *reading) coresBefore(i int) int {
	i = r.pastKnobLink(i)
	switch {
	case i > 1 && r.toks[i-1].text == "count" && r.toks[i-2].text == "core":
		return i - 2
	case i > 0 && r.toks[i-1].text != "c" && r.toks[i-1].text != "threads" && coreUnit(r.toks[i-1].text):
		return i - 1
	}
	return -1
}

// countEnds reports whether the number at token i stands alone, no unit
// of its own after it ("cores other than 8?", not "cores except 100 byte
// values"), so a core word before its negation counts it.
func (r *reading) countEnds(i int) bool {
	return i+1 == len(r.toks) || r.toks[i+1].kind == tokPunct || countFollowers[r.toks[i+1].text]
}

// countFollowers may follow a bare count without giving it a unit.
var countFollowers = map[string]bool{"and": true, "at": true, "on": true, "with": true, "for": true, "please": true, "pls": true, "but": true, "then": true}

// pastKnobLink steps back from token i over the "=", ":", "of" or "is"
// between a knob's word and its count ("pipeline = 16", "depth of 1").
func (r *reading) pastKnobLink(i int) int {
	for i > 0 && (r.toks[i-1].text == "=" || r.toks[i-1].text == ":" || r.toks[i-1].text == "of" || r.toks[i-1].text == "is") {
		i--
	}
	return i
}

// knobWords names a counted knob in a sentence.
func knobWords(knob string) string {
	if knob == "cores" {
		return "core count"
	}
	return "pipeline depth"
}

// otherMeasured lists the measured values of a knob for the engines named
// (all when none is) other than v, nearest first.
func (p *Planner) otherMeasured(knob string, v int, engines []string) []int {
	var out []int
	for _, c := range p.cov.Coverage() {
		if len(engines) > 0 && !slices.Contains(engines, c.Engine) {
			continue
		}
		vals := c.Cores
		if knob == "pipeline" {
			vals = c.Pipelines
		}
		for _, x := range vals {
			if x != v && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	dist := func(x int) int {
		if x > v {
			return x - v
		}
		return v - x
	}
	slices.SortFunc(out, func(a, b int) int {
		if d := dist(a) - dist(b); d != 0 {
			return d
		}
		return a - b
	})
	return out
}
