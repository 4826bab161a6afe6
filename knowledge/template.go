package knowledge

import (
	"fmt"
	"strings"
)

// scope resolves the placeholders of one entry: its own measures and
// figures, then other entries' ("finding:headline-48c.df").
type scope struct {
	measures map[string]*Measure
	figures  map[string]*Figure
	global   func(id string) (map[string]*Measure, map[string]*Figure, bool)
}

var inlineOps = map[string]bool{"ratio": true, "pct": true, "more": true, "less": true, "change": true}

// render replaces every {{…}} placeholder in s:
//
//	{{name}}            a measure (value with unit) or a figure ("3.4×")
//	{{name:exact}}      a measure with every digit ("15,473,658.395 ops/s")
//	{{name:cond}}       the conditions behind a measure
//	{{name:reps}}       "median of 2 reps" or "single run"
//	{{id.name}}         the same, from another entry ("finding:headline-48c.df")
//	{{ratio:a/b}}       an inline figure (ratio, pct, more, less, change)
func (sc scope) render(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("unclosed placeholder in %q: %w", clipText(s[i:]), ErrInvalid)
		}
		b.WriteString(s[:i])
		out, err := sc.resolve(strings.TrimSpace(s[i+2 : i+j]))
		if err != nil {
			return "", err
		}
		b.WriteString(out)
		s = s[i+j+2:]
	}
	if strings.Contains(b.String(), "}}") {
		return "", fmt.Errorf("stray }} in %q: %w", clipText(b.String()), ErrInvalid)
	}
	return b.String(), nil
}

func (sc scope) resolve(ph string) (string, error) {
	ms, fs := sc.measures, sc.figures
	ref := ph
	if dot := strings.Index(ph, "."); dot > 0 && strings.Contains(ph[:dot], ":") {
		id := ph[:dot]
		var ok bool
		ms, fs, ok = sc.global(id)
		if !ok {
			return "", fmt.Errorf("placeholder {{%s}}: unknown entry %q: %w", ph, id, ErrInvalid)
		}
		ref = ph[dot+1:]
	}
	name, mod, _ := strings.Cut(ref, ":")
	if inlineOps[name] && ms != nil {
		a, bName, ok := strings.Cut(mod, "/")
		if !ok {
			return "", fmt.Errorf("placeholder {{%s}}: want {{%s:a/b}}: %w", ph, name, ErrInvalid)
		}
		f := Figure{Name: ph, Kind: name, A: a, B: bName}
		if err := computeFigure(&f, ms); err != nil {
			return "", fmt.Errorf("placeholder {{%s}}: %w", ph, err)
		}
		return f.Text, nil
	}
	if f, ok := fs[name]; ok {
		if mod != "" {
			return "", fmt.Errorf("placeholder {{%s}}: figures take no modifier: %w", ph, ErrInvalid)
		}
		return f.Text, nil
	}
	m, ok := ms[name]
	if !ok {
		return "", fmt.Errorf("placeholder {{%s}}: no measure or figure %q: %w", ph, name, ErrInvalid)
	}
	switch mod {
	case "":
		return formatMeasure(m, false), nil
	case "exact":
		return formatMeasure(m, true), nil
	case "cond":
		return MeasureConditions(*m), nil
	case "reps":
		if m.Cell.Reps == 1 {
			return "single run", nil
		}
		return fmt.Sprintf("median of %d reps", m.Cell.Reps), nil
	}
	return "", fmt.Errorf("placeholder {{%s}}: unknown modifier %q (exact, cond, reps): %w", ph, mod, ErrInvalid)
}

func clipText(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
