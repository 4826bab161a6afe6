package planner

import (
	"reflect"
	"regexp"
	"testing"
)

// The gate must never refuse a text the pattern matches (the grammar test
// checks that over the corpus); here it must also refuse the texts that
// lack a required literal, or it saves nothing.
func TestGateRefusesTextsWithoutARequiredLiteral(t *testing.T) {
	for _, tt := range []struct {
		expr, text string
		admits     bool
	}{
		{`\b(\d+)\s*:\s*(\d+)\b`, "read heavy please", false},
		{`\b(\d+)\s*:\s*(\d+)\b`, "ratio 4 : 1", true},
		{`\b(\d+)\s*:\s*(\d+)\b`, "ratio a:b", false}, // no digit
		{`(?:^|\s)(?:-p|--pipeline(?:=|\s))\s*(\d+)\b`, "pipeline 16", false},
		{`(?:^|\s)(?:-p|--pipeline(?:=|\s))\s*(\d+)\b`, "memtier -p 16", true},
		{`(?:^|[^-])\bmemory\b|\bram\b`, "how much ram", true},
		{`(?:^|[^-])\bmemory\b|\bram\b`, "how fast", false},
		{`\bdown[- _]?after\s*(\d+)`, "after 5 seconds", false},
		// Pieces side by side need their products: the parser factors
		// "-d|--data-size" into "-" then "d|-data-size", each of which
		// most questions hold.
		{`(?:^|\s)(?:-d|--data-size(?:=|\s))\s*(\d+)\b`, "read-heavy dragonfly at 16 cores", false},
		{`(?:^|\s)(?:-d|--data-size(?:=|\s))\s*(\d+)\b`, "memtier --data-size=1024", true},
		{`\bs([12])\b`, "redis at 16 cores", false},
		{`\bs([12])\b`, "redis in s2", true},
		{`\bat\s+(\d+)\b`, "the latest, 16 cores", false}, // a repeat's first copy follows the piece before
		{`\bat\s+(\d+)\b`, "and at 16?", true},
		{`\bfoo\b|\bbar\b|x?`, "anything", true}, // an alternative that needs nothing
		{`(?i)redis`, "REDIS", true},             // case-folded literals are not gated
		// A piece that is no set of strings still ends in one of a few,
		// which the pieces after it follow: "?" or "and" before a space.
		{`(?:\?|;|,?\s+(?:and|also)|\s+-{1,2})\s+(?:what|how)\b`, "which is fastest at 48 cores, read-heavy?", false},
		{`(?:\?|;|,?\s+(?:and|also)|\s+-{1,2})\s+(?:what|how)\b`, "redis p99? what about valkey", true},
		{`(?:\?|;|,?\s+(?:and|also)|\s+-{1,2})\s+(?:what|how)\b`, "redis p99 -- how about valkey", true},
		{`(?:\d+|x*)\s+cores`, "many cores", true}, // an alternative may end in nothing
	} {
		r := newRx(tt.expr)
		if got := r.possible(tt.text); got != tt.admits {
			t.Errorf("gate of %s on %q: %v, want %v", tt.expr, tt.text, got, tt.admits)
		}
		if !r.possible(tt.text) && r.compiled().MatchString(tt.text) {
			t.Errorf("gate of %s refuses %q, which it matches", tt.expr, tt.text)
		}
	}
}

// possible reports whether the pattern can match the text at all.
func (r *rx) possible(text string) bool {
	r.parse()
	return r.gate.admits(text)
}

// A pattern runs from just before the first byte a match can start with:
// what it finds there must be what it finds over the whole text, where a
// \b or ^ depends on the byte before.
func TestSkippingToAStartByteFindsWhatTheWholeTextHolds(t *testing.T) {
	for _, tt := range []struct{ expr, text string }{
		{`\b(\d+)\s*cores?\b`, "xp16 cores, 8 cores"},
		{`\b(\d+)\s*cores?\b`, "16 cores"},
		{`(?:^|\s)(?:-p|--pipeline(?:=|\s))\s*(\d+)\b`, "-p 16 and x-p 4 and -p 8"},
		{`(?:^|\s)(?:-p|--pipeline(?:=|\s))\s*(\d+)\b`, "memtier -p 16"},
		{`^(\d+)\b`, "a 16"},
		{`\bs([12])\b`, "runs2 s1 s2"},
		{`x*`, "yyy"}, // a match may be empty: nothing is skipped
	} {
		r, whole := newRx(tt.expr), regexp.MustCompile(tt.expr)
		if got, want := r.FindAllStringSubmatchIndex(tt.text, -1), whole.FindAllStringSubmatchIndex(tt.text, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("%s on %q: %v, want %v", tt.expr, tt.text, got, want)
		}
		if got, want := r.MatchString(tt.text), whole.MatchString(tt.text); got != want {
			t.Errorf("%s matches %q: %v, want %v", tt.expr, tt.text, got, want)
		}
	}
}
