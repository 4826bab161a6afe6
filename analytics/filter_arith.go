package analytics

import (
	"errors"
	"math"

	"github.com/expr-lang/expr"
)

// Arithmetic in filters cannot lie: expr's integer +, - and * wrap around
// (cores > 9223372036854775807 + 1 matched every run) and its / divides
// to ±Inf by zero. The operators are replaced, for the operand types that
// can go wrong, by functions that refuse instead; the error reaches the
// user as a FilterError at the operator (see runtimeError).

var (
	errOverflow = errors.New("integer overflow: the result does not fit in 64 bits")
	errDivZero  = errors.New("division by zero")
)

// arithmeticOptions are the expr options that install the checked
// operators.
func arithmeticOptions() []expr.Option {
	return []expr.Option{
		expr.Function("checkedAdd", func(p ...any) (any, error) {
			a, b := p[0].(int), p[1].(int)
			s := a + b
			if (s > a) != (b > 0) {
				return nil, errOverflow
			}
			return s, nil
		}, new(func(int, int) int)),
		expr.Function("checkedSub", func(p ...any) (any, error) {
			a, b := p[0].(int), p[1].(int)
			d := a - b
			if (d < a) != (b > 0) {
				return nil, errOverflow
			}
			return d, nil
		}, new(func(int, int) int)),
		expr.Function("checkedMul", func(p ...any) (any, error) {
			a, b := p[0].(int), p[1].(int)
			if a == 0 || b == 0 {
				return 0, nil
			}
			m := a * b
			if m/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
				return nil, errOverflow
			}
			return m, nil
		}, new(func(int, int) int)),
		expr.Function("checkedDiv", func(p ...any) (any, error) {
			a, b := toFloat(p[0]), toFloat(p[1])
			if b == 0 {
				return nil, errDivZero
			}
			return a / b, nil
		}, new(func(int, int) float64), new(func(int, float64) float64),
			new(func(float64, int) float64), new(func(float64, float64) float64)),
		expr.Operator("+", "checkedAdd"),
		expr.Operator("-", "checkedSub"),
		expr.Operator("*", "checkedMul"),
		expr.Operator("/", "checkedDiv"),
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}
