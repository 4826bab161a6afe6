package planner

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A threshold in a search question binds to the quantity it is about,
// never silently to throughput: first the unit after its number ("60 s",
// "1M KB/s", "99%", "20 connections"), then the quantity named just before
// the comparison ("test time over 60", "hit rate below 99", "connection
// errors above 0"), then the metric the question names; only a bare
// number or an ops unit falls back to throughput. A unit that contradicts
// a metric (seconds against ops/s) never binds to it. A run field that
// is not a search metric (test_time_s, conn_errors, client_conns, …) is
// kept as a filter condition the answer shows verbatim.

// conditionField is a run field a threshold may bind to that is not a
// search metric: how the answer names it and the unit after its value.
type conditionField struct {
	field, words, unit string
}

func conditionFields() []conditionField {
	return []conditionField{
		{"test_time_s", "a test duration", " s"},
		{"conn_errors", "connection errors", ""},
		{"client_conns", "client connections (per client thread)", ""},
		{"client_threads", "client threads", ""},
		{"server_threads", "server threads", ""},
		{"shards", "shards", ""},
		{"key_max", "a key range", " keys"},
	}
}

func conditionFieldOf(field string) conditionField {
	for _, f := range conditionFields() {
		if f.field == field {
			return f
		}
	}
	return conditionField{field: field, words: field}
}

// opWords says a comparison in words.
func opWords(op string) string {
	return map[string]string{">=": "of at least", ">": "above", "<=": "of at most", "<": "below"}[op]
}

// comparison is one threshold of a question, bound to its field.
type comparison struct {
	field string  // filter vocabulary
	op    string  // ">", ">=", "<", "<="
	value float64 // in the field's own unit
}

// metric reports whether the comparison is on a search metric (ranked,
// and compared on cells' medians) rather than a run field.
func (c comparison) metric() bool {
	switch c.field {
	case "ops_per_sec", "ops_per_core", "p50_ms", "p99_ms", "p999_ms", "hit_rate", "kb_per_sec":
		return true
	}
	return false
}

// compareRx finds a comparison and its number (a sign needs no word
// boundary before it: "p99 < 1ms"); the unit is read from the
// words after it, the subject from the words before. Behind their gates
// (rx), most questions run neither pattern: they hold no comparison word.
var compareRx = newRx(compareExpr)

const compareExpr = `(\b(?:no more than|not more than|no less than|not less than|at most|at least|up to|within|below|under|less than|fewer than|lower than|shorter than|smaller than|beneath|reach|reaches|reached|reaching|hit|hits|exceed|exceeds|exceeded|exceeding|above|over|more than|pass|passes|passed|cross|crosses|crossed|beyond|top|tops|topped|surpass\w*|break|breaks|broke|crack|cracks|cracked|eclipse|eclipses|eclipsed|clear|clears|cleared|north of|upwards of|in excess of|past|beat|beats|faster than|greater than|higher than|bigger than|larger than|longer than|worse than)|<=|>=|<|>)\s*(\d+(?:\.\d+)?)(?:\s*(million|mil|thousand|m|k)\b)?`

// orMoreRx finds a comparison written after its number and unit ("20
// seconds or more", "1 ms or less", "10M ops/s and up").
var orMoreRx = newRx(`\b(\d+(?:\.\d+)?)(?:\s*(million|mil|thousand|m|k)\b)?\s*((?:[a-z%/_.][a-z0-9%/_.]*\s+){0,3}?)(?:or|and) (more|above|higher|greater|longer|over|up|better|worse|less|fewer|lower|below|shorter|under|faster|slower)\b`)

// compareOp is the filter comparison a comparison word means: "at least
// 5" keeps 5, "more than 5" does not.
func compareOp(word string) string {
	switch word {
	case "at least", "no less than", "not less than", "reach", "reaches", "reached", "reaching", "hit", "hits", ">=", "upwards of":
		return ">="
	case "at most", "no more than", "not more than", "up to", "within", "<=":
		return "<="
	case "below", "under", "less than", "fewer than", "lower than", "shorter than", "smaller than", "beneath", "<":
		return "<"
	}
	return ">"
}

