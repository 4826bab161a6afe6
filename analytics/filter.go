package analytics

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Filter limits.
const (
	// MaxFilterChars is the longest filter accepted, in characters.
	MaxFilterChars = 1000
	// MaxFilterNodes is the most syntax-tree nodes a filter may have.
	MaxFilterNodes = 200
)

// allowedFuncs are the only builtins a filter may call: each does bounded
// work on one value. Everything else (repeat, join, split, map, filter,
// toJSON, now, date, ranges …) is refused.
var allowedFuncs = []string{
	"abs", "ceil", "floor", "round", "int", "float", "len", "max", "min",
	"lower", "upper", "trim", "trimPrefix", "trimSuffix", "hasPrefix", "hasSuffix",
	"indexOf", "lastIndexOf",
}

// runEnv is the filter environment: exactly the filter vocabulary (docs/design.md#filter-vocabulary).
type runEnv struct {
	ID            string   `expr:"id"`
	Session       int      `expr:"session"`
	RunID         string   `expr:"run_id"`
	Note          string   `expr:"note"`
	Engine        string   `expr:"engine"`
	Version       string   `expr:"version"`
	Mode          string   `expr:"mode"`
	Cores         int      `expr:"cores"`
	Shards        int      `expr:"shards"`
	ServerThreads int      `expr:"server_threads"`
	ClientThreads int      `expr:"client_threads"`
	ClientConns   int      `expr:"client_conns"`
	Pipeline      int      `expr:"pipeline"`
	Ratio         string   `expr:"ratio"`
	ValueBytes    int      `expr:"value_bytes"`
	KeyMax        int      `expr:"key_max"`
	TestTimeS     int      `expr:"test_time_s"`
	Rep           int      `expr:"rep"`
	OpsPerSec     float64  `expr:"ops_per_sec"`
	OpsPerCore    float64  `expr:"ops_per_core"`
	P50Ms         float64  `expr:"p50_ms"`
	P99Ms         float64  `expr:"p99_ms"`
	P999Ms        float64  `expr:"p999_ms"`
	HitRate       *float64 `expr:"hit_rate"`
	KBPerSec      float64  `expr:"kb_per_sec"`
	ConnErrors    int      `expr:"conn_errors"`
}

func newRunEnv(r *Run) runEnv {
	return runEnv{
		ID: r.ID, Session: r.Session, RunID: r.RunID, Note: r.Note, Engine: r.Engine, Version: r.Version,
		Mode: r.Mode, Cores: r.Cores, Shards: r.Shards, ServerThreads: r.ServerThreads, ClientThreads: r.ClientThreads,
		ClientConns: r.ClientConns, Pipeline: r.Pipeline, Ratio: r.Ratio, ValueBytes: r.ValueBytes,
		KeyMax: r.KeyMax, TestTimeS: r.TestTimeS, Rep: r.Rep, OpsPerSec: r.OpsPerSec,
		OpsPerCore: r.OpsPerCore, P50Ms: r.P50Ms, P99Ms: r.P99Ms, P999Ms: r.P999Ms,
		HitRate: r.HitRate, KBPerSec: r.KBPerSec, ConnErrors: r.ConnErrors,
	}
}

// FilterFields lists the filter vocabulary: every name a filter may use.
func FilterFields() []string {
	t := reflect.TypeFor[runEnv]()
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = t.Field(i).Tag.Get("expr")
	}
	return out
}

// fieldKinds says, per field, what a user should compare it with.
func fieldKind(name string) string {
	t := reflect.TypeFor[runEnv]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("expr") != name {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String:
			return "text"
		case reflect.Int:
			return "a whole number"
		default:
			return "a number"
		}
	}
	return ""
}

// Filter is a compiled, checked filter. It is safe for concurrent use.
type Filter struct {
	text string
	// compiled is expr's program; nil for an exact filter (see exactPins),
	// whose pins are matched directly: run a filter through match.
	compiled  *vm.Program
	exact     []pin
	usesHitRt bool

	shape     filterShape // how to run it; see shapeOf
	shapeOnce sync.Once
	plan      scanPlan // how to scan columns with it; see planOf
	planOnce  sync.Once
}

// String returns the filter as written.
func (f *Filter) String() string { return f.text }

// FilterError is a user-facing filter error pointing at the offending token.
type FilterError struct {
	Filter string // the filter as given
	Pos    int    // byte offset of the offending token, -1 when none
	Msg    string // e.g. `unknown field "core" (did you mean "cores"?)`
}

