package planner

import (
	"slices"
	"strconv"
	"strings"
)

// The query stage shapes what the answer returns, after the rules chose
// what it is about: which measured table it reads (Dataset), a position
// in a ranking ("the second fastest", "the runner-up", "second worst"),
// the first n of it ("top 3"), and whether it asks for the setting at
// which a bound is crossed ("the fewest cores for 10M ops/s").

// queryPlan describes a data plan as its structured query.
func queryPlan(pl *Plan) *QueryPlan {
	if pl.Dataset == "" {
		return nil
	}
	q := &QueryPlan{Dataset: pl.Dataset, Measure: pl.Slots.Metric, Order: pl.Order, Limit: pl.Limit, Bound: pl.Bound}
	for _, x := range pl.Queries {
		q.Filters = append(q.Filters, x.Filter)
	}
	switch pl.Dataset {
	case "failover":
		q.GroupBy, q.Aggregate, q.Measure = []string{"engine", "down_after_ms"}, "median of the kills", "outage_s"
	case "memory":
		q.GroupBy, q.Aggregate, q.Measure = []string{"engine"}, "measured table", "bytes_per_key"
	case "crossslot":
		q.GroupBy, q.Aggregate, q.Measure = []string{"system", "command"}, "recorded once", "accepted"
	case "diagnostics":
		q.GroupBy, q.Aggregate = []string{"label", "engine", "mode"}, "one run each (not part of the dataset's medians)"
	default:
		q.GroupBy, q.Aggregate = []string{"engine", "mode", "session"}, "median across repetitions"
		if k := pl.Slots.Knob; k != "" {
			q.GroupBy = append(q.GroupBy, k)
		}
	}
	switch pl.Aggregate {
	case "count":
		q.Aggregate = "count of " + pl.Search.Over
	case "distinct":
		q.Aggregate, q.GroupBy = "distinct values", []string{pl.CountField}
	case "threshold":
		q.Aggregate = "fewest cores crossing the bound, per series"
	}
	if pl.Position > 0 {
		q.Offset = pl.Position - 1
		q.Limit = 1
	}
	return q
}

// datasetOf names the measured table a plan reads.
func datasetOf(pl *Plan) string {
	switch pl.Intent {
	case IntentFailover:
		return "failover"
	case IntentMemory:
		return "memory"
	case IntentCrossSlot, IntentDiagnostic:
		return string(pl.Intent)
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentSearch, IntentRecommend, IntentSpread:
		return "runs"
	case IntentNoData:
		switch pl.Requested {
		case IntentFailover:
			return "failover"
		case IntentMemory:
			return "memory"
		}
		return "runs"
	}
	return ""
}

// ordinals are the words for a place in a ranking.
var ordinals = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
	"sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8, "ninth": 9, "9th": 9, "tenth": 10, "10th": 10,
	"runner-up": 2, "runnerup": 2, "silver": 2, "bronze": 3,
}

// ordinalNouns are the words an ordinal counts in a question that is not
// a ranking ("the second session", "per second").
var ordinalNouns = map[string]bool{"session": true, "capture": true, "sessions": true, "run": true, "runs": true,
	"rep": true, "repetition": true, "attempt": true, "try": true, "time": true, "question": true,
	"thing": true, "part": true, "half": true, "sample": true, "kill": true, "round": true}

// leadingCount are the words a count of places stands before ("the 3
// best"): -1 counts from the bottom in a word the rules do not read as a
// direction; 1 leaves the direction to the rules ("the 2 slowest").
var leadingCount = map[string]int{"best": 1, "top": 1, "fastest": 1, "quickest": 1, "leading": 1,
	"worst": 1, "slowest": 1, "bottom": -1}

// directionWords turn a thread's ranking around when a follow-up says
// them alone ("and the 2 slowest?"): the rules read them in a question
// of its own.
var directionWords = map[string]bool{"worst": true, "slowest": true}