// postfixOp is the comparison a word after the number means: "20 s or
// more" keeps 20 s, and so does "1 ms or less"; "or better" is the
// field's better side (lower for a latency).
func postfixOp(word, field string) string {
	switch word {
	case "better":
		if lowerIsBetter(field) {
			return "<="
		}
	case "worse":
		if !lowerIsBetter(field) {
			return "<="
		}
	case "less", "fewer", "lower", "below", "shorter", "under", "slower":
		return "<="
	}
	return ">="
}

// unitRule binds a comparison by the unit written after its number.
type unitRule struct {
	rx    *regexp.Regexp
	field string  // a field, or one of the dimensions below
	scale float64 // to the field's unit
}

// Dimensions a unit fixes before the question says which field: a time
// in seconds is a latency or a test duration, a rate of operations is
// throughput or throughput per core.
const (
	dimLatency = "latency"
	dimSeconds = "seconds"
	dimOps     = "ops"
	dimPercent = "percent"
	dimSkip    = "skip" // a condition the slots hold ("16 cores", "1 KB") or a count of rows ("top 5 runs")
)

func unitRules() []unitRule {
	u := func(expr, field string, scale float64) unitRule {
		return unitRule{regexp.MustCompile(`^(?:` + expr + `)`), field, scale}
	}
	return []unitRule{
		u(`(?:ms|msec|msecs|millis|milliseconds?)\b`, dimLatency, 1),
		u(`(?:us|usec|usecs|micro ?s(?:ec(?:ond)?s?)?|microseconds?)\b`, dimLatency, 0.001),
		u(`(?:s|sec|secs|seconds?)\b`, dimSeconds, 1),
		u(`(?:min|mins|minutes?)\b`, dimSeconds, 60),
		u(`(?:h|hrs?|hours?)\b`, dimSeconds, 3600),
		u(`(?:kb/s|kb/sec|kbps|kb per sec(?:ond)?|kilobytes? (?:per|a|/) ?sec(?:ond)?)`, "kb_per_sec", 1),
		u(`(?:ops/s per core|ops/sec per core|ops per core|ops/s/core|operations per second per core|per core)\b`, "ops_per_core", 1),
		u(`(?:%|percent\b)`, dimPercent, 0.01),
		u(`(?:connection errors?|conn(?:ection)?[ _]errors?|errors?|failed connections?|connection failures?)\b`, "conn_errors", 1),
		u(`(?:client connections?|connections?|conns?|client_conns)\b`, "client_conns", 1),
		u(`(?:client threads?|memtier threads?|load threads?|client_threads)\b`, "client_threads", 1),
		u(`(?:server threads?|server_threads)\b`, "server_threads", 1),
		u(`shards?\b`, "shards", 1),
		u(`(?:distinct keys|keys?|key range|keyspace)\b(?:\s+per\b)?`, "key_max", 1),
		u(`(?:ops|ops/s|ops/sec|op/s|operations|qps|rps|req/s|requests? (?:per|a|/) ?s(?:ec(?:ond)?)?|requests/s|gets/s|sets/s|commands/s)\b`, dimOps, 1),
		u(`(?:core|cpu|thread|kb|mb|gb|b\b|byte|bytes|x\b|times\b|run|runs|cell|cells|result|results|row|rows|setup|setups|config|configs|configuration|configurations|rep|reps|repetition|repetitions|engine|engines|entries|items|values?|sessions?|clients?|nodes?|machines?|pipelines?|commands?|days?)`, dimSkip, 1),
	}
}

// subjectRule binds a comparison with no unit by the quantity named in
// the words just before it.
type subjectRule struct {
	rx    *regexp.Regexp
	field string
}

