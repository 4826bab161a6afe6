package analytics_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
)

func TestFilterErrorsSayWhatIsWrongAndWhere(t *testing.T) {
	allowed := "abs, ceil, floor, round, int, float, len, max, min, lower, upper, trim, trimPrefix, trimSuffix, hasPrefix, hasSuffix, indexOf, lastIndexOf"
	tests := []struct {
		name   string
		filter string
		msg    string
		pos    int
	}{
		{"an unknown field names the closest real one", `core == 4`,
			`unknown field "core" (did you mean "cores"?)`, 0},
		{"an unknown field deep in the filter points at it", `engine == "redis" && pipline == 16`,
			`unknown field "pipline" (did you mean "pipeline"?)`, 21},
		{"a quoted number compared with a number field is a type mismatch", `cores == "48"`,
			`type mismatch: cores is a whole number but "48" is text (write numbers without quotes: cores == 48)`, 6},
		{"a number compared with a text field is a type mismatch", `engine == 48`,
			`type mismatch: engine is text but 48 is a whole number`, 7},
		{"a filter that is not a condition is refused", `cores`,
			`filter must be a condition, true or false for each run, but it gives a whole number (for example: cores == 48)`, -1},
		{"a syntax error gives its position", `cores == 48 &&`,
			`syntax error at column 14: unexpected token EOF`, 13},
		{"a single equals sign is a syntax error", `cores = 48`,
			`syntax error at column 7: unexpected token Operator("=")`, 6},
		{"an unterminated string is a syntax error", `engine == "redis`,
			`syntax error at column 17: literal not terminated`, 16},
		{"repeat is a forbidden builtin", `repeat(engine, 100000000) == ""`,
			`function "repeat" is not allowed in filters (allowed: ` + allowed + `)`, 0},
		{"list builtins are forbidden", `map([1, 2], # * 2) == [2, 4]`,
			`function "map" is not allowed in filters (allowed: ` + allowed + `)`, 0},
		{"ranges are forbidden", `cores in 1..1000000000`,
			`ranges (a..b) are not allowed in filters; write cores >= 8 && cores <= 24`, 10},
		{"now is forbidden", `now() != nil`,
			`function "now" is not allowed in filters (allowed: ` + allowed + `)`, 0},
		{"variables are forbidden", `let x = 1; cores == x`,
			`variables (let) are not allowed in filters`, 4},
		{"an empty filter is refused", `  `,
			`empty filter (write "true" to match every run)`, -1},
		{"a filter of 10,000 characters is refused before parsing", "cores == 48" + strings.Repeat(" ", 9989),
			`filter too long: 10000 characters (the limit is 1000)`, -1},
		{"a filter with too many parts is refused", strings.Repeat("-", 300) + "1 == cores",
			`filter too complex: more than 200 parts (split it into simpler questions)`, -1},
		{"nested text functions are refused before expr checks them", nestedTrim(22),
			`trim() inside trim(): text functions cannot be nested; apply one to the field`, 5},
		{"calls nested more than four deep are refused", `abs(abs(abs(abs(abs(cores))))) == 4`,
			`functions nested too deeply: more than 4 calls inside each other`, 16},
		{"long quoted text is refused", `note == "` + strings.Repeat("x", 201) + `"`,
			`quoted text too long: 201 bytes (the limit is 200)`, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := analytics.CompileFilter(tt.filter)
			var fe *analytics.FilterError
			if !errors.As(err, &fe) {
				t.Fatalf("CompileFilter(%q) = %v, %v; want a *FilterError", tt.filter, f, err)
			}
			if fe.Msg != tt.msg {
				t.Errorf("message:\n got %s\nwant %s", fe.Msg, tt.msg)
			}
			if fe.Pos != tt.pos {
				t.Errorf("position = %d, want %d", fe.Pos, tt.pos)
			}
			if fe.Filter != tt.filter {
				t.Errorf("filter = %q, want it verbatim", fe.Filter)
			}
		})
	}
}

func TestFilterErrorColumnsCountCharactersNotBytes(t *testing.T) {
	_, err := analytics.CompileFilter(`note == "é" && corez == 1`)
	var fe *analytics.FilterError
	if !errors.As(err, &fe) {
		t.Fatal(err)
	}
	if fe.Pos != 16 || fe.Column() != 16 {
		t.Errorf("pos %d column %d, want byte 16, column 16", fe.Pos, fe.Column())
	}
}