// splitRankWords spells a place or a count glued to its word as two
// ("third-highest" → "third highest", "top3" → "top 3").
func splitRankWords(words []accountWord) []accountWord {
	var out []accountWord
	for _, w := range words {
		if head, tail, ok := strings.Cut(w.lower, "-"); ok && ordinals[head] > 0 && tail != "" {
			out = append(out, accountWord{text: head, lower: head}, accountWord{text: tail, lower: tail})
			continue
		}
		for _, lead := range []string{"top", "bottom", "best", "worst"} {
			if n, ok := strings.CutPrefix(w.lower, lead); ok && n != "" && isNumber(n) {
				out = append(out, accountWord{text: lead, lower: lead}, accountWord{text: n, lower: n})
				w = accountWord{}
				break
			}
		}
		if w.lower != "" {
			out = append(out, w)
		}
	}
	return out
}

// rankingShape reads a position or a count of items asked of a ranking;
// worst is set when the position counts from the bottom in words the
// rules do not read as a direction ("second to last", "second from the
// bottom"; "second worst" is read by the rules: worst p99 is the highest).
func rankingShape(words []accountWord) (position, limit int, worst bool) {
	words = splitRankWords(words)
	for i, w := range words {
		prev, next := "", ""
		if i > 0 {
			prev = words[i-1].lower
		}
		if i+1 < len(words) {
			next = words[i+1].lower
		}
		switch {
		case w.lower == "top" || w.lower == "best" || w.lower == "first" && next != "place":
			if n, err := strconv.Atoi(next); err == nil && n > 1 && n <= 20 {
				limit = n
			}
		case w.lower == "bottom" || w.lower == "worst" || w.lower == "last":
			// "bottom 2 by p99", "the last 3": the count from the other end
			// ("worst" is a direction the rules read)
			if n, err := strconv.Atoi(next); err == nil && n > 1 && n <= 20 {
				limit, worst = n, w.lower != "worst"
			}
		case w.lower == "limit" && (prev == "asc" || prev == "desc" || i > 0):
			if n, err := strconv.Atoi(next); err == nil && n > 0 && n <= 20 { // "order by p50_ms asc limit 3"
				limit = n
			}
		case w.lower == "runner" && next == "up":
			position = 2
		case leadingCount[next] != 0 && (prev == "the" || prev == "" || prev == "and"):
			// "the 3 best", "and the 2 slowest": the count before the word
			if n, err := strconv.Atoi(w.lower); err == nil && n > 1 && n <= 20 {
				limit, worst = n, leadingCount[next] < 0
			}
		}
		n, ok := ordinals[w.lower]
		if !ok || n < 2 || prev == "per" || prev == "a" || prev == "each" || prev == "every" || ordinalNouns[next] {
			continue
		}
		position = n
		if next == "to" && i+2 < len(words) && words[i+2].lower == "last" ||
			next == "from" && i+2 < len(words) && (words[i+2].lower == "the" || words[i+2].lower == "bottom") {
			worst = true
		}
	}
	return position, limit, worst
}

