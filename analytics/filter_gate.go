package analytics

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
)

// Limits the syntax tree must meet before expr type-checks it: expr's
// checker tries every overload of a builtin at each level, so nested
// overloaded calls cost time that doubles per level (22 nested trim()
// calls took minutes).
const (
	// MaxCallDepth is how deeply function calls may nest.
	MaxCallDepth = 4
	// MaxStringLiteral is the longest quoted text a filter may hold, in bytes.
	MaxStringLiteral = 200
)

// stringFuncs are the allowed builtins that take text and are overloaded;
// one may not be an argument (at any depth) of another.
var stringFuncs = []string{
	"lower", "upper", "trim", "trimPrefix", "trimSuffix", "hasPrefix", "hasSuffix",
	"indexOf", "lastIndexOf",
}

// checkTree parses the filter with expr's parser and walks the tree
// through the limits above and the node cap, before anything else in expr
// sees it. The error's Pos is in runes.
func checkTree(filter string) *FilterError {
	tree, err := parser.Parse(filter)
	if err != nil {
		return nil // the compiler reports syntax errors with its own wording
	}
	w := treeWalk{}
	w.walk(tree.Node, 0, "")
	return w.err
}

type treeWalk struct {
	nodes int
	err   *FilterError
}

func (w *treeWalk) fail(n ast.Node, format string, a ...any) {
	if w.err == nil {
		w.err = &FilterError{Pos: n.Location().From, Msg: fmt.Sprintf(format, a...)}
	}
}

// walk visits n; depth is the number of calls around it, inside the name
// of the nearest enclosing text function ("" when none).
func (w *treeWalk) walk(n ast.Node, depth int, inside string) {
	if n == nil || w.err != nil {
		return
	}
	w.nodes++
	if w.nodes > MaxFilterNodes {
		w.err = &FilterError{Pos: -1, Msg: fmt.Sprintf("filter too complex: more than %d parts (split it into simpler questions)", MaxFilterNodes)}
		return
	}
	switch v := n.(type) {
	case *ast.StringNode:
		if len(v.Value) > MaxStringLiteral {
			w.fail(n, "quoted text too long: %d bytes (the limit is %d)", len(v.Value), MaxStringLiteral)
		}
	case *ast.CallNode, *ast.BuiltinNode:
		name := callName(n)
		depth++
		if depth > MaxCallDepth {
			w.fail(n, "functions nested too deeply: more than %d calls inside each other", MaxCallDepth)
			return
		}
		if slices.Contains(stringFuncs, name) {
			if inside != "" {
				w.fail(n, "%s() inside %s(): text functions cannot be nested; apply one to the field", name, inside)
				return
			}
			inside = name
		}
	}
	for _, c := range children(n) {
		w.walk(c, depth, inside)
	}
}

// callName is the function a call node calls, or "".
func callName(n ast.Node) string {
	switch v := n.(type) {
	case *ast.BuiltinNode:
		return v.Name
	case *ast.CallNode:
		if id, ok := v.Callee.(*ast.IdentifierNode); ok {
			return id.Value
		}
	}
	return ""
}

// children lists a node's direct children, as ast.Walk visits them.
func children(n ast.Node) []ast.Node {
	switch v := n.(type) {
	case *ast.UnaryNode:
		return []ast.Node{v.Node}
	case *ast.BinaryNode:
		return []ast.Node{v.Left, v.Right}
	case *ast.ChainNode:
		return []ast.Node{v.Node}
	case *ast.MemberNode:
		return []ast.Node{v.Node, v.Property}
	case *ast.SliceNode:
		return []ast.Node{v.Node, v.From, v.To}
	case *ast.CallNode:
		return append([]ast.Node{v.Callee}, v.Arguments...)
	case *ast.BuiltinNode:
		return v.Arguments
	case *ast.PredicateNode:
		return []ast.Node{v.Node}
	case *ast.VariableDeclaratorNode:
		return []ast.Node{v.Value, v.Expr}
	case *ast.SequenceNode:
		return v.Nodes
	case *ast.ConditionalNode:
		return []ast.Node{v.Cond, v.Exp1, v.Exp2}
	case *ast.ArrayNode:
		return v.Nodes
	case *ast.MapNode:
		return v.Pairs
	case *ast.PairNode:
		return []ast.Node{v.Key, v.Value}
	}
	return nil
}

// CompileFilterContext is CompileFilter under ctx: a filter still being
// compiled when ctx ends (an interrupt, a deadline) is abandoned and ctx's
// error returned.
func CompileFilterContext(ctx context.Context, filter string) (*Filter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The exact reading is bounded work (no goroutine to abandon it from),
	// but only within the same length limit as every other path: a
	// 500 KB filter of pins is refused here too.
	if utf8.RuneCountInString(filter) <= MaxFilterChars {
		if f, ok := compileExact(filter); ok {
			return f, nil
		}
	}
	type result struct {
		f   *Filter
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := CompileFilter(filter)
		done <- result{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("compiling the filter: %w", ctx.Err())
	}
}

// runtimeError turns an error the filter raised while running on a run
// (division by zero, a failed conversion) into a user-facing FilterError at
// the position expr reports.
func (f *Filter) runtimeError(err error) *FilterError {
	fe := &FilterError{Filter: f.text, Pos: -1}
	msg := err.Error()
	var xe *file.Error
	if errors.As(err, &xe) {
		msg = xe.Message
		if xe.From > 0 || xe.To > 0 {
			fe.Pos = byteOffset(f.text, xe.From)
		}
	}
	switch {
	case strings.Contains(msg, "divide by zero") || strings.Contains(msg, "division by zero"):
		msg = "division by zero"
	case strings.Contains(msg, errOverflow.Error()):
		msg = errOverflow.Error()
	case strings.Contains(msg, "invalid syntax") || strings.Contains(msg, "parsing"):
		msg = "a text value is not a number, so it cannot be converted"
	case strings.Contains(msg, "out of range"):
		msg = "a number is out of range"
	}
	if col := fe.Column(); col > 0 {
		fe.Msg = fmt.Sprintf("the filter fails at column %d: %s", col, msg)
	} else {
		fe.Msg = "the filter fails: " + msg
	}
	return fe
}