func subjectRules() []subjectRule {
	s := func(expr, field string) subjectRule {
		return subjectRule{regexp.MustCompile(`\b(?:` + expr + `)\b`), field}
	}
	return []subjectRule{
		s(`test[ _-]?times?|test_time_s|durations?|test lengths?|lasted|lasting|lasts?|ran for|running for|run for|running times?|run ?times?|long|went on|go on|goes on|(?:runs?|tests?|benchmarks?) (?:took|take|takes|taking)`, "test_time_s"),
		s(`connection errors?|conn(?:ection)?[ _]errors?|errors?|failed connections?|connection failures?`, "conn_errors"),
		s(`client threads?|memtier threads?|client_threads`, "client_threads"),
		s(`server threads?|server_threads`, "server_threads"),
		s(`client connections?|connections?|conns|client_conns`, "client_conns"),
		s(`shards?|shard counts?`, "shards"),
		s(`key ?(?:range|space|max|count)s?|keyspace|number of keys|key_max`, "key_max"),
		s(`hit (?:rate|ratio)s?|hit_rate`, "hit_rate"),
		s(`kb/s|kb per sec(?:ond)?|kb_per_sec|network throughput|bandwidth`, "kb_per_sec"),
		s(`per[- ]core (?:throughput|ops)|ops per core|throughput per core|ops_per_core`, "ops_per_core"),
		s(`p50|median latency|p99\.9|p999|p99|latency|latencies|tail|response times?|(?:requests?|commands?|calls?|responses?|replies|ops|operations) (?:took|take|takes|taking)`, dimLatency),
		s(`throughput|ops/s|ops per sec(?:ond)?|qps`, dimOps),
		// A setting the slots hold: its number is no threshold of ours.
		s(`pipelin\w*|depth|cores?|cpus?|value sizes?|values?|payloads?|sessions?|reps|repetitions`, dimSkip),
	}
}

var (
	unitRulesOnce    = sync.OnceValue(unitRules)
	subjectRulesOnce = sync.OnceValue(subjectRules)
)

// comparisons finds every threshold of a question, bound to its field;
// one whose quantity the question does not make clear is left out, never
// guessed.
func comparisons(r reading) []comparison {
	t := r.text
	if strings.Contains(t, "second") || strings.Contains(t, "minute") || strings.Contains(t, "ms") {
		t = oneUnitRx().ReplaceAllString(t, "1 $1") // "under a millisecond"
	}
	if !strings.ContainsAny(t, "0123456789") {
		return nil // every comparison has its number: most questions have none
	}
	type found struct {
		at int // where the number starts
		c  comparison
	}
	var all []found
	postfix := map[int]bool{}
	// "10 ms or more" first: its number is not also "hit 10 ms".
	for _, m := range orMoreRx.FindAllStringSubmatchIndex(t, -1) {
		v, mult := numberAt(t, m[2], m[3], m[4], m[5])
		after := strings.TrimSpace(t[m[6]:m[7]])
		if after == "" {
			after = strings.TrimSpace(t[m[1]:]) // "5 or more shards"
		}
		field, scale, ok := bindComparison(r, t[:m[0]], after, v, mult)
		if !ok {
			continue
		}
		postfix[m[2]] = true
		all = append(all, found{m[2], comparison{field: field, op: postfixOp(t[m[8]:m[9]], field), value: scaled(v, scale)}})
	}
	for _, m := range compareRx.FindAllStringSubmatchIndex(t, -1) {
		if postfix[m[4]] {
			continue
		}
		word := t[m[2]:m[3]]
		v, mult := numberAt(t, m[4], m[5], m[6], m[7])
		after := strings.TrimSpace(t[m[1]:])
		field, scale, ok := bindComparison(r, t[:m[0]], after, v, mult)
		if !ok || word == "top" && !mult && !unitWritten(after) {
			continue // "the top 5 by p99" counts rows
		}
		all = append(all, found{m[4], comparison{field: field, op: compareOp(word), value: scaled(v, scale)}})
	}
	slices.SortStableFunc(all, func(x, y found) int { return x.at - y.at })
	out := make([]comparison, len(all))
	for i, f := range all {
		out[i] = f.c
	}
	return out
}

// settingNamedRx finds a setting's name followed by its own value.
var settingNamedRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:sessions?|pipelines?|pipeline depth|cores|core count|cores_used|value_bytes|data_bytes)\s*(?:=|:)?\s*\d`)
})

// oneUnitRx finds a time written as one of its unit ("a millisecond",
// "one second"), so that a threshold of it is read as 1.
var oneUnitRx = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:a|an|one) (milliseconds?|ms|microseconds?|seconds?|minutes?)\b`)
})

// numberAt reads the number of a match and its multiplier ("10m", "2
// million"); multiplied reports one was written.
func numberAt(t string, from, to, multFrom, multTo int) (v float64, multiplied bool) {
	v, _ = strconv.ParseFloat(t[from:to], 64)
	if multFrom < 0 {
		return v, false
	}
	switch t[multFrom:multTo] {
	case "m", "million", "mil":
		v *= 1e6
	case "k", "thousand":
		v *= 1e3
	}
	return v, true
}

