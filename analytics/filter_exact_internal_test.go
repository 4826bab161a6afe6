package analytics

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/expr-lang/expr/vm"
)

func TestExactPinsReadsOnlyConjunctionsOfCellFieldEqualities(t *testing.T) {
	t.Parallel() // CPU-bound over stores of its own; no package variable is set
	tests := []struct {
		filter string
		want   []pin // nil: left to expr
	}{
		{`engine == "dragonfly"`, []pin{{field: "engine", text: "dragonfly"}}},
		{`session == 1 && engine == "redis" && mode == "cluster" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
			[]pin{{field: "session", num: 1}, {field: "engine", text: "redis"}, {field: "mode", text: "cluster"},
				{field: "cores", num: 48}, {field: "ratio", text: "1:10"}, {field: "value_bytes", num: 100}, {field: "pipeline", num: 16}}},
		{"cores==4&&\n\tratio==\"mset10\"  ", []pin{{field: "cores", num: 4}, {field: "ratio", text: "mset10"}}},
		{`cores == 0`, []pin{{field: "cores", num: 0}}},
		{`cores == 4 && cores == 8`, []pin{{field: "cores", num: 4}, {field: "cores", num: 8}}},
		{`engine == ""`, []pin{{field: "engine", text: ""}}},
		// Left to expr: other fields, operators, literals or forms.
		{`rep == 1`, nil},
		{`cores <= 16`, nil},
		{`cores != 16`, nil},
		{`cores == 48 || cores == 4`, nil},
		{`cores == 48 and pipeline == 16`, nil},
		{`(cores == 48)`, nil},
		{`48 == cores`, nil},
		{`cores == 048`, nil},
		{`cores == 48.0`, nil},
		{`cores == 4e1`, nil},
		{`cores == 1_000`, nil},
		{`cores == 0x30`, nil},
		{`cores == -4`, nil},
		{`cores == 1234567890`, nil},
		{`cores == "48"`, nil},
		{`engine == 'redis'`, nil},
		{"engine == `redis`", nil},
		{`engine == "re\"dis"`, nil},
		{`engine == "re\\dis"`, nil},
		{`engine == "é"`, nil},
		{`engine == "redis`, nil},
		{`engine == redis`, nil},
		{`engine == "redis" &&`, nil},
		{`engine == "redis" && `, nil},
		{`&& engine == "redis"`, nil},
		{`engine == "redis" & cores == 4`, nil},
		{`engine = "redis"`, nil},
		{`engines == "redis"`, nil},
		{`cores2 == 4`, nil},
		{`cores == 4 cores == 8`, nil},
		{"cores == 4\r", nil},
		{``, nil},
		{`true`, nil},
		{strings.Repeat(`cores == 4 && `, maxExactPins) + `cores == 4`, nil},
	}
	for _, tt := range tests {
		got, ok := exactPins(tt.filter)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("exactPins(%q) = %v, %v; want %v", tt.filter, got, ok, tt.want)
		}
		checkExactAgreesWithExpr(t, tt.filter, embeddedRuns(t))
	}
}

// Every cell of the embedded dataset, named by every subset of its fields
// in two spacings, matches the same runs read as pins as through expr, with
// the same shape. A filter many cells share ("session == 1") is checked
// once.
func TestExactFiltersMatchAsExprDoes(t *testing.T) {
	t.Parallel() // CPU-bound over stores of its own; no package variable is set
	runs := append(embeddedRuns(t), fuzzRuns()...)
	seen := map[CellKey]bool{}
	checked := map[string]bool{}
	for _, r := range runs {
		k := r.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		conds := []string{
			fmt.Sprintf("session == %d", k.Session), fmt.Sprintf("engine == %q", k.Engine),
			fmt.Sprintf("mode == %q", k.Mode), fmt.Sprintf("cores == %d", k.Cores),
			fmt.Sprintf("ratio == %q", k.Ratio), fmt.Sprintf("value_bytes == %d", k.ValueBytes),
			fmt.Sprintf("pipeline == %d", k.Pipeline),
		}
		for subset := 1; subset < 1<<len(conds); subset += 7 {
			var picked []string
			for i, c := range conds {
				if subset&(1<<i) != 0 {
					picked = append(picked, c)
				}
			}
			for _, join := range []string{" && ", "&&"} {
				filter := strings.Join(picked, join)
				if checked[filter] {
					continue
				}
				checked[filter] = true
				if _, ok := exactPins(filter); !ok {
					t.Fatalf("exactPins(%q) left it to expr", filter)
				}
				checkExactAgreesWithExpr(t, filter, runs)
			}
		}
	}
}

// checkExactAgreesWithExpr compiles filter as CompileFilter does and through
// expr alone, and fails unless both compile or both fail, match the same
// runs and cells, and have the same shape.
func checkExactAgreesWithExpr(t *testing.T, filter string, runs []Run) {
	t.Helper()
	got, gotErr := CompileFilter(filter)
	want, wantErr := compileExpr(filter)
	if strings.TrimSpace(filter) == "" {
		want, wantErr = nil, gotErr // refused before either
	}
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%q: CompileFilter error %v, expr error %v", filter, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	for i := range runs {
		g, err1 := got.Match(&runs[i])
		w, err2 := want.Match(&runs[i])
		if g != w || (err1 == nil) != (err2 == nil) {
			t.Fatalf("%q on %s: %v (%v), expr %v (%v)", filter, runs[i].ID, g, err1, w, err2)
		}
		if got.compiled != nil {
			continue
		}
		// A cell-only filter is evaluated once per cell, on its key.
		env := cellEnvOf(runs[i].Key())
		var m vm.VM
		w, err := want.match(&m, &env)
		if g := matchExact(got.exact, &env); g != w || err != nil {
			t.Fatalf("%q on the cell of %s: %v, expr %v (%v)", filter, runs[i].ID, g, w, err)
		}
	}
	if gs, ws := got.shapeOf(), shapeOf(filter); !reflect.DeepEqual(gs, ws) {
		t.Fatalf("%q: shape %+v, expr's %+v", filter, gs, ws)
	}
}
