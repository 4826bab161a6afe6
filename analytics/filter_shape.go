package analytics

import (
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// pinFields are the cell fields the cell index holds postings for.
var pinFields = []string{"session", "engine", "mode", "cores", "ratio", "value_bytes", "pipeline"}

// cellFields are the filter fields that make up a CellKey: every run of a
// cell has the same value in each of them. The version has no postings
// (most stores have none), so a filter on it is decided cell by cell.
var cellFields = append(slices.Clone(pinFields), "version")

// pin is a condition `field == literal` on a cell field that every match of
// a filter satisfies (it sits in the filter's top-level conjunction), so
// only the cells holding that value need looking at.
type pin struct {
	field string
	text  string // string fields
	num   int    // whole-number fields
}

// filterShape is what a filter's syntax says about how to run it.
type filterShape struct {
	// cellOnly: the filter reads cell fields only, so one evaluation per
	// cell decides for all of its runs.
	cellOnly bool
	// pins narrow the cells to look at through the cell index.
	pins []pin
}

// shapeOf reads the shape of a filter that has compiled (so it parses).
// Anything it does not recognise makes the shape more general, never
// wrong: a filter it cannot place is evaluated on every run.
func shapeOf(text string) filterShape {
	tree, err := parser.Parse(text)
	if err != nil {
		return filterShape{}
	}
	idents := &identCollector{cellOnly: true}
	ast.Walk(&tree.Node, idents)
	sh := filterShape{cellOnly: idents.cellOnly}
	collectPins(tree.Node, &sh.pins)
	return sh
}

// identCollector decides whether every name a filter reads is a cell field
// (or one of the allowed functions it calls).
type identCollector struct{ cellOnly bool }

func (c *identCollector) Visit(n *ast.Node) {
	switch v := (*n).(type) {
	case *ast.IdentifierNode:
		if !slices.Contains(cellFields, v.Value) && !slices.Contains(allowedFuncs, v.Value) {
			c.cellOnly = false
		}
	case *ast.MemberNode, *ast.PointerNode, *ast.VariableDeclaratorNode, *ast.PredicateNode:
		c.cellOnly = false
	}
}

// collectPins gathers the `cell field == literal` conditions of the
// filter's top-level conjunction.
func collectPins(n ast.Node, pins *[]pin) {
	b, ok := n.(*ast.BinaryNode)
	if !ok {
		return
	}
	switch b.Operator {
	case "&&", "and":
		collectPins(b.Left, pins)
		collectPins(b.Right, pins)
	case "==":
		if p, ok := pinOf(b.Left, b.Right); ok {
			*pins = append(*pins, p)
		} else if p, ok := pinOf(b.Right, b.Left); ok {
			*pins = append(*pins, p)
		}
	}
}

func pinOf(field, lit ast.Node) (pin, bool) {
	id, ok := field.(*ast.IdentifierNode)
	if !ok || !slices.Contains(pinFields, id.Value) {
		return pin{}, false
	}
	switch v := lit.(type) {
	case *ast.StringNode:
		if isTextCellField(id.Value) {
			return pin{field: id.Value, text: v.Value}, true
		}
	case *ast.IntegerNode:
		if !isTextCellField(id.Value) {
			return pin{field: id.Value, num: v.Value}, true
		}
	}
	return pin{}, false
}

func isTextCellField(name string) bool {
	return name == "engine" || name == "mode" || name == "ratio" || name == "version"
}

// pinsOf lists the pins a cell with key k satisfies, one per cell field.
func pinsOf(k CellKey) [7]pin {
	return [7]pin{
		{field: "session", num: k.Session},
		{field: "engine", text: k.Engine},
		{field: "mode", text: k.Mode},
		{field: "cores", num: k.Cores},
		{field: "ratio", text: k.Ratio},
		{field: "value_bytes", num: k.ValueBytes},
		{field: "pipeline", num: k.Pipeline},
	}
}

// shapeOf returns the filter's shape, read once.
func (f *Filter) shapeOf() filterShape {
	f.shapeOnce.Do(func() { f.shape = shapeOf(f.text) })
	return f.shape
}

// planOf returns the filter's scan plan, made once.
func (f *Filter) planOf() *scanPlan {
	f.planOnce.Do(func() { f.plan = planOf(f.text) })
	return &f.plan
}
