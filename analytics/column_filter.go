package analytics

import (
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// scanPlan is how a scan evaluates a filter over the columns: the columns
// it reads (only those the filter names) and, for the simple shapes a
// filter mostly has (a field compared with a literal, joined by &&, || and
// !), a native evaluation over whole runs of a column at a time; any other
// filter runs in expr's VM over one environment per run, filled from the
// columns.
type scanPlan struct {
	fields []string // the columns the filter reads, in columnSpecs order
	usesID bool     // the filter reads id (from the cell records)
	native *vnode   // nil: the VM evaluates it
}

// planOf reads the plan of a filter that has compiled (so it parses).
func planOf(text string) scanPlan {
	tree, err := parser.Parse(text)
	if err != nil {
		return scanPlan{}
	}
	refs := &fieldRefs{}
	ast.Walk(&tree.Node, refs)
	var p scanPlan
	for _, sp := range columnSpecs {
		if slices.Contains(refs.names, sp.name) {
			p.fields = append(p.fields, sp.name)
		}
	}
	p.usesID = slices.Contains(refs.names, "id")
	if !p.usesID {
		c := vcompiler{fields: p.fields}
		if n, ok := c.compile(tree.Node); ok {
			p.native = n
		}
	}
	return p
}

// fieldRefs collects the filter fields a filter names.
type fieldRefs struct{ names []string }

func (r *fieldRefs) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok && !slices.Contains(r.names, id.Value) {
		r.names = append(r.names, id.Value)
	}
}

// vop is what a vnode does.
type vop byte

const (
	vConst  vop = iota // val
	vNot               // !l
	vAnd               // l && r
	vOr                // l || r
	vCell              // a comparison of a cell field: one answer per cell
	vFloat             // a float column op f
	vInt               // a whole-number column op i
	vIntF              // a whole-number column op f (compared as numbers)
	vText              // a text column == s (cmp ==) or != s
	vHitCmp            // hit_rate op f: false without a hit rate
	vHitNil            // hit_rate == nil (cmp ==) or != nil
)

// cmpOp is a comparison.
type cmpOp byte

const (
	cmpEq cmpOp = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

var cmpOps = map[string]cmpOp{"==": cmpEq, "!=": cmpNe, "<": cmpLt, "<=": cmpLe, ">": cmpGt, ">=": cmpGe}

// flipped is the comparison with its sides swapped (1 < x is x > 1).
func (c cmpOp) flipped() cmpOp {
	switch c {
	case cmpLt:
		return cmpGt
	case cmpLe:
		return cmpGe
	case cmpGt:
		return cmpLt
	case cmpGe:
		return cmpLe
	}
	return c
}

// vnode is one node of a native filter.
type vnode struct {
	op   vop
	l, r *vnode
	val  bool
	slot int // the column, an index in scanPlan.fields
	cmp  cmpOp
	f    float64
	i    int
	s    string
	cell func(k *CellKey) bool
}

// vcompiler turns a filter's syntax tree into a native filter, or says it
// cannot (ok false), in which case the VM runs it.
type vcompiler struct{ fields []string }

func (c *vcompiler) compile(n ast.Node) (*vnode, bool) {
	switch v := n.(type) {
	case *ast.BoolNode:
		return &vnode{op: vConst, val: v.Value}, true
	case *ast.UnaryNode:
		if v.Operator != "!" && v.Operator != "not" {
			return nil, false
		}
		x, ok := c.compile(v.Node)
		return &vnode{op: vNot, l: x}, ok
	case *ast.BinaryNode:
		switch v.Operator {
		case "&&", "and", "||", "or":
			l, ok1 := c.compile(v.Left)
			r, ok2 := c.compile(v.Right)
			op := vAnd
			if v.Operator == "||" || v.Operator == "or" {
				op = vOr
			}
			return &vnode{op: op, l: l, r: r}, ok1 && ok2
		}
		cmp, ok := cmpOps[v.Operator]
		if !ok {
			return nil, false
		}
		if id, ok := v.Left.(*ast.IdentifierNode); ok {
			return c.compare(id.Value, cmp, v.Right)
		}
		if id, ok := v.Right.(*ast.IdentifierNode); ok {
			return c.compare(id.Value, cmp.flipped(), v.Left)
		}
	}
	return nil, false
}

// literal is a number or text literal (a signed number included).
type literal struct {
	isText, isInt, isNil bool
	s                    string
	i                    int
	f                    float64
}

func literalOf(n ast.Node) (literal, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return literal{isText: true, s: v.Value}, true
	case *ast.IntegerNode:
		return literal{isInt: true, i: v.Value, f: float64(v.Value)}, true
	case *ast.FloatNode:
		return literal{f: v.Value}, true
	case *ast.NilNode:
		return literal{isNil: true}, true
	case *ast.UnaryNode:
		l, ok := literalOf(v.Node)
		if !ok || l.isText || l.isNil || (v.Operator != "-" && v.Operator != "+") {
			return literal{}, false
		}
		if v.Operator == "-" {
			l.i, l.f = -l.i, -l.f
		}
		return l, true
	}
	return literal{}, false
}

