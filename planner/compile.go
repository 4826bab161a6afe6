package planner

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// The filter text is written in one canonical order: engine, mode, session,
// cores, ratio, value_bytes, pipeline. Mode and session appear only when
// the engine was measured in more than one of them.

// effectValues is the list of values an effect question compares for its
// knob: the values asked, with the default as the baseline when one value
// was asked; nil means every measured value.
func effectValues[T cmp.Ordered](asked []T, def T) []T {
	var out []T
	switch len(asked) {
	case 0:
		return nil
	case 1:
		if asked[0] == def {
			return nil
		}
		out = []T{def, asked[0]}
	default:
		out = slices.Clone(asked)
	}
	if _, isString := any(def).(string); !isString {
		slices.Sort(out) // numbers ascending; mixes keep the baseline first
	}
	return out
}

// filterFor writes the expr filter selecting one series under a request.
func filterFor(s series, r resolved, cov []analytics.SeriesCoverage) string {
	w := r.w
	e := s.engine()
	parts := []string{`engine == ` + strconv.Quote(e)}
	if len(modesOf(seriesOf(cov, e, 0))) > 1 {
		parts = append(parts, `mode == `+strconv.Quote(s.mode()))
	}
	if len(sessionsOf(cov, e)) > 1 {
		parts = append(parts, `session == `+strconv.Itoa(s.cov.Session))
	}
	if v, ok := versionClause(s, cov); ok {
		parts = append(parts, v)
	}
	switch {
	case w.coresRange && len(r.cores) == 2:
		parts = append(parts, "cores >= "+strconv.Itoa(r.cores[0])+" && cores <= "+strconv.Itoa(r.cores[1]))
	case len(r.cores) == 1:
		parts = append(parts, "cores == "+strconv.Itoa(r.cores[0]))
	case len(r.cores) > 1:
		parts = append(parts, "cores in "+intList(r.cores))
	}
	parts = appendClause(parts, "ratio", w.knob == slotRatio, r.ratio, effectValues(w.ratios, defaultRatio), strconv.Quote)
	parts = appendClause(parts, "value_bytes", w.knob == slotValue, r.value, effectValues(w.values, defaultValue), strconv.Itoa)
	parts = appendClause(parts, "pipeline", w.knob == slotPipeline, r.pipeline, effectValues(w.pipelines, defaultPipeline), strconv.Itoa)
	return strings.Join(parts, " && ")
}

// appendClause adds one knob's condition: a single value, or for the knob
// an effect question varies, the list compared (none: every value).
func appendClause[T comparable](parts []string, field string, varied bool, v T, list []T, lit func(T) string) []string {
	var zero T
	switch {
	case varied && len(list) > 0:
		items := make([]string, len(list))
		for i, x := range list {
			items[i] = lit(x)
		}
		return append(parts, field+" in ["+strings.Join(items, ", ")+"]")
	case varied:
		return parts
	case v != zero:
		return append(parts, field+" == "+lit(v))
	}
	return parts
}

func intList(ns []int) string {
	items := make([]string, len(ns))
	for i, n := range ns {
		items[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// modeRank orders a single process before the realistic cluster before the
// ceiling.
func modeRank(m string) int {
	switch m {
	case "single":
		return 0
	case "cluster":
		return 1
	case "cluster-sat":
		return 2
	}
	return 3
}

// queries writes one query per answerable series, in the order the
// question named the engines (answer order when it named none).
func queries(r resolved, metric string, cov []analytics.SeriesCoverage) []Query {
	ok := slices.Clone(r.ok)
	pos := func(e string) int {
		if i := slices.Index(r.engines, e); i >= 0 {
			return i
		}
		return len(r.engines) + engineRank(e)
	}
	// "How much faster is the ceiling than realistic": the first-written
	// mode is the subject, the numerator of the multiple.
	rank := modeRank
	if r.w.multiple && len(r.w.modeOrder) >= 2 {
		rank = func(m string) int {
			if i := slices.Index(r.w.modeOrder, m); i >= 0 {
				return i - len(r.w.modeOrder)
			}
			return modeRank(m)
		}
	}
	slices.SortStableFunc(ok, func(a, b series) int {
		return cmp.Or(cmp.Compare(pos(a.engine()), pos(b.engine())),
			cmp.Compare(a.cov.Session, b.cov.Session),
			cmp.Compare(rank(a.mode()), rank(b.mode())))
	})
	out := make([]Query, 0, len(ok))
	for _, s := range ok {
		out = append(out, Query{
			Label:   versionedLabel(s, cov),
			Filter:  filterFor(s, r, cov),
			Metric:  metric,
			Engine:  s.engine(),
			Mode:    s.mode(),
			Session: s.cov.Session,
		})
	}
	return out
}