func (e *FilterError) Error() string { return e.Msg }

// Column is the 1-based character column of Pos in the filter, or 0 when
// the error has no position.
func (e *FilterError) Column() int {
	if e.Pos < 0 || e.Pos > len(e.Filter) {
		return 0
	}
	return utf8.RuneCountInString(e.Filter[:e.Pos]) + 1
}

// CompileFilter checks and compiles a filter in the filter vocabulary (docs/design.md#filter-vocabulary).
// Errors are *FilterError values with a position and a user-facing message.
// The filter must be a condition (true or false for each run); it may use
// only the vocabulary's fields, literals, operators and a few harmless
// builtins, within MaxFilterChars characters and MaxFilterNodes nodes.
// Conditions comparing hit_rate with <, <=, > or >= are false for runs
// without reads (hit_rate == nil).
func CompileFilter(filter string) (*Filter, error) {
	if n := utf8.RuneCountInString(filter); n > MaxFilterChars {
		return nil, &FilterError{Filter: filter, Pos: -1,
			Msg: fmt.Sprintf("filter too long: %d characters (the limit is %d)", n, MaxFilterChars)}
	}
	if !utf8.ValidString(filter) {
		return nil, &FilterError{Filter: filter, Pos: -1, Msg: "filter is not valid UTF-8 text"}
	}
	if strings.TrimSpace(filter) == "" {
		return nil, &FilterError{Filter: filter, Pos: -1, Msg: `empty filter (write "true" to match every run)`}
	}
	if f, ok := compileExact(filter); ok {
		return f, nil
	}
	return compileExpr(filter)
}

// compileExpr checks and compiles a filter through expr.
func compileExpr(filter string) (*Filter, error) {
	if fe := checkTree(filter); fe != nil {
		fe.Filter = filter
		if fe.Pos >= 0 {
			fe.Pos = byteOffset(filter, fe.Pos)
		}
		return nil, fe
	}
	g := &gate{}
	opts := []expr.Option{
		expr.Env(runEnv{}),
		expr.AsBool(),
		expr.DisableAllBuiltins(),
		expr.MaxNodes(MaxFilterChars), // parser backstop; the gate's own count is stricter
		expr.Patch(g),
	}
	for _, name := range allowedFuncs {
		opts = append(opts, expr.EnableBuiltin(name))
	}
	opts = append(opts, arithmeticOptions()...) // after the gate: it never sees the checked calls
	prog, err := expr.Compile(filter, opts...)
	if g.err != nil {
		g.err.Filter = filter
		if g.err.Pos >= 0 {
			g.err.Pos = byteOffset(filter, g.err.Pos)
		}
		return nil, g.err
	}
	if err != nil {
		return nil, translate(filter, err)
	}
	return &Filter{text: filter, compiled: prog, usesHitRt: g.usesHitRate}, nil
}

// Match reports whether the run passes the filter.
func (f *Filter) Match(r *Run) (bool, error) {
	env := newRunEnv(r)
	var m vm.VM
	return f.match(&m, &env)
}

// match runs the program on one environment with a reusable VM.
func (f *Filter) match(m *vm.VM, env *runEnv) (bool, error) {
	if f.compiled == nil {
		return matchExact(f.exact, env), nil
	}
	out, err := m.Run(f.compiled, env)
	if err != nil {
		if env.HitRate == nil && f.usesHitRt {
			// A condition on hit_rate that the gate could not guard (for
			// example arithmetic on it) does not hold for runs without reads.
			return false, nil
		}
		return false, f.runtimeError(err)
	}
	b, _ := out.(bool) // AsBool guarantees a bool
	return b, nil
}

// gate is the expr patch visitor that enforces the filter rules before any
// type checking or evaluation: node cap, allowed calls only, no ranges,
// closures or pointers. It also guards ordered comparisons on hit_rate so
// they are false, not an error, for runs without reads.
type gate struct {
	nodes       int
	inner       bool         // err was found inside a list function's argument
	err         *FilterError // Pos in runes until CompileFilter converts it
	usesHitRate bool
	guarded     map[ast.Node]bool
}

func (g *gate) fail(n ast.Node, format string, a ...any) {
	if g.err == nil {
		g.err = &FilterError{Pos: n.Location().From, Msg: fmt.Sprintf(format, a...)}
	}
}