// shapeQuery fills the plan's query shape from the question's words.
func (p *Planner) shapeQuery(pl *Plan, text string) {
	defer func() { pl.Query = queryPlan(pl) }()
	pl.Dataset = datasetOf(pl)
	for i := range pl.Parts {
		pl.Parts[i].Dataset = datasetOf(&pl.Parts[i])
	}
	if s := pl.Search; s != nil && s.Op != "" && s.FewestCores {
		pl.Aggregate = "threshold"
	}
	words := accountWords(text) // read once for every shape below
	if countable(pl.Intent) {
		if agg, over, field, reps := countShape(words); agg != "" && !searchCounts(pl) {
			// A session is the question's only when it names one; some
			// readings fill in the engine's own.
			sessionStated := slices.ContainsFunc(words, func(w accountWord) bool {
				return strings.HasPrefix(w.lower, "session") || strings.HasPrefix(w.lower, "capture") || w.lower == "s1" || w.lower == "s2" ||
					strings.HasSuffix(w.lower, ".csv") // a dataset file is its session
			})
			if !sessionStated {
				pl.Slots.Session = 0
			}
			countPlan(pl, agg, over, field, reps)
			return
		}
	}
	if (pl.Intent == IntentLookup || pl.Intent == IntentCompare) && slices.Contains(pl.Defaulted, slotCores) && asksFewest(words) {
		// "fewest cores dragonfly needs for 10M ops/s", "the smallest Redis
		// cluster that does 20M": the cores are what is asked, over the
		// curve, where the bound is crossed.
		if _, ok := p.boundOf(text, words, pl.Slots.Metric); ok {
			r := p.read(text)
			w := p.fresh(r.x, r.text)
			w.question, w.intent, w.knob = pl.Question, IntentScaling, slotCores
			if sc := p.planWant(w); sc.Intent == IntentScaling {
				sc.ThreadEngines = pl.ThreadEngines
				*pl = sc
			}
		}
	}
	if pl.Intent == IntentScaling && pl.Slots.Knob == slotCores && !pl.Crossover {
		if b, ok := p.boundOf(text, words, pl.Slots.Metric); ok {
			pl.Aggregate, pl.Bound = "threshold", &b
			pl.Interpretation = "The fewest cores at which each series " + boundWords(b) + ": " + pl.Interpretation
		}
	}
	if pl.Intent != IntentCompare && pl.Intent != IntentRecommend {
		return
	}
	if o, ok := sortDirection(words); ok {
		// "order by p99_ms desc": the asker's own direction, not the
		// metric's better end; the headline says which end comes first.
		pl.Order = o
		from, to := "Which has the lowest ", "Which has the highest "
		if o == OrderAsc {
			from, to = to, from
		}
		pl.Interpretation = either(o == OrderDesc, "Highest", "Lowest") + " first, as asked: " + strings.Replace(pl.Interpretation, from, to, 1)
	}
	position, limit, worst := rankingShape(words)
	if position == 0 && limit == 0 {
		return
	}
	pl.Position, pl.Limit = position, limit
	if worst {
		pl.Order = flipOrder(pl.Order, pl.Slots.Metric)
	}
	switch {
	case position > 0:
		pl.Interpretation = "Place " + strconv.Itoa(position) + " of the ranking" + either(worst, " from the bottom", "") + ": " + pl.Interpretation
	case limit > 0:
		pl.Interpretation = "The first " + strconv.Itoa(limit) + " of the ranking: " + pl.Interpretation
	}
}

// sortWords are the words a sort direction is written with, as in SQL
// and spreadsheets.
var sortWords = map[string]Order{"desc": OrderDesc, "descending": OrderDesc, "asc": OrderAsc, "ascending": OrderAsc}

// sortDirection reads a ranking's direction stated as a sort ("order by
// p99_ms desc", "sorted ascending").
func sortDirection(words []accountWord) (Order, bool) {
	for _, w := range words {
		if o, ok := sortWords[w.lower]; ok {
			return o, true
		}
	}
	return "", false
}

// asksFewest reports a question for the least hardware: "fewest cores",
// "minimum number of threads", "the smallest Redis cluster that …".
func asksFewest(words []accountWord) bool {
	for i, w := range words {
		switch w.lower {
		case "fewest", "least", "smallest", "minimum", "min", "tiniest", "cheapest":
		default:
			continue
		}
		for _, n := range words[i+1 : min(i+5, len(words))] {
			switch strings.TrimSuffix(n.lower, "s") {
			case "core", "cpu", "vcpu", "thread", "shard", "box", "machine", "instance", "setup", "node", "server", "config":
				return true
			}
			if strings.HasPrefix(n.lower, "cluster") {
				return true
			}
		}
	}
	return false
}