// compare compiles `field cmp literal`.
func (c *vcompiler) compare(field string, cmp cmpOp, lit ast.Node) (*vnode, bool) {
	l, ok := literalOf(lit)
	if !ok {
		return nil, false
	}
	if slices.Contains(cellFields, field) {
		return cellCompare(field, cmp, l)
	}
	slot := slices.Index(c.fields, field)
	sp, ok := columnSpecOf(field)
	if slot < 0 || !ok {
		return nil, false
	}
	n := &vnode{slot: slot, cmp: cmp, f: l.f, i: l.i, s: l.s}
	switch {
	case sp.kind == colOptFloat && l.isNil && (cmp == cmpEq || cmp == cmpNe):
		n.op = vHitNil
	case sp.kind == colOptFloat && !l.isNil && !l.isText && cmp != cmpEq && cmp != cmpNe:
		n.op = vHitCmp // the gate makes these false for a run without a hit rate
	case sp.kind == colFloat && !l.isNil && !l.isText:
		n.op = vFloat
	case sp.kind == colInt && l.isInt:
		n.op = vInt
	case sp.kind == colInt && !l.isNil && !l.isText:
		n.op = vIntF
	case sp.kind == colText && l.isText && (cmp == cmpEq || cmp == cmpNe):
		n.op = vText
	default:
		return nil, false
	}
	return n, true
}

// cellCompare compiles a comparison of a cell field with a literal into a
// test of the cell's key.
func cellCompare(field string, cmp cmpOp, l literal) (*vnode, bool) {
	if isTextCellField(field) {
		if !l.isText || (cmp != cmpEq && cmp != cmpNe) {
			return nil, false
		}
		get := map[string]func(k *CellKey) string{
			"engine":  func(k *CellKey) string { return k.Engine },
			"mode":    func(k *CellKey) string { return k.Mode },
			"ratio":   func(k *CellKey) string { return k.Ratio },
			"version": func(k *CellKey) string { return k.Version },
		}[field]
		want := cmp == cmpEq
		return &vnode{op: vCell, cell: func(k *CellKey) bool { return (get(k) == l.s) == want }}, true
	}
	if l.isText || l.isNil {
		return nil, false
	}
	get := map[string]func(k *CellKey) int{
		"session":     func(k *CellKey) int { return k.Session },
		"cores":       func(k *CellKey) int { return k.Cores },
		"value_bytes": func(k *CellKey) int { return k.ValueBytes },
		"pipeline":    func(k *CellKey) int { return k.Pipeline },
	}[field]
	if l.isInt {
		return &vnode{op: vCell, cell: func(k *CellKey) bool { return compareValues(get(k), l.i, cmp) }}, true
	}
	return &vnode{op: vCell, cell: func(k *CellKey) bool { return compareValues(float64(get(k)), l.f, cmp) }}, true
}

func compareValues[T int | float64](a, b T, c cmpOp) bool {
	switch c {
	case cmpEq:
		return a == b
	case cmpNe:
		return a != b
	case cmpLt:
		return a < b
	case cmpLe:
		return a <= b
	case cmpGt:
		return a > b
	}
	return a >= b
}

// vscratch holds what one query's native evaluation reuses: buffers, one
// per depth, and for each comparison on a coded float column its answer
// for each of the column's distinct values.
type vscratch struct {
	bufs   [][]bool
	tables map[*vnode][]bool
}

func (s *vscratch) table(n *vnode, col *runColumn) []bool {
	if t, ok := s.tables[n]; ok {
		return t
	}
	t := make([]bool, len(col.fdict))
	valuesCompare(col.fdict, n.f, n.cmp, t)
	if s.tables == nil {
		s.tables = map[*vnode][]bool{}
	}
	s.tables[n] = t
	return t
}