func TestFiltersOnHitRateTreatRunsWithoutReadsSensibly(t *testing.T) {
	s := analyticstest.OpenStore(t)
	count := func(filter string) int {
		t.Helper()
		res, err := s.Query(t.Context(), filter)
		if err != nil {
			t.Fatalf("%s: %v", filter, err)
		}
		return res.Runs
	}
	mset := count(`ratio == "mset10"`)
	if mset == 0 {
		t.Fatal("no mset10 runs")
	}
	tests := []struct {
		name   string
		filter string
		want   int
	}{
		{"hit_rate == nil selects exactly the runs without reads", `hit_rate == nil`, mset},
		{"hit_rate != nil selects every other run", `hit_rate != nil`, 478 - mset},
		{"an ordered comparison is false for runs without reads", `hit_rate >= 0`, 478 - mset},
		{"an ordered comparison with the field on the right behaves the same", `0 <= hit_rate`, 478 - mset},
		{"a comparison inside an or does not hide the other side", `hit_rate > 2 || ratio == "mset10"`, mset},
		{"arithmetic on a missing hit rate does not match", `hit_rate * 100 >= 0`, 478 - mset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := count(tt.filter); got != tt.want {
				t.Errorf("%s matched %d runs, want %d", tt.filter, got, tt.want)
			}
		})
	}
}