// boundOf reads the bound a curve must cross ("drop below 10 ms", "to hit
// 10M", "beats 5M"): a comparison the threshold reader binds to a metric,
// or a target named after "for", "to", "reach", "hit", "need" with the
// metric's own direction.
func (p *Planner) boundOf(text string, words []accountWord, metric string) (Bound, bool) {
	r := p.read(text) // the comparisons bind through the slot grammar's extraction
	for _, c := range p.comparisons(r) {
		if c.metric() {
			return Bound{Metric: c.field, Op: c.op, Value: c.value}, true
		}
	}
	for i, w := range words {
		vals, ok := numberToken(w.lower)
		if !ok || i == 0 {
			continue
		}
		switch words[i-1].lower {
		case "for", "to", "reach", "reaches", "hit", "hits", "hitting", "reaching", "beat", "beats", "beating", "crack", "cracks", "top", "tops", "exceed", "exceeds", "past", "clear", "clears", "sustain", "sustains", "deliver", "delivers", "do", "does":
		default:
			continue
		}
		v := vals[0]
		m := metric
		unit := strings.TrimLeft(w.lower, "0123456789.,")
		if unit == "ms" || i+1 < len(words) && words[i+1].lower == "ms" {
			if !strings.HasSuffix(m, "_ms") {
				m = "p99_ms"
			}
		} else if m == "" || strings.HasSuffix(m, "_ms") {
			m = "ops_per_sec"
		}
		if m == "ops_per_sec" && v < 1000 {
			continue // "for 8 cores", "to 16"
		}
		op := ">="
		if strings.HasSuffix(m, "_ms") {
			op = "<="
		}
		return Bound{Metric: m, Op: op, Value: v}, true
	}
	return Bound{}, false
}

// boundWords says a bound: "has a throughput (ops/s) of at least 10M ops/s".
func boundWords(b Bound) string {
	return "has a " + metricPhrase(b.Metric) + " " + opWords(b.Op) + " " + thresholdText(b.Metric, b.Value)
}

// flipOrder turns a ranking upside down ("second worst").
func flipOrder(o Order, metric string) Order {
	if o == "" {
		if strings.HasSuffix(metric, "_ms") {
			o = OrderAsc
		} else {
			o = OrderDesc
		}
	}
	if o == OrderAsc {
		return OrderDesc
	}
	return OrderAsc
}

// countable are the kinds a count question may have been read as: any
// reading of the measured runs (a count of runs read as provenance too).
// A spread lists each repetition with its count already.
func countable(in Intent) bool {
	switch in {
	case IntentLookup, IntentCompare, IntentScaling, IntentEffect, IntentSearch, IntentRecommend, IntentProvenance, IntentNoData, IntentClarify,
		IntentSpread:
		return true
	}
	return false
}

// searchCounts reports a search that counts its matches already ("how
// many runs had p99 under 1 ms").
func searchCounts(pl *Plan) bool {
	return pl.Search != nil && (pl.Search.Op != "" || len(pl.Search.Conditions) > 0)
}

// countNouns are what a count question counts: runs (each repetition) or
// cells (a setup: one combination of settings, its repetitions together).
var countNouns = map[string]string{
	// "repetitions" and "reps" ask the method (how many per cell): provenance
	"runs": "runs", "run": "runs", "measurements": "runs", "tests": "runs",
	"attempts": "runs", "rows": "runs", "samples": "runs", "benchmarks": "runs",
	"cells": "cells", "setups": "cells", "combinations": "cells", "configurations": "cells", "configs": "cells",
}

// distinctNouns are the dimensions a "which … were used" question lists,
// by the filter field they name.
var distinctNouns = map[string]string{
	"core": "cores", "cores": "cores", "pipeline": "pipeline", "pipelines": "pipeline", "depths": "pipeline",
	"value": "value_bytes", "values": "value_bytes", "sizes": "value_bytes", "ratios": "ratio", "workloads": "ratio",
	"mixes": "ratio", "sessions": "session", "modes": "mode", "engines": "engine", "series": "mode",
	// the dataset's own field names ("which cores_used did keydb use")
	"cores_used": "cores", "data_bytes": "value_bytes", "value_bytes": "value_bytes",
}

