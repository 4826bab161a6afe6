package planner

import "strconv"

// Search is a dataset-wide search: the extreme values of one metric over
// every cell (medians) or every run (repetitions) the plan's one query
// selects, optionally only those past a threshold.
type Search struct {
	// Metric is a filter-vocabulary metric (ops_per_sec, p999_ms, hit_rate…).
	Metric string `json:"metric"`
	// Order is desc for the highest values first, asc for the lowest.
	Order Order `json:"order"`
	// Over is "cells" (medians across repetitions) or "runs" (each
	// repetition's own value).
	Over string `json:"over"`
	// Op and Value are a threshold on Metric from the question (">=" 10M
	// ops/s); Op is empty when the search is a plain extreme.
	Op    string  `json:"op,omitempty"`
	Value float64 `json:"value,omitempty"`
	// FewestCores ranks the matches by core count first ("with the fewest
	// cores").
	FewestCores bool `json:"fewest_cores,omitempty"`
	// Limit is how many extreme rows the answer shows.
	Limit int `json:"limit"`
	// Scope says in words what was searched before the answer counts it
	// ("every measured cell").
	Scope string `json:"scope"`
	// Note is what the answer must say about the metric asked ("the runs
	// record percentiles up to p99.9, not a maximum").
	Note string `json:"note,omitempty"`
	// Conditions are thresholds the question set on run fields that are
	// not a search metric ("lasted more than 60 s": test_time_s > 60):
	// the runs they keep are the matches, and the answer shows them as
	// the filter conditions they are.
	Conditions []Condition `json:"conditions,omitempty"`
	// Stat asks for a statistic of Metric over the runs the Conditions
	// keep ("median p50 of the runs with p99 under 1 ms"): "median", the
	// one the runs honestly give, computed per series and session. Empty
	// for a ranking.
	Stat string `json:"stat,omitempty"`
	// StatWord is the statistic as the question named it ("average"),
	// when it was read as the median.
	StatWord string `json:"stat_word,omitempty"`
	// Pooled asks for one statistic over every kept run ("overall",
	// "across all runs"), given next to the per-series ones.
	Pooled bool `json:"pooled,omitempty"`
}

// Condition is a threshold on one field of the filter vocabulary.
type Condition struct {
	Field string  `json:"field"`
	Op    string  `json:"op"`
	Value float64 `json:"value"`
}

// Filter is the condition as a filter writes it: "test_time_s > 60".
func (c Condition) Filter() string {
	return c.Field + " " + c.Op + " " + strconv.FormatFloat(c.Value, 'f', -1, 64)
}

// Words is the condition as the answer says it: "a test duration above
// 60 s".
func (c Condition) Words() string {
	if (comparison{field: c.Field}).metric() {
		return metricPhrase(c.Field) + " " + opWords(c.Op) + " " + thresholdText(c.Field, c.Value)
	}
	f := conditionFieldOf(c.Field)
	return f.words + " " + opWords(c.Op) + " " + strconv.FormatFloat(c.Value, 'f', -1, 64) + f.unit
}

// Premise is the statement of a leading yes/no question: Subject is better
// (Better true) or worse than Object on Metric — everywhere both were
// measured when Always, at the plan's conditions otherwise.
type Premise struct {
	Subject string `json:"subject"`
	// Object is the engine compared with; empty means every other engine.
	Object string `json:"object,omitempty"`
	Metric string `json:"metric"`
	Better bool   `json:"better"`
	// Same is a premise that the two are level ("are they about the
	// same?"): it holds where they are within 5% of each other.
	Same   bool `json:"same,omitempty"`
	Always bool `json:"always,omitempty"`
	// Statement is the premise in words, as the answer restates it.
	Statement string `json:"statement"`
}

// Units are how a question wants its figures: Time "us", "ms" or "s";
// Throughput "ops", "K" or "M"; Share "X reaches what share of Y" (the
// first query's series over the second's, as a percentage); Slower "how
// much slower is X than Y" (Y over X).
type Units struct {
	Time       string `json:"time,omitempty"`
	Throughput string `json:"throughput,omitempty"`
	Share      bool   `json:"share,omitempty"`
	Slower     bool   `json:"slower,omitempty"`
	// Of is the engine a share or a "how much slower" is taken against
	// (the whole, the reference): the one written after "of" or "than".
	Of string `json:"of,omitempty"`
	// Keys restates throughput as keys per second: ops/s × the keys each
	// command carries (10 for MGET/MSET of 10 keys, 1 otherwise).
	Keys bool `json:"keys,omitempty"`
	// Unsupported is the sentence refusing a unit the measurements
	// cannot be converted to ("per watt": no power was measured).
	Unsupported string `json:"unsupported,omitempty"`
}

// Prediction is an unmeasured value an extrapolation request asked for:
// Knob ("cores", "pipeline", "value_bytes") at Value, refused by name; the
// plan's queries select the measured trend up to the last measured point.
type Prediction struct {
	Knob  string `json:"knob"`
	Value int    `json:"value"`
	// LastMeasured is the highest measured value of Knob for the series.
	LastMeasured int `json:"last_measured"`
}