// Visit implements ast.Visitor.
func (g *gate) Visit(node *ast.Node) {
	g.nodes++
	if g.nodes > MaxFilterNodes {
		if g.err == nil {
			g.err = &FilterError{Pos: -1, Msg: fmt.Sprintf("filter too complex: more than %d parts (split it into simpler questions)", MaxFilterNodes)}
		}
		return
	}
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if n.Value == "hit_rate" {
			g.usesHitRate = true
		}
	case *ast.CallNode:
		name := "that"
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			name = id.Value
			if slices.Contains(allowedFuncs, name) {
				return
			}
		}
		if g.inner { // name the function, not the # or closure inside it
			g.err, g.inner = nil, false
		}
		g.fail(n, "function %q is not allowed in filters (allowed: %s)", name, strings.Join(allowedFuncs, ", "))
	case *ast.BuiltinNode:
		if !slices.Contains(allowedFuncs, n.Name) {
			if g.inner { // name the function, not the # or closure inside it
				g.err, g.inner = nil, false
			}
			g.fail(n, "function %q is not allowed in filters (allowed: %s)", n.Name, strings.Join(allowedFuncs, ", "))
		}
	case *ast.PointerNode, *ast.PredicateNode:
		if g.err == nil {
			g.inner = true
		}
		g.fail(n, "functions over lists are not allowed in filters")
	case *ast.VariableDeclaratorNode:
		g.fail(n, "variables (let) are not allowed in filters")
	case *ast.BinaryNode:
		switch n.Operator {
		case "..":
			g.fail(n, "ranges (a..b) are not allowed in filters; write cores >= 8 && cores <= 24")
		case "<", "<=", ">", ">=":
			if g.guarded[n] || !(isHitRate(n.Left) || isHitRate(n.Right)) {
				return
			}
			if g.guarded == nil {
				g.guarded = map[ast.Node]bool{}
			}
			g.guarded[n] = true
			hr := &ast.IdentifierNode{Value: "hit_rate"}
			hr.SetLocation(n.Location())
			guard := &ast.BinaryNode{Operator: "!=", Left: hr, Right: &ast.NilNode{}}
			guard.SetLocation(n.Location())
			and := &ast.BinaryNode{Operator: "&&", Left: guard, Right: n}
			and.SetLocation(n.Location())
			ast.Patch(node, and)
		}
	}
}

func isHitRate(n ast.Node) bool {
	id, ok := n.(*ast.IdentifierNode)
	return ok && id.Value == "hit_rate"
}

// translate turns an expr compile error into a FilterError with a message
// a user can act on.
func translate(filter string, err error) *FilterError {
	fe := &FilterError{Filter: filter, Pos: -1, Msg: "invalid filter: " + err.Error()}
	var xe *file.Error
	if !errors.As(err, &xe) {
		if got, ok := strings.CutPrefix(err.Error(), "expected bool, but got "); ok {
			fe.Msg = notCondition(got)
		}
		return fe
	}
	msg := xe.Message
	if xe.Snippet != "" || xe.From > 0 || xe.Line > 0 {
		fe.Pos = byteOffset(filter, xe.From)
	}
	switch {
	case strings.HasPrefix(msg, "unknown name "):
		name := strings.TrimPrefix(msg, "unknown name ")
		fe.Msg = unknownField(name)
	case strings.HasPrefix(msg, "expected bool, but got "):
		fe.Pos = -1
		fe.Msg = notCondition(strings.TrimPrefix(msg, "expected bool, but got "))
	case strings.Contains(msg, "mismatched types"):
		fe.Msg = mismatch(filter, fe.Pos, msg)
	case strings.HasPrefix(msg, "unexpected token") || strings.HasPrefix(msg, "unexpected") ||
		strings.Contains(msg, "unrecognized character") || strings.Contains(msg, "literal not terminated") ||
		strings.Contains(msg, "expected"):
		fe.Msg = fmt.Sprintf("syntax error at column %d: %s", fe.Column(), msg)
	default:
		if fe.Pos >= 0 {
			fe.Msg = fmt.Sprintf("invalid filter at column %d: %s", fe.Column(), msg)
		} else {
			fe.Msg = "invalid filter: " + msg
		}
	}
	return fe
}

func notCondition(got string) string {
	return fmt.Sprintf("filter must be a condition, true or false for each run, but it gives %s (for example: cores == 48)", describeType(got))
}