// distinctFields are the fields "select distinct" lists.
var distinctFields = map[string]string{"cores_used": "cores", "cores": "cores", "data_bytes": "value_bytes", "value_bytes": "value_bytes",
	"pipeline": "pipeline", "ratio": "ratio", "mode": "mode", "engine": "engine", "session": "session"}

// countFillers may stand between a count's cue and what it counts ("how
// many distinct core counts", "number of the measured cells"); the
// distinct ones make it a count of values.
var countFillers = map[string]bool{"the": false, "of": false, "measured": false, "separate": false, "individual": false,
	"distinct": true, "different": true, "unique": true}

// listVerbs say that a "which …" question lists what was measured rather
// than ranks it ("which core counts did keydb use", "… appear", "… exist").
var listVerbs = map[string]bool{"used": true, "use": true, "uses": true, "measured": true, "run": true, "ran": true, "tested": true,
	"cover": true, "covers": true, "covered": true, "include": true, "includes": true, "included": true, "benchmarked": true,
	"tried": true, "exist": true, "exists": true, "available": true, "appear": true, "appears": true, "occur": true, "occurs": true,
	"present": true, "there": true}

// countShape reads a count ("how many runs of keydb", "number of cells
// measured only once", "count rows p99_ms<1") or a list of values ("which
// pipeline depths did session 2 use", "how many distinct core counts
// appear for keydb", "every core count dragonfly was run at"). What is
// counted may stand a few words after the cue, past fillers.
func countShape(words []accountWord) (aggregate, over, field string, reps int) {
	listed := false // asked for as a list in so many words
	at := func(k int) string {
		if k >= 0 && k < len(words) {
			return words[k].lower
		}
		return ""
	}
	// counted reads what stands from word k on: a count noun, or a
	// dimension (a count of its values), past fillers.
	counted := func(k int) (agg, o, f string) {
		distinct := false
		for ; k < len(words); k++ {
			d, filler := countFillers[at(k)]
			if !filler {
				break
			}
			distinct = distinct || d
		}
		if _, ok := countNouns[at(k)]; !ok && distinctNouns[at(k)] == "" {
			k++ // "number of garnet rows": one word between
		}
		if per := at(k + 1); per == "per" || per == "each" || per == "a" {
			return "", "", "" // "how many runs per cell" asks the method
		}
		if o, ok := countNouns[at(k)]; ok {
			return "count", o, "" // "how many distinct combinations" are cells
		}
		if f, ok := distinctNouns[at(k)]; ok && (distinct || at(k+1) == "counts" || at(k+1) == "depths" || at(k+1) == "sizes" || f != "cores" && f != "pipeline" && f != "value_bytes") {
			return "distinct", "", f // "how many distinct core counts", "how many ratios"
		}
		return "", "", ""
	}
	for i, w := range words {
		switch {
		case aggregate != "":
		case w.lower == "count" && at(i+1) == "where" && (i == 0 || at(i-1) == "select"):
			aggregate, over = "count", "runs" // "count(*) where engine = 'dragonfly'": a row is a run
		case w.lower == "distinct" && distinctFields[at(i+1)] != "":
			aggregate, field, listed = "distinct", distinctFields[at(i+1)], true // "select distinct cores_used"
		case w.lower == "how" && at(i+1) == "many", w.lower == "number" && at(i+1) == "of":
			if at(i+2) == "times" {
				continue // "how many times faster"
			}
			aggregate, over, field = counted(i + 2)
			listed = aggregate == "distinct"
		case w.lower == "count" && (at(i-1) == "" || at(i-1) == "please" || at(i-1) == "and" || at(i-1) == "just"):
			// "count the cells where …", "count rows p99_ms<1": the verb
			aggregate, over, field = counted(i + 1)
			listed = aggregate == "distinct"
		case w.lower == "which" || w.lower == "what" || w.lower == "every" || w.lower == "all" || w.lower == "list":
			k, distinct := i+1, false
			for d, filler := countFillers[at(k)]; filler; d, filler = countFillers[at(k)] {
				distinct = distinct || d
				k++
			}
			if f, ok := distinctNouns[at(k)]; ok {
				// "core counts", "pipeline depths", "distinct value sizes"
				aggregate, field, listed = "distinct", f, distinct
			}
		}
		if (w.lower == "once" || w.lower == "single") && (i > 0 && (at(i-1) == "only" || at(i-1) == "just" || at(i-1) == "a")) {
			reps = 1
		}
	}
	if aggregate == "distinct" && !listed && !slices.ContainsFunc(words, func(w accountWord) bool { return listVerbs[w.lower] }) {
		aggregate, field = "", "" // "which engines are fastest" is a ranking
	}
	return aggregate, over, field, reps
}