// scaled converts a number as written to its field's unit without the
// float noise of the product (99.9% is 0.999, not 0.9990000000000001).
func scaled(v, scale float64) float64 {
	x, _ := strconv.ParseFloat(strconv.FormatFloat(v*scale, 'g', 12, 64), 64)
	return x
}

// unitWritten reports whether a unit follows a number.
func unitWritten(after string) bool {
	for _, u := range unitRulesOnce() {
		if u.rx.MatchString(after) {
			return true
		}
	}
	return false
}

// bindComparison decides a comparison's field from the unit after its
// number, then the subject before it, then the question's metric, with
// the scale from the number as written to the field's unit.
func bindComparison(r reading, before, after string, v float64, multiplied bool) (field string, scale float64, ok bool) {
	subject := subjectBefore(before)
	named := r.metric()
	latency := named
	if !isLatencyMetric(latency) {
		latency = "p99_ms"
	}
	if pc := percentileBefore(before); pc != "" {
		latency = pc // "median p50 of runs whose p99 stays under 1 ms": the p99's threshold
	}
	// "p99 < 1 session 1": a setting's name with a number of its own
	// opens the next condition; it is not this number's unit.
	ownNumber := settingNamedRx().MatchString(after)
	for _, u := range unitRulesOnce() {
		if ownNumber || !u.rx.MatchString(after) {
			continue
		}
		switch u.field {
		case dimSkip:
			return "", 0, false
		case dimLatency:
			return latency, u.scale, true
		case dimSeconds:
			// A time in seconds is a latency only where the question
			// says so; otherwise how long a run lasted.
			if subject == dimLatency || subject != "test_time_s" && isLatencyMetric(named) {
				return latency, u.scale * 1000, true
			}
			return "test_time_s", u.scale, true
		case dimOps:
			if subject == "ops_per_core" || named == "ops_per_core" {
				return "ops_per_core", 1, true
			}
			return "ops_per_sec", 1, true
		case dimPercent:
			if subject == "hit_rate" || named == "hit_rate" || strings.Contains(r.text, "hit") || strings.Contains(r.text, "miss") {
				return "hit_rate", u.scale, true
			}
			return "", 0, false // a share of nothing the runs record
		case "key_max":
			if strings.HasSuffix(u.rx.FindString(after), "per") {
				return "", 0, false // "10 keys per command" is the workload
			}
		}
		return u.field, u.scale, true
	}
	// No unit: the quantity just named, else the question's metric.
	field = subject
	if field == "" || field == dimSkip && multiplied {
		field = named // "with 1kb values pass 10m": a setting's number is never in millions
	}
	switch {
	case field == dimSkip:
		return "", 0, false
	case field == dimLatency || isLatencyMetric(field) || unrecordedMetric(field) != "":
		return latency, 1, true
	case field == "" || field == dimOps:
		return "ops_per_sec", 1, true
	case field == "hit_rate" && v > 1:
		return field, 0.01, true // "hit rate below 99" is a percentage
	}
	return field, 1, true
}

// subjectBefore is the quantity named just before a comparison
// ("connection errors above", "hit rate was below"): the last one named
// with at most three words, none a number, between it and the comparison.
// percentileBefore is the latency percentile named in the few words
// before a comparison ("whose p99 stays under"), so that a question
// naming two percentiles binds each threshold to its own.
func percentileBefore(before string) string {
	ws := strings.Fields(before)
	window := strings.Join(ws[max(0, len(ws)-3):], " ")
	found := ""
	for _, m := range metricMentionRx().FindAllString(window, -1) {
		if f := mentionField(m); isLatencyMetric(f) {
			found = f
		}
	}
	return found
}

func subjectBefore(before string) string {
	ws := strings.Fields(before)
	window := strings.Join(ws[max(0, len(ws)-6):], " ")
	best, at := "", -1
	for _, s := range subjectRulesOnce() {
		for _, loc := range s.rx.FindAllStringIndex(window, -1) {
			rest := window[loc[1]:]
			if loc[1] <= at || len(strings.Fields(rest)) > 3 || strings.ContainsAny(rest, "0123456789") {
				continue
			}
			best, at = s.field, loc[1]
		}
	}
	return best
}
