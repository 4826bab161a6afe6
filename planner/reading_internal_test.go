package planner

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDebugReading prints the reading of $READ (a debugging aid; it does
// nothing when the variable is unset).
func TestDebugReading(t *testing.T) {
	q := os.Getenv("READ")
	if q == "" {
		t.Skip("set READ to a question")
	}
	p := New(nil, nil, Options{})
	r := p.readTokens(q)
	var b strings.Builder
	for _, tk := range r.toks {
		fmt.Fprintf(&b, "[%s]", tk.text)
	}
	t.Log(b.String())
	for _, tg := range r.tags {
		t.Logf("%d %q %d-%d neg=%v n=%d span=%d-%d", tg.meaning, tg.value, tg.from, tg.to, tg.negated, tg.negators, tg.spanFrom, tg.spanTo)
	}
	t.Log(r.canonical())
}