// countPlan turns a plan into a count or a list over the measured runs,
// filtered by what the question stated.
func countPlan(pl *Plan, aggregate, over, field string, reps int) {
	var conds []string
	s := pl.Slots
	stated := func(slot string) bool { return !slices.Contains(pl.Defaulted, slot) }
	// The count keeps the settings the question stated, as its filter does.
	kept := Slots{Engines: s.Engines}
	// The conditions are the knob clauses every filter is written with
	// (appendClause): one value as ==, several as in [...].
	if stated(slotEngines) {
		conds = appendClause(conds, "engine", len(s.Engines) > 1, only(s.Engines), s.Engines, strconv.Quote)
	}
	if stated(slotModes) {
		kept.Modes = s.Modes
		conds = appendClause(conds, "mode", len(s.Modes) > 1, only(s.Modes), s.Modes, strconv.Quote)
	}
	if stated(slotCores) {
		kept.Cores = s.Cores
		conds = appendClause(conds, "cores", len(s.Cores) > 1, only(s.Cores), s.Cores, strconv.Itoa)
	}
	if stated(slotRatio) {
		kept.Ratio = s.Ratio
		conds = appendClause(conds, "ratio", false, s.Ratio, nil, strconv.Quote)
	}
	if stated(slotValue) {
		kept.ValueBytes = s.ValueBytes
		conds = appendClause(conds, "value_bytes", false, s.ValueBytes, nil, strconv.Itoa)
	}
	if stated(slotPipeline) {
		kept.Pipeline = s.Pipeline
		conds = appendClause(conds, "pipeline", false, s.Pipeline, nil, strconv.Itoa)
	}
	if stated(slotSession) {
		kept.Session = s.Session
		conds = appendClause(conds, "session", false, s.Session, nil, strconv.Itoa)
	}
	filter := "true"
	if len(conds) > 0 {
		filter = strings.Join(conds, " && ")
	}
	if over == "" {
		over = "cells"
	}
	*pl = Plan{Intent: IntentSearch, Question: pl.Question, Source: pl.Source, Slots: kept,
		Aggregate: aggregate, Dataset: "runs", Search: &Search{Over: over, Scope: "every measured cell"},
		Queries: []Query{{Label: "scope", Filter: filter, Metric: "ops_per_sec"}}, CountField: field, CellReps: reps,
		ThreadEngines: pl.ThreadEngines}
	what := over
	if aggregate == "distinct" {
		what = "the distinct " + field + " values"
	}
	pl.Interpretation = "Count of " + what + " measured where " + filter
	if reps > 0 {
		pl.Interpretation += ", of the cells measured " + strconv.Itoa(reps) + " time(s)"
	}
}

// only is the one value of a list of one, else the zero value.
func only[T any](xs []T) T {
	var zero T
	if len(xs) == 1 {
		return xs[0]
	}
	return zero
}