func (s *vscratch) get(depth, n int) []bool {
	for len(s.bufs) <= depth {
		s.bufs = append(s.bufs, nil)
	}
	if cap(s.bufs[depth]) < n {
		s.bufs[depth] = make([]bool, n)
	}
	return s.bufs[depth][:n]
}

// eval sets out[j] to whether run from+j (of cell k) matches.
func (n *vnode) eval(cols []*runColumn, k *CellKey, from int, out []bool, sc *vscratch, depth int) {
	to := from + len(out)
	switch n.op {
	case vConst:
		fill(out, n.val)
	case vCell:
		fill(out, n.cell(k))
	case vNot:
		n.l.eval(cols, k, from, out, sc, depth+1)
		for j := range out {
			out[j] = !out[j]
		}
	case vAnd, vOr:
		n.l.eval(cols, k, from, out, sc, depth+1)
		if n.op == vAnd && !slices.Contains(out, true) || n.op == vOr && !slices.Contains(out, false) {
			return // decided without the right side
		}
		tmp := sc.get(depth, len(out))
		n.r.eval(cols, k, from, tmp, sc, depth+1)
		if n.op == vAnd {
			for j := range out {
				out[j] = out[j] && tmp[j]
			}
		} else {
			for j := range out {
				out[j] = out[j] || tmp[j]
			}
		}
	case vFloat, vHitCmp:
		col := cols[n.slot]
		if col.fcodes == nil {
			valuesCompare(col.f[from:to], n.f, n.cmp, out)
		} else {
			table := sc.table(n, col)
			for j, c := range col.fcodes[from:to] {
				out[j] = table[c]
			}
		}
		if n.op == vFloat {
			return
		}
		for j, has := range col.has[from:to] {
			out[j] = out[j] && has
		}
	case vHitNil:
		want := n.cmp == cmpNe
		for j, has := range cols[n.slot].has[from:to] {
			out[j] = has == want
		}
	case vInt:
		valuesCompare(cols[n.slot].i[from:to], n.i, n.cmp, out)
	case vIntF:
		for j, v := range cols[n.slot].i[from:to] {
			out[j] = compareValues(float64(v), n.f, n.cmp)
		}
	case vText:
		col := cols[n.slot]
		code, want := col.code(n.s), n.cmp == cmpEq
		for j, c := range col.codes[from:to] {
			out[j] = (int64(c) == code) == want
		}
	}
}

func fill(out []bool, v bool) {
	for j := range out {
		out[j] = v
	}
}

// valuesCompare sets out[j] to vs[j] c x, one loop per comparison so that
// each is a tight loop.
func valuesCompare[T int | float64](vs []T, x T, c cmpOp, out []bool) {
	switch c {
	case cmpEq:
		for j, v := range vs {
			out[j] = v == x
		}
	case cmpNe:
		for j, v := range vs {
			out[j] = v != x
		}
	case cmpLt:
		for j, v := range vs {
			out[j] = v < x
		}
	case cmpLe:
		for j, v := range vs {
			out[j] = v <= x
		}
	case cmpGt:
		for j, v := range vs {
			out[j] = v > x
		}
	default:
		for j, v := range vs {
			out[j] = v >= x
		}
	}
}

// setEnv copies run p's value of a column into a filter environment.
func setEnv(env *runEnv, name string, c *runColumn, p int) {
	switch name {
	case "ops_per_sec":
		env.OpsPerSec = c.float(p)
	case "ops_per_core":
		env.OpsPerCore = c.float(p)
	case "p50_ms":
		env.P50Ms = c.float(p)
	case "p99_ms":
		env.P99Ms = c.float(p)
	case "p999_ms":
		env.P999Ms = c.float(p)
	case "kb_per_sec":
		env.KBPerSec = c.float(p)
	case "hit_rate":
		env.HitRate = nil
		if c.has[p] {
			env.HitRate = c.floatAt(p) // the VM only reads it
		}
	case "rep":
		env.Rep = c.i[p]
	case "shards":
		env.Shards = c.i[p]
	case "server_threads":
		env.ServerThreads = c.i[p]
	case "client_threads":
		env.ClientThreads = c.i[p]
	case "client_conns":
		env.ClientConns = c.i[p]
	case "key_max":
		env.KeyMax = c.i[p]
	case "test_time_s":
		env.TestTimeS = c.i[p]
	case "conn_errors":
		env.ConnErrors = c.i[p]
	case "run_id":
		env.RunID = c.dict[c.codes[p]]
	case "note":
		env.Note = c.dict[c.codes[p]]
	}
}