func TestMatchAppliesTheFilterToOneRun(t *testing.T) {
	f, err := analytics.CompileFilter(`engine == "redis" && hasPrefix(mode, "cluster") && lower(ratio) == "1:10"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		run  analytics.Run
		want bool
	}{
		{analytics.Run{Engine: "redis", Mode: "cluster-sat", Ratio: "1:10"}, true},
		{analytics.Run{Engine: "redis", Mode: "single", Ratio: "1:10"}, false},
		{analytics.Run{Engine: "valkey", Mode: "cluster", Ratio: "1:10"}, false},
	} {
		got, err := f.Match(&tt.run)
		if err != nil || got != tt.want {
			t.Errorf("Match(%+v) = %v, %v; want %v", tt.run, got, err, tt.want)
		}
	}
}

func TestTheFilterVocabularyIsExactlyTheDesignsList(t *testing.T) {
	want := "id session run_id note engine version mode cores shards server_threads client_threads client_conns " +
		"pipeline ratio value_bytes key_max test_time_s rep ops_per_sec ops_per_core p50_ms p99_ms " +
		"p999_ms hit_rate kb_per_sec conn_errors"
	if got := strings.Join(analytics.FilterFields(), " "); got != want {
		t.Errorf("fields:\n got %s\nwant %s", got, want)
	}
	s := analyticstest.OpenStore(t)
	for _, field := range analytics.FilterFields() {
		if _, err := s.Query(t.Context(), field+" == "+field); err != nil {
			t.Errorf("field %s is not usable: %v", field, err)
		}
	}
}

func TestQueryCellsComeInDeterministicOrder(t *testing.T) {
	s := analyticstest.OpenStore(t)
	res, err := s.Query(t.Context(), `cores == 48 && ratio in ["1:10", "1:1"] && value_bytes == 100 && pipeline == 16`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Cells {
		got = append(got, c.Engine+"/"+c.Mode+"/"+c.Ratio)
	}
	want := "dragonfly/single/1:10 dragonfly/single/1:1 redis/cluster/1:10 redis/cluster/1:1 " +
		"redis/cluster-sat/1:10 redis/cluster-sat/1:1 valkey/cluster/1:10 valkey/cluster/1:1 " +
		"valkey/cluster-sat/1:10 valkey/cluster-sat/1:1 garnet/single/1:10 garnet/single/1:1"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(res.RunIDs()) != res.Runs {
		t.Errorf("run IDs %d, runs %d", len(res.RunIDs()), res.Runs)
	}
}

func TestAMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo(t *testing.T) {
	tests := []struct {
		name string
		vals []float64
		want float64
	}{
		{"no values give zero", nil, 0},
		{"one value is its own median", []float64{3}, 3},
		{"two values give their mean", []float64{15473658.39, 15473658.4}, 15473658.395},
		{"an odd count gives the middle value", []float64{9, 1, 5}, 5},
		{"an even count gives the mean of the middle two", []float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := analytics.Median(tt.vals); got != tt.want {
				t.Errorf("Median = %v, want %v", got, tt.want)
			}
		})
	}
}

// nestedTrim is trim(trim(…trim(note)…)) == "x", depth calls deep: the
// shape of filter whose type check in expr doubles in time per level.
func nestedTrim(depth int) string {
	return strings.Repeat("trim(", depth) + "note" + strings.Repeat(")", depth) + ` == "x"`
}

func TestARunTimeFilterErrorIsAUserErrorAtItsColumn(t *testing.T) {
	s := analyticstest.OpenStore(t)
	_, err := s.Query(t.Context(), `cores % 0 == 1`)
	var fe *analytics.FilterError
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v, want a *FilterError", err)
	}
	if want := "the filter fails at column 7: division by zero"; fe.Msg != want {
		t.Errorf("message = %q, want %q", fe.Msg, want)
	}
}

func TestAQueryStopsWhenItsContextEnds(t *testing.T) {
	s := analyticstest.OpenStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Query(ctx, `cores == 4 && engine != "nothing"`); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if _, err := analytics.CompileFilterContext(ctx, nestedTrim(3)); !errors.Is(err, context.Canceled) {
		t.Errorf("compile error = %v, want context.Canceled", err)
	}
}

// BenchmarkDeeplyNestedFilterRefused measures refusing the 232-character
// filter of 22 nested trim() calls (the target is well under 100 ms; a
// plain filter's compile is the baseline in the same run).
func BenchmarkDeeplyNestedFilterRefused(b *testing.B) {
	b.Run("nested-trim-22", func(b *testing.B) {
		for b.Loop() {
			if _, err := analytics.CompileFilter(nestedTrim(22)); err == nil {
				b.Fatal("accepted")
			}
		}
	})
	b.Run("baseline-plain-filter", func(b *testing.B) {
		for b.Loop() {
			if _, err := analytics.CompileFilter(`engine == "redis" && cores == 48`); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Every way in compiles within the same length limit: an exact filter
// (only cell-field == literal pins, read without expr) is no exception.
func TestALongExactFilterIsRefusedOnEveryPath(t *testing.T) {
	long := `engine == "` + strings.Repeat("v", 500_000) + `"` // one pin, 500 KB
	if utf8.RuneCountInString(long) <= analytics.MaxFilterChars {
		t.Fatalf("the filter is only %d characters", utf8.RuneCountInString(long))
	}
	_, errPlain := analytics.CompileFilter(long)
	_, errCtx := analytics.CompileFilterContext(t.Context(), long)
	for name, err := range map[string]error{"CompileFilter": errPlain, "CompileFilterContext": errCtx} {
		var fe *analytics.FilterError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "filter too long") {
			t.Errorf("%s: %v, want the length limit", name, err)
		}
	}
}

func TestIntegerOverflowAndDivisionByZeroAreRefusedNotAnswered(t *testing.T) {
	s := analyticstest.OpenStore(t)
	tests := []struct{ filter, want string }{
		{`cores > 9223372036854775807 + 1`, "integer overflow"},
		{`cores * 4611686018427387904 > 0`, "integer overflow"},
		{`cores - 9223372036854775807 - 10 < 0`, "integer overflow"},
		{`cores / 0 > 1`, "division by zero"},
		{`ops_per_sec / 0 > 1`, "division by zero"},
		{`ops_per_sec / (cores - cores) > 1`, "division by zero"},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			res, err := s.Query(t.Context(), tt.filter)
			var fe *analytics.FilterError
			if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.want) {
				t.Errorf("error = %v (%d runs matched), want a *FilterError saying %q", err, res.Runs, tt.want)
			}
		})
	}
	// Arithmetic that stays in range answers as before.
	for filter, want := range map[string]int{`cores * 2 == 96`: 0, `ops_per_sec / cores > 0`: 0, `cores + 1 == 49`: 0} {
		if res, err := s.Query(t.Context(), filter); err != nil || res.Runs == want {
			t.Errorf("%s: %d runs, %v", filter, res.Runs, err)
		}
	}
}