// unknownField names the closest real field, if one is close.
func unknownField(name string) string {
	best, bestD := "", 1<<30
	for _, f := range FilterFields() {
		d := levenshtein.ComputeDistance(name, f)
		if d < bestD || (d == bestD && f < best) {
			best, bestD = f, d
		}
	}
	if bestD <= max(2, len(name)/3) {
		return fmt.Sprintf("unknown field %q (did you mean %q?)", name, best)
	}
	fields := FilterFields()
	sort.Strings(fields)
	return fmt.Sprintf("unknown field %q (fields: %s)", name, strings.Join(fields, ", "))
}

// mismatch explains a type mismatch such as cores == "48", naming both
// sides and, when a quoted number meets a number field, the fix.
func mismatch(filter string, pos int, msg string) string {
	bin := binaryAt(filter, pos)
	if bin == nil {
		return fmt.Sprintf("type mismatch at column %d: %s", runeColumn(filter, pos), msg)
	}
	l, lt := describeOperand(bin.Left)
	r, rt := describeOperand(bin.Right)
	out := fmt.Sprintf("type mismatch: %s is %s but %s is %s", l, lt, r, rt)
	if fix := quotedNumberFix(bin); fix != "" {
		out += fmt.Sprintf(" (write numbers without quotes: %s)", fix)
	}
	return out
}

// binaryAt finds the binary operation whose operator sits at byte offset pos.
func binaryAt(filter string, pos int) *ast.BinaryNode {
	tree, err := parser.Parse(filter)
	if err != nil {
		return nil
	}
	f := &binaryFinder{from: utf8.RuneCountInString(filter[:max(0, min(pos, len(filter)))])}
	ast.Walk(&tree.Node, f)
	return f.found
}

type binaryFinder struct {
	from  int
	found *ast.BinaryNode
}

func (b *binaryFinder) Visit(n *ast.Node) {
	if bn, ok := (*n).(*ast.BinaryNode); ok && b.found == nil && bn.Location().From == b.from {
		b.found = bn
	}
}

// describeOperand names one side of a comparison and its kind of value.
func describeOperand(n ast.Node) (string, string) {
	switch v := n.(type) {
	case *ast.IdentifierNode:
		if k := fieldKind(v.Value); k != "" {
			return v.Value, k
		}
		return v.Value, "unknown"
	case *ast.StringNode:
		return strconv.Quote(v.Value), "text"
	case *ast.IntegerNode:
		return strconv.Itoa(v.Value), "a whole number"
	case *ast.FloatNode:
		return strconv.FormatFloat(v.Value, 'g', -1, 64), "a number"
	case *ast.BoolNode:
		return strconv.FormatBool(v.Value), "true/false"
	case *ast.NilNode:
		return "nil", "nil"
	}
	t := "a value"
	if n.Type() != nil {
		t = describeType(n.Type().String())
	}
	return "the expression at column " + strconv.Itoa(n.Location().From+1), t
}

// quotedNumberFix rewrites field == "48" as field == 48 when the field is a
// number, or returns "".
func quotedNumberFix(b *ast.BinaryNode) string {
	id, ok1 := b.Left.(*ast.IdentifierNode)
	str, ok2 := b.Right.(*ast.StringNode)
	if !ok1 || !ok2 {
		id, ok1 = b.Right.(*ast.IdentifierNode)
		str, ok2 = b.Left.(*ast.StringNode)
		if !ok1 || !ok2 {
			return ""
		}
	}
	k := fieldKind(id.Value)
	if k != "a whole number" && k != "a number" {
		return ""
	}
	if _, err := strconv.ParseFloat(str.Value, 64); err != nil {
		return ""
	}
	if b.Left == ast.Node(id) {
		return fmt.Sprintf("%s %s %s", id.Value, b.Operator, str.Value)
	}
	return fmt.Sprintf("%s %s %s", str.Value, b.Operator, id.Value)
}

func runeColumn(s string, pos int) int {
	return utf8.RuneCountInString(s[:max(0, min(pos, len(s)))]) + 1
}

func describeType(t string) string {
	switch t {
	case "int", "int64", "uint", "int32":
		return "a whole number"
	case "float64", "float32", "*float64":
		return "a number"
	case "string":
		return "text"
	case "bool":
		return "true/false"
	case "<nil>", "nil":
		return "nil"
	}
	return t
}

// byteOffset converts a rune offset into a byte offset in s.
func byteOffset(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	i := 0
	for off := range s {
		if i == runes {
			return off
		}
		i++
	}
	return len(s)
}
